// Messages between SqliteThreadStore and its thread. Structured clone turns a Buffer into a plain Uint8Array;
// reviveBuffers turns them back on arrival, so both sides see the Buffers the Store contract promises.

export interface ThreadCall {
  id: number;
  /** The store part the method belongs to; null: a lifecycle method of the store itself (migrate, ping, close…). */
  part: string | null;
  method: string;
  args: unknown[];
}

export type ThreadAnswer =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { name: string; message: string; code?: string; stack?: string } };

/** Posted by the thread, unasked, when its driver fails for good (a failed fsync): no call can succeed after it. */
export interface ThreadFatal {
  fatal: { message: string; code: string };
}

/**
 * Structured clone copies a typed array's whole backing ArrayBuffer, and a small Buffer usually views a slice of an
 * 8 KB pool: posting a 1 KB event body as is would copy 8 KB. Such a Buffer is sent as an exact copy instead.
 */
export function exactBytes(b: Buffer): Uint8Array {
  return b.byteLength === b.buffer.byteLength ? b : new Uint8Array(b);
}

export function reviveBuffers(v: unknown): any {
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof Uint8Array) return Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (x !== null && typeof x === 'object') v[i] = reviveBuffers(x);
    }
    return v;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return v; // Map, Set, Date: cloned faithfully already
  const o = v as Record<string, unknown>;
  for (const k in o) {
    const x = o[k];
    if (x !== null && typeof x === 'object') o[k] = reviveBuffers(x);
  }
  return o;
}
