// Parses a JSON request body and refuses what JSON.parse lets through: nesting deep enough to overflow a later
// recursion (validation, serialisation) and lone surrogates, which no UTF-8 store or receiver can represent (I-JSON).
import { isUtf8 } from 'node:buffer';
import { fail } from '@hookline/core';
import { pointerToken } from './validation.ts';

/** Arrays and objects nest at most this deep (a top-level object is depth 1). */
export const MAX_JSON_DEPTH = 64;

// String.prototype.isWellFormed (Node 20) is not in the ES2022 lib this repository compiles against.
const wellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

interface Frame {
  readonly value: object;
  readonly depth: number;
  readonly key: string | number | null;
  readonly parent: Frame | null;
}

function pointer(frame: Frame | null, last?: string | number): string {
  const tokens: string[] = last === undefined ? [] : [pointerToken(last)];
  for (let f = frame; f && f.key !== null; f = f.parent) tokens.push(pointerToken(f.key));
  // The path itself may hold the surrogate (in a key); the message shows U+FFFD instead.
  return tokens.length ? `/${tokens.reverse().join('/')}`.replace(/\p{Cs}/gu, '\ufffd') : '';
}

/** Walks `root` without recursion (a hostile body may nest 500,000 levels); throws json_too_deep or json_invalid_unicode. */
export function checkJsonValue(root: unknown, maxDepth = MAX_JSON_DEPTH): void {
  if (typeof root === 'string') {
    if (!wellFormed(root)) throw fail('json_invalid_unicode', { path: '(the whole body)' });
    return;
  }
  if (root === null || typeof root !== 'object') return;
  const stack: Frame[] = [{ value: root, depth: 1, key: null, parent: null }];
  while (stack.length) {
    const frame = stack.pop()!;
    if (frame.depth > maxDepth) throw fail('json_too_deep', { max: maxDepth });
    // Keys and values as two arrays, not an [key, value] array per member (a batch body has thousands). Values are
    // read with Object.values, not value[key]: JSON.parse makes "__proto__" an own key, which value[key] would miss.
    if (Array.isArray(frame.value)) {
      const items = frame.value;
      for (let i = 0; i < items.length; i++) checkMember(stack, frame, i, items[i]);
    } else {
      const keys = Object.keys(frame.value);
      const values = Object.values(frame.value);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        if (!wellFormed(key)) throw fail('json_invalid_unicode', { path: pointer(frame, key) || '/' });
        checkMember(stack, frame, key, values[i]);
      }
    }
  }
}

function checkMember(stack: Frame[], frame: Frame, key: string | number, v: unknown): void {
  if (typeof v === 'string') {
    if (!wellFormed(v)) throw fail('json_invalid_unicode', { path: pointer(frame, key) });
  } else if (v !== null && typeof v === 'object') {
    stack.push({ value: v, depth: frame.depth + 1, key, parent: frame });
  }
}

/** The body as a value; `undefined` for an empty body ("no body"). */
export function parseJsonBody(buf: Buffer): unknown {
  if (buf.length === 0) return undefined;
  // Bytes that are not UTF-8 are not JSON text (RFC 8259 §8.1); decoding them would silently substitute U+FFFD.
  if (!isUtf8(buf)) throw fail('invalid_json');
  let value: unknown;
  try {
    value = JSON.parse(buf.toString('utf8'));
  } catch {
    throw fail('invalid_json');
  }
  checkJsonValue(value);
  return value;
}
