// A JSON log line written by hand when its fields are flat (strings, numbers, booleans, null): the attempt line, one
// per attempt, is most of what a busy engine logs, and pino's general serializer was most of its cost
// (docs/performance.md#logging-off-the-hot-path). The text is pino's own for the same call, byte for byte
// (flat-log-line.test.ts compares them); a line it cannot write so returns null, and pino writes it.

/** A UTF-16 surrogate without its other half. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when `s` has no quote, backslash, control character or surrogate: written as it is between quotes. */
function plain(s: string): boolean {
  // A loop beats a regular expression on these short strings (ids, names of states), and most lines have a dozen.
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

/**
 * `s` as a JSON string, as pino writes it; null for a lone surrogate, which pino writes raw on Node < 25 and escaped
 * from 25 on (JSON.stringify): such a line is left to pino. Pino (Node < 25) escapes a quote or a backslash with a
 * backslash and anything else with JSON.stringify, so JSON.stringify of any other string is its text too.
 */
function jsonString(s: string): string | null {
  if (plain(s)) return `"${s}"`;
  return LONE_SURROGATE.test(s) ? null : JSON.stringify(s);
}

/** `,"key":` by key: the same few keys come on every line. Bounded, should a caller make keys up. */
const keyTexts = new Map<string, string>();
function keyText(key: string): string | null {
  let text = keyTexts.get(key);
  if (text === undefined) {
    const k = jsonString(key);
    if (k === null) return null;
    text = `,${k}:`;
    if (keyTexts.size < 1000) keyTexts.set(key, text);
  }
  return text;
}

/**
 * The line pino writes for `{head}` + `fields` + `msg`, where `head` is its level and time (`{"level":"info","time":
 * "…"`): each own field in order, undefined ones left out, a non-finite number as null, then `msg`. Null when a
 * field is not flat (an object, an Error, a bigint, a function: pino's serializers, JSON.stringify and its
 * fallbacks decide those), a string has a lone surrogate, or the fields look like an HTTP request (pino maps those).
 */
export function flatLogLine(head: string, msg: string, fields: object | undefined): string | null {
  let line = head;
  if (fields !== undefined) {
    if (fields instanceof Error || (fields as { socket?: unknown }).socket) return null;
    for (const key in fields) {
      if (!Object.hasOwn(fields, key)) continue;
      const v = (fields as Record<string, unknown>)[key];
      let text: string | null;
      switch (typeof v) {
        case 'string':
          text = jsonString(v);
          break;
        case 'number':
          text = Number.isFinite(v) ? `${v}` : 'null';
          break;
        case 'boolean':
          text = v ? 'true' : 'false';
          break;
        case 'undefined':
          continue;
        default:
          if (v !== null) return null;
          text = 'null';
      }
      const k = keyText(key);
      if (text === null || k === null) return null;
      line += k + text;
    }
  }
  const m = jsonString(msg);
  return m === null ? null : `${line},"msg":${m}}\n`;
}
