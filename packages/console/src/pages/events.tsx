// Events search (docs/api.md#event-search): by type, event_id prefix, accept time and a payload filter, kept in the URL
// (#/t/<tenant>/events?type=…&filter=…) so a search can be bookmarked; paged by cursor; the selection as NDJSON.
import { Button } from '@radix-ui/themes';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api.ts';
import { Badge, Loading, Page, ScrollTable, when } from '../components/page.tsx';
import { TableHead } from '../components/table-head.tsx';
import { go, tenantHref } from '../router.ts';
import { useLoad } from '../use-load.ts';

const FILTERS = ['type', 'event_id_prefix', 'since', 'until', 'filter'] as const;
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

/** The search's own parameters from the page's query (limit and cursor aside). */
const selectionOf = (q: URLSearchParams) =>
  Object.fromEntries(FILTERS.flatMap((k) => (q.get(k) ? [[k, q.get(k)!]] : [])));

export function EventsPage({ tenant, query }: { tenant: string; query: URLSearchParams }) {
  const key = query.toString();
  const loaded = useLoad(async () => {
    const q = new URLSearchParams(key);
    return api
      .GET('/v1/tenants/{tenant}/events', {
        params: {
          path: { tenant },
          query: {
            limit: pageSize(q.get('limit')),
            ...selectionOf(q),
            ...(q.get('cursor') ? { cursor: q.get('cursor')! } : {}),
          },
        },
      })
      .then(unwrap);
  }, [tenant, key]);
  const exportHref = `/v1/tenants/${encodeURIComponent(tenant)}/events?${new URLSearchParams({ ...selectionOf(query), format: 'ndjson' })}`;
  return (
    <Page title="Events">
      <Search key={key} tenant={tenant} query={query} />
      <p>
        <a id="events-export" href={exportHref} download="events.ndjson">
          Export the whole selection as NDJSON
        </a>
      </p>
      <Loading loaded={loaded}>
        {(page) => {
          const next = page.next_cursor
            ? new URLSearchParams({ ...Object.fromEntries(query), cursor: page.next_cursor })
            : null;
          return (
            <>
              <p id="events-count" role="status">
                {page.items.length === 0
                  ? next
                    ? 'No events on this page; the search goes on on the next page.'
                    : 'No events match.'
                  : `${page.items.length} events${query.get('cursor') ? ' (a later page)' : ''}${next ? '; more on the next page' : ''}.`}
              </p>
              <ScrollTable>
                <table id="events">
                  <TableHead columns={['Event id', 'Type', 'Accepted', 'Deliveries', 'Payload']} />
                  <tbody>
                    {page.items.map((e) => (
                      <tr key={e.id}>
                        <td className="wrap" title={e.id}>
                          {e.event_id}
                        </td>
                        <td>{e.type}</td>
                        <td>{when(e.created_at)}</td>
                        <td>
                          {e.deliveries.length === 0
                            ? 'none'
                            : e.deliveries.map((d) => (
                                <div key={d.id}>
                                  <a href={tenantHref(tenant, 'deliveries', d.id)}>{d.endpoint_id}</a>{' '}
                                  <Badge status={d.status} /> {d.attempts} attempts
                                </div>
                              ))}
                        </td>
                        <td>
                          <details>
                            <summary>JSON</summary>
                            <pre className="wrap">{JSON.stringify(e.payload, null, 2)}</pre>
                          </details>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollTable>
              <nav aria-label="Pages" className="pager">
                {query.get('cursor') ? (
                  <a
                    href={`${tenantHref(tenant, 'events')}?${new URLSearchParams([...query].filter(([k]) => k !== 'cursor'))}`}
                  >
                    First page
                  </a>
                ) : null}
                {next ? <a href={`${tenantHref(tenant, 'events')}?${next}`}>Next page</a> : null}
              </nav>
            </>
          );
        }}
      </Loading>
    </Page>
  );
}

function Search({ tenant, query }: { tenant: string; query: URLSearchParams }) {
  const [v, setV] = useState(() => ({
    type: query.get('type') ?? '',
    event_id_prefix: query.get('event_id_prefix') ?? '',
    since: toLocal(query.get('since')),
    until: toLocal(query.get('until')),
    filter: query.get('filter') ?? '',
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
    go(`${tenantHref(tenant, 'events')}?${p}`);
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is not yet announced by every screen reader; the role is.
    <form className="filters" role="search" aria-label="Search events" onSubmit={submit}>
      <div>
        <label htmlFor="type">Event type</label>
        <input id="type" name="type" value={v.type} onChange={set('type')} />
      </div>
      <div>
        <label htmlFor="event_id_prefix">Event id starts with</label>
        <input
          id="event_id_prefix"
          name="event_id_prefix"
          value={v.event_id_prefix}
          onChange={set('event_id_prefix')}
        />
      </div>
      <div>
        <label htmlFor="since">Accepted since</label>
        <input id="since" name="since" type="datetime-local" value={v.since} onChange={set('since')} />
      </div>
      <div>
        <label htmlFor="until">Accepted until</label>
        <input id="until" name="until" type="datetime-local" value={v.until} onChange={set('until')} />
      </div>
      <div>
        <label htmlFor="filter">Payload filter (JSON)</label>
        <textarea
          id="filter"
          name="filter"
          rows={2}
          placeholder='{"path":"data.status","equals":"paid"}'
          value={v.filter}
          onChange={set('filter')}
        />
      </div>
      <div>
        <Button type="submit">Search</Button>
      </div>
    </form>
  );
}
