// W3C Trace Context (traceparent, tracestate) as Hookline stores and sends it: validated strictly, kept as text.

/** The context an event's attempts continue (docs/observability.md#traces). */
export interface TraceContext {
  /** `00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>` */
  readonly traceparent: string;
  /** The vendor list beside it, as received; null when none came. */
  readonly tracestate: string | null;
}

export interface ParsedTraceparent {
  traceId: string;
  spanId: string;
  flags: number;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
/** W3C: at most 32 list members; 512 characters is the size every implementation must keep. */
export const MAX_TRACESTATE_CHARS = 512;
const TRACESTATE = /^[\x20-\x7e]*$/;

/**
 * A traceparent by W3C Trace Context level 1: version `ff` is invalid, version `00` has exactly four fields, later
 * versions may add fields after them; all-zero trace or parent ids are invalid. null for anything else.
 */
export function parseTraceparent(value: string | null | undefined): ParsedTraceparent | null {
  if (typeof value !== 'string') return null;
  const m = TRACEPARENT.exec(value.trim());
  if (!m) return null;
  const [, version, traceId, spanId, flags, rest] = m;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return null;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return null;
  return { traceId, spanId, flags: Number.parseInt(flags, 16) };
}

/**
 * The context to store from what a producer sent, or null: an invalid traceparent is ignored, as a W3C receiver does
 * (the event is still accepted), and a tracestate counts only beside a valid traceparent.
 */
export function traceContextOf(
  traceparent: string | null | undefined,
  tracestate: string | null | undefined,
): TraceContext | null {
  const parsed = parseTraceparent(traceparent);
  if (parsed === null) return null;
  // Stored as version 00: what Hookline sends on is level 1, whatever later version came in.
  const normal = formatTraceparent(parsed.traceId, parsed.spanId, parsed.flags);
  const state =
    typeof tracestate === 'string' &&
    tracestate.trim().length > 0 &&
    tracestate.length <= MAX_TRACESTATE_CHARS &&
    TRACESTATE.test(tracestate)
      ? tracestate.trim()
      : null;
  return { traceparent: normal, tracestate: state };
}

/** The traceparent of a span: version 00. */
export function formatTraceparent(traceId: string, spanId: string, flags: number): string {
  return `00-${traceId}-${spanId}-${(flags & 0xff).toString(16).padStart(2, '0')}`;
}
