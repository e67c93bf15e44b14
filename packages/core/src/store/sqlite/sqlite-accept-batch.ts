// An accepted batch crosses to the SQLite store thread as one transferable buffer, not as a structured clone of every
// event (a clone walks each object property by property, and each body was copied out of its pooled Buffer first):
// the rows' fields as one JSON text, then every body's bytes back to back. The thread answers with only what its
// inserts decided; the caller completes its own events into the results (docs/performance.md, "Round 7").
import { newDelivery } from '../events/event-rows.ts';
import type { AcceptResult, NewEvent } from '../store.ts';

/** Per created event, per delivery: an ordered delivery's number and due time from its insert, else 0. */
export type AcceptAnswer = Array<
  { kind: 'created'; ordered: Array<[number, number | null] | 0> } | Exclude<AcceptResult, { kind: 'created' }>
>;

/**
 * `[u32 LE: n][n bytes: JSON {lengths, events}][body 0][body 1]…` in an ArrayBuffer of its own (to transfer). The
 * JSON holds each NewEvent without its body; every field but the body must be JSON (strings, numbers, booleans, null).
 */
export function encodeAcceptBatch(events: readonly NewEvent[]): ArrayBuffer {
  const lengths: number[] = new Array(events.length);
  const fields = events.map((ne, i) => {
    lengths[i] = ne.event.body.byteLength;
    return { ...ne, event: { ...ne.event, body: undefined } };
  });
  const json = JSON.stringify({ lengths, events: fields });
  const jsonBytes = Buffer.byteLength(json);
  let total = 4 + jsonBytes;
  for (const n of lengths) total += n;
  // allocUnsafeSlow: never a slice of the shared pool, so the whole ArrayBuffer is this batch and can be transferred.
  const out = Buffer.allocUnsafeSlow(total);
  out.writeUInt32LE(jsonBytes, 0);
  out.write(json, 4, 'utf8');
  let at = 4 + jsonBytes;
  for (const ne of events) at += ne.event.body.copy(out, at);
  return out.buffer as ArrayBuffer;
}

/** The batch back as NewEvents; each body is a view of the buffer (no copy). */
export function decodeAcceptBatch(buffer: ArrayBuffer): NewEvent[] {
  const bytes = Buffer.from(buffer);
  const jsonBytes = bytes.readUInt32LE(0);
  const { lengths, events } = JSON.parse(bytes.toString('utf8', 4, 4 + jsonBytes)) as {
    lengths: number[];
    events: NewEvent[];
  };
  let at = 4 + jsonBytes;
  for (let i = 0; i < events.length; i++) {
    events[i].event.body = bytes.subarray(at, at + lengths[i]);
    at += lengths[i];
  }
  return events;
}

/** On the thread: the results without what the caller already has (its events, and deliveries it described). */
export function answerOf(results: readonly AcceptResult[]): AcceptAnswer {
  return results.map((r) =>
    r.kind === 'created'
      ? {
          kind: 'created',
          ordered: r.deliveries.map((d): [number, number | null] | 0 =>
            d.orderingSeq == null ? 0 : [d.orderingSeq, d.nextAttemptAt],
          ),
        }
      : r,
  );
}

/** On the caller's side: the results the store built, rebuilt from the caller's own events and the answer. */
export function resultsOf(events: readonly NewEvent[], answer: AcceptAnswer): AcceptResult[] {
  return answer.map((a, i) => {
    if (a.kind !== 'created') return a;
    const ne = events[i];
    return {
      kind: 'created',
      event: ne.event,
      // As the store's insert built them (events/event-sql.ts): an ordered delivery with its number and due time.
      deliveries: ne.deliveries.map((d, j) => {
        const o = a.ordered[j];
        return o === 0
          ? newDelivery(ne.event, d)
          : newDelivery(ne.event, d, { orderingSeq: o[0], nextAttemptAt: o[1] });
      }),
    };
  });
}
