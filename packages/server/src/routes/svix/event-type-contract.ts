// What a registered event type means to a Svix message: the version its payload is checked against (the first one
// defined, normally "1": Svix messages carry no version) and the example send-example sends.
import { fail } from '@hookline/core';
import type { EventTypeView } from '../../event-types/event-type-registry.ts';

export function versionFor(def: EventTypeView | null): string {
  return def ? (Object.keys(def.versions)[0] ?? '1') : '1';
}

/** The example of the version; Svix's exampleIndex counts examples, of which a Hookline version has at most one. */
export function exampleOf(def: EventTypeView, version: string, index: number): unknown {
  const example = def.versions[version]?.example;
  // Without an example, the first is an empty object (an event type whose schema refuses it fails the check).
  if (index === 0 && example === undefined) return {};
  if (index > 0)
    throw fail(
      'invalid_request',
      {
        detail: `event type ${def.name} has no example ${index}`,
      },
      { details: [{ in: 'body', path: '/exampleIndex', message: `event type ${def.name} has no example ${index}` }] },
    );
  return example;
}
