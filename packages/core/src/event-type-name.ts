// The event type name rule: the names an event type may have, the patterns an endpoint subscribes with, and the
// Svix-compatible API's wider rule. Every validator of an event type name (ajv schemas, the Svix reader) reads it here.

/** One dot-separated segment of a name: letters, digits, `_` and `-`. */
const SEGMENT = '[A-Za-z0-9_-]+';

/** An event type's name (`invoice.paid`): dot-separated segments, at most 200 characters. */
export const EVENT_TYPE_NAME = Object.freeze({
  pattern: `^${SEGMENT}(\\.${SEGMENT})*$`,
  maxLength: 200,
});

/** What an endpoint subscribes to: a name, `prefix.*`, or `*` for every type; at most 200 characters. */
export const EVENT_TYPE_SUBSCRIPTION = Object.freeze({
  pattern: `^(\\*|${SEGMENT}(\\.${SEGMENT})*(\\.\\*)?)$`,
  maxLength: 200,
});

/**
 * The Svix-compatible API keeps Svix's own rule (docs/svix-compatibility.md#event-types): the same characters and the
 * dot in any order, 1 to 256 of them, so a name Svix accepts is accepted here too. A wider rule than
 * EVENT_TYPE_NAME: a Svix name such as `a..b` cannot be registered or subscribed to through `/v1`.
 */
export const SVIX_EVENT_TYPE_NAME = /^[A-Za-z0-9_.-]{1,256}$/;
