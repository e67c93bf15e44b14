// Deliveries (the dead letter is status=failed): filters by status, endpoint, event type, event id and creation time,
// kept in the URL (#/t/<tenant>/deliveries?status=failed&…) so a filtered list can be bookmarked; paginated by cursor.
import { Button } from '@radix-ui/themes';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api.ts';
import { Badge, Loading, Page, ScrollTable, when } from '../components/page.tsx';
import { TableHead } from '../components/table-head.tsx';
import { go, tenantHref } from '../router.ts';
import { useLoad } from '../use-load.ts';

const STATUSES = ['pending', 'delivering', 'held', 'succeeded', 'failed', 'skipped'] as const;
type Status = (typeof STATUSES)[number];
const FILTERS = ['status', 'endpoint_id', 'event_type', 'event_id', 'since', 'until'] as const;
/** Rows per page: ?limit= in the URL (1-200), default 50. */
const pageSize = (raw: string | null) =>
  raw && /^\d+$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 200 ? Number(raw) : 50;

/** "2026-01-02T03:04" (a datetime-local value, local time) ⇄ ISO-8601. */
const toIso = (local: string, plusMs = 0) =>
  local && !Number.isNaN(Date.parse(local)) ? new Date(Date.parse(local) + plusMs).toISOString() : '';
function toLocal(iso: string | null): string {
  if (!iso || Number.isNaN(Date.parse(iso))) return '';
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function DeliveriesPage({ tenant, query }: { tenant: string; query: URLSearchParams }) {
  const key = query.toString();
  const loaded = useLoad(async () => {
    const q = new URLSearchParams(key);
    const status = q.get('status');
    const [page, endpoints] = await Promise.all([
      api
        .GET('/v1/tenants/{tenant}/deliveries', {
          params: {
            path: { tenant },
            query: {
              limit: pageSize(q.get('limit')),
              ...(status && (STATUSES as readonly string[]).includes(status) ? { status: status as Status } : {}),
              ...Object.fromEntries(
                ['endpoint_id', 'event_type', 'event_id', 'since', 'until', 'cursor'].flatMap((k) =>
                  q.get(k) ? [[k, q.get(k)!]] : [],
                ),
              ),
            },
          },
        })
        .then(unwrap),
      api.GET('/v1/tenants/{tenant}/endpoints', { params: { path: { tenant }, query: { limit: 200 } } }).then(unwrap),
    ]);
    return { page, endpoints: endpoints.items };
  }, [tenant, key]);
  return (
    <Page title="Deliveries">
      <Filters key={key} tenant={tenant} query={query} endpoints={loaded.data?.endpoints ?? []} />
      <Loading loaded={loaded}>
        {({ page, endpoints }) => {
          const names = new Map(endpoints.map((e) => [e.id, e.description || e.id]));
          const next = page.next_cursor
            ? new URLSearchParams({ ...Object.fromEntries(query), cursor: page.next_cursor })
            : null;
          return (
            <>
              <p id="deliveries-count" role="status">
                {page.items.length === 0
                  ? 'No deliveries match.'
                  : `${page.items.length} deliveries${query.get('cursor') ? ' (a later page)' : ''}${next ? '; more on the next page' : ''}.`}
              </p>
              <ScrollTable>
                <table id="deliveries">
                  <TableHead
                    columns={[
                      'Delivery',
                      'Status',
                      'Event type',
                      'Event id',
                      'Endpoint',
                      'Attempts',
                      'Reason',
                      'Created',
                    ]}
                  />
                  <tbody>
                    {page.items.map((d) => (
                      <tr key={d.id}>
                        <td>
                          <a href={tenantHref(tenant, 'deliveries', d.id)}>{d.id}</a>
                        </td>
                        <td>
                          <Badge status={d.status} />
                        </td>
                        <td>{d.event_type}</td>
                        <td className="wrap">{d.event_id}</td>
                        <td>{names.get(d.endpoint_id) ?? d.endpoint_id}</td>
                        <td>{d.attempt_count}</td>
                        <td className="wrap">{d.terminal_reason ?? ''}</td>
                        <td>{when(d.created_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollTable>
              <nav aria-label="Pages" className="pager">
                {query.get('cursor') ? (
                  <a
                    href={`${tenantHref(tenant, 'deliveries')}?${new URLSearchParams([...query].filter(([k]) => k !== 'cursor'))}`}
                  >
                    First page
                  </a>
                ) : null}
                {next ? <a href={`${tenantHref(tenant, 'deliveries')}?${next}`}>Next page</a> : null}
              </nav>
            </>
          );
        }}
      </Loading>
    </Page>
  );
}

function Filters({
  tenant,
  query,
  endpoints,
}: {
  tenant: string;
  query: URLSearchParams;
  endpoints: ReadonlyArray<{ id: string; description: string }>;
}) {
  const [v, setV] = useState(() => ({
    status: query.get('status') ?? '',
    endpoint_id: query.get('endpoint_id') ?? '',
    event_type: query.get('event_type') ?? '',
    event_id: query.get('event_id') ?? '',
    since: toLocal(query.get('since')),
    until: toLocal(query.get('until')),
  }));
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = new URLSearchParams();
    if (query.get('limit')) p.set('limit', query.get('limit')!);
    for (const k of FILTERS) {
      const raw = v[k].trim();
      // A datetime-local has minute precision: "until 10:05" includes the whole of that minute.
      const value = k === 'since' ? toIso(raw) : k === 'until' ? toIso(raw, 59_999) : raw;
      if (value) p.set(k, value);
    }
    go(`${tenantHref(tenant, 'deliveries')}?${p}`);
  };
  const known = endpoints.some((e) => e.id === v.endpoint_id);
  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is not yet announced by every screen reader; the role is.
    <form className="filters" role="search" aria-label="Filter deliveries" onSubmit={submit}>
      <div>
        <label htmlFor="status">Status</label>
        <select id="status" name="status" value={v.status} onChange={set('status')}>
          <option value="">any</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="endpoint_id">Endpoint</label>
        <select id="endpoint_id" name="endpoint_id" value={v.endpoint_id} onChange={set('endpoint_id')}>
          <option value="">any</option>
          {!known && v.endpoint_id ? <option value={v.endpoint_id}>{v.endpoint_id}</option> : null}
          {endpoints.map((e) => (
            <option key={e.id} value={e.id}>
              {e.description || e.id}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="event_type">Event type</label>
        <input id="event_type" name="event_type" value={v.event_type} onChange={set('event_type')} />
      </div>
      <div>
        <label htmlFor="event_id">Event id</label>
        <input id="event_id" name="event_id" value={v.event_id} onChange={set('event_id')} />
      </div>
      <div>
        <label htmlFor="since">Created since</label>
        <input id="since" name="since" type="datetime-local" value={v.since} onChange={set('since')} />
      </div>
      <div>
        <label htmlFor="until">Created until</label>
        <input id="until" name="until" type="datetime-local" value={v.until} onChange={set('until')} />
      </div>
      <div>
        <Button type="submit">Filter</Button>
      </div>
    </form>
  );
}
