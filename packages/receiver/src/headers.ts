// Case-insensitive header lookup over Node's header objects and fetch `Headers`.

/** Headers as Node (`IncomingHttpHeaders`), plain objects or fetch `Headers` present them. */
export type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

/**
 * Reads one header; repeated values are joined with ", " as HTTP does.
 *
 * @example
 * readHeader({ 'Webhook-Id': 'msg_1' }, 'webhook-id') // 'msg_1'
 */
export function readHeader(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  // Node lower-cases incoming names, so the direct lookup is the common, fast path.
  let value = record[name];
  if (value === undefined) {
    for (const key of Object.keys(record)) {
      if (key.toLowerCase() === name) {
        value = record[key];
        break;
      }
    }
  }
  if (Array.isArray(value)) return value.join(', ');
  return value;
}

/** The headers an inbox keeps with the event: its ids, timestamp, signature, content type and the doctor's mark. */
export const KEPT_HEADERS = Object.freeze([
  'content-type',
  'x-webhook-id',
  'x-webhook-delivery',
  'x-webhook-timestamp',
  'x-webhook-signature',
  // Kept so a handler that opted in to the doctor's checks (`doctorEvents: 'handle'`) can tell them from the stored copy.
  'x-webhook-doctor',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'svix-id',
  'svix-timestamp',
  'svix-signature',
]);

/**
 * The kept headers present on a request, lower-case names.
 *
 * @example
 * keptHeaders({ 'X-Webhook-Id': 'evt_1', cookie: 'x' }) // { 'x-webhook-id': 'evt_1' }
 */
export function keptHeaders(headers: HeaderSource): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = readHeader(headers, name);
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}
