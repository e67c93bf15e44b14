// A labelled form field on Radix Themes: the <label> names the control (htmlFor), help text is its description.
import { Text, TextField } from '@radix-ui/themes';
import type { ComponentProps } from 'react';

export function Field({
  id,
  label,
  help,
  ...input
}: { id: string; label: string; help?: string } & Omit<ComponentProps<typeof TextField.Root>, 'id'>) {
  return (
    <div className="field">
      <Text as="label" htmlFor={id} size="2" weight="bold">
        {label}
      </Text>
      <TextField.Root id={id} aria-describedby={help ? `${id}-help` : undefined} {...input} />
      {help ? (
        <Text as="p" size="1" color="gray" id={`${id}-help`} className="help">
          {help}
        </Text>
      ) : null}
    </div>
  );
}
