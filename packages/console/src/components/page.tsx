// A page's frame: its <h1>, the document title, what to show while loading or when the API refused, and the small
// pieces every page shares (status badges, announced messages, scrolling tables, titled sections), on Radix Themes.
import { Box, Callout, Card, Code, DataList, Heading, Badge as RadixBadge, Text } from '@radix-ui/themes';
import { type ReactNode, useEffect } from 'react';
import { HooklineApiError, isStatus, messageOf } from '../api.ts';
import { go } from '../router.ts';
import type { Loaded } from '../use-load.ts';

export function Page({ title, children }: { title: string; children?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Hookline console`;
  }, [title]);
  return (
    <>
      <Heading as="h1" size="6" mb="3">
        {title}
      </Heading>
      {children}
    </>
  );
}

/** A titled part of a long page, boxed, with an id the page's section links jump to. */
export function Section({ id, title, children }: { id: string; title: string; children?: ReactNode }) {
  return (
    <Card asChild size="2" my="4">
      <section id={id} aria-labelledby={`${id}-heading`}>
        <Heading as="h2" size="4" mb="2" id={`${id}-heading`}>
          {title}
        </Heading>
        {children}
      </section>
    </Card>
  );
}

/** Links to a long page's sections, so the page reads as parts. */
export function SectionLinks({ sections }: { sections: ReadonlyArray<readonly [id: string, title: string]> }) {
  return (
    <nav aria-label="On this page" className="section-links">
      {sections.map(([id, title]) => (
        <a
          key={id}
          href={`#${id}`}
          onClick={(e) => {
            // The hash is the router's; jump to the section without changing the page.
            e.preventDefault();
            document.getElementById(id)?.scrollIntoView();
            document.getElementById(`${id}-heading`)?.focus();
          }}
        >
          {title}
        </a>
      ))}
    </nav>
  );
}

export function ErrorPage({ error }: { error: unknown }) {
  useEffect(() => {
    if (isStatus(error, 401)) go('#/signin');
  }, [error]);
  const notFound = isStatus(error, 404);
  return (
    <Page title={notFound ? 'Not found' : 'Something went wrong'}>
      <Callout.Root color="red" role="alert">
        <Callout.Text className="error">{messageOf(error)}</Callout.Text>
      </Callout.Root>
      {error instanceof HooklineApiError ? (
        <p>
          <Code>{error.code}</Code>
        </p>
      ) : null}
    </Page>
  );
}

/** Renders `children(data)` once loaded; the error page if the load failed; "Loading…" meanwhile. */
export function Loading<T>({ loaded, children }: { loaded: Loaded<T>; children: (data: T) => ReactNode }) {
  if (loaded.error) return <ErrorPage error={loaded.error} />;
  if (loaded.data === null) return <p aria-busy="true">Loading…</p>;
  return <>{children(loaded.data)}</>;
}

// Each status's colour; the text says the status, the colour only repeats it.
const COLOURS: Record<string, 'green' | 'red' | 'amber' | 'violet' | 'blue' | 'gray'> = {
  active: 'green',
  succeeded: 'green',
  success: 'green',
  closed: 'green',
  failed: 'red',
  delivery_failure: 'red',
  client_error: 'red',
  open: 'red',
  degraded: 'amber',
  pending: 'amber',
  half_open: 'amber',
  probing: 'amber',
  held: 'violet',
  paused: 'gray',
  skipped: 'gray',
  delivering: 'blue',
};

export function Badge({ status }: { status: string }) {
  return (
    <RadixBadge color={COLOURS[status] ?? 'gray'} variant="soft" highContrast className={`badge ${status}`}>
      {status}
    </RadixBadge>
  );
}

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

/** A message line that screen readers announce (role=status), red when it reports an error. */
export function Status({ id, message }: { id: string; message: { text: string; error?: boolean } | null }) {
  return (
    <Text
      as="p"
      role="status"
      id={id}
      color={message?.error ? 'red' : undefined}
      className={message?.error ? 'error' : undefined}
    >
      {message?.text ?? ''}
    </Text>
  );
}

/** Why a control is disabled, shown next to it (and named by its aria-describedby): a disabled button says why. */
export function Reason({ id, children }: { id: string; children: ReactNode }) {
  return (
    <Text as="p" size="2" color="gray" id={id} className="hint">
      {children}
    </Text>
  );
}

export function ScrollTable({ children }: { children: ReactNode }) {
  return <Box className="table-wrap">{children}</Box>;
}

/** One fact of a page's summary list (a DataList item): its label, and its value under an id tests and links can name. */
export function Fact({ label, id, children }: { label: string; id?: string; children: ReactNode }) {
  return (
    <DataList.Item>
      <DataList.Label>{label}</DataList.Label>
      <DataList.Value id={id} className="wrap">
        {children}
      </DataList.Value>
    </DataList.Item>
  );
}
