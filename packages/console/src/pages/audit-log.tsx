// The audit log (docs/audit.md): who changed what and from where, newest first, with each change's fields before →
// after. A tenant's page (#/t/<tenant>/audit) lists its own entries; the admin's (#/audit) every tenant's. The action
// filter and the cursor live in the URL, like the deliveries list.
import { Button } from '@radix-ui/themes';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api.ts';
import { Loading, Page, ScrollTable, when } from '../components/page.tsx';
import { TableHead } from '../components/table-head.tsx';
import { go, tenantHref } from '../router.ts';
import { useLoad } from '../use-load.ts';

interface Change {
  before?: unknown;
  after?: unknown;
}

const shown = (v: unknown) => (v === null || v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));

export function AuditLogPage({ tenant, query }: { tenant: string | null; query: URLSearchParams }) {
  const key = query.toString();
  const here = tenant ? tenantHref(tenant, 'audit') : '#/audit';
  const loaded = useLoad(async () => {
    const q = new URLSearchParams(key);
    const filters = {
      limit: 50,
      ...(q.get('action') ? { action: q.get('action')! } : {}),
      ...(q.get('cursor') ? { cursor: q.get('cursor')! } : {}),
    };
    return tenant
      ? api.GET('/v1/tenants/{tenant}/audit-log', { params: { path: { tenant }, query: filters } }).then(unwrap)
      : api.GET('/v1/audit-log', { params: { query: filters } }).then(unwrap);
  }, [tenant, key]);
  const [action, setAction] = useState(query.get('action') ?? '');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    go(action.trim() ? `${here}?${new URLSearchParams({ action: action.trim() })}` : here);
  };
  return (
    <Page title="Audit log">
      {/* biome-ignore lint/a11y/useSemanticElements: <search> is not yet announced by every screen reader; the role is. */}
      <form className="filters" role="search" aria-label="Filter the audit log" onSubmit={submit}>
        <label>
          Action
          <input
            name="action"
            value={action}
            placeholder="endpoint.update"
            onChange={(e) => setAction(e.target.value)}
          />
        </label>
        <Button type="submit">Filter</Button>
      </form>
      <Loading loaded={loaded}>
        {(page) => (
          <>
            <p id="audit-count" role="status">
              {page.items.length === 0
                ? 'No audit entries match.'
                : `${page.items.length} entries${page.next_cursor ? '; more on the next page' : ''}.`}
            </p>
            <ScrollTable>
              <table id="audit-log">
                <TableHead columns={['When', 'Who', 'From', 'Action', 'Target', 'Changes']} />
                <tbody>
                  {page.items.map((e) => (
                    <tr key={e.seq}>
                      <td>{when(e.at)}</td>
                      <td>
                        {e.actor.kind}
                        {e.actor.id ? ` ${e.actor.id}` : ''}
                      </td>
                      <td className="wrap" title={e.actor.user_agent ?? ''}>
                        {e.actor.ip ?? '—'}
                      </td>
                      <td>{e.action}</td>
                      <td className="wrap">
                        {e.target.type} {e.target.id ?? ''}
                        {!tenant && e.tenant_id ? ` (${e.tenant_id})` : ''}
                      </td>
                      <td className="wrap">
                        {Object.entries(e.changes as Record<string, Change>).map(([field, c]) => (
                          <div key={field}>
                            <code>{field}</code>: {shown(c.before)} → {shown(c.after)}
                          </div>
                        ))}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollTable>
            <nav aria-label="Pages" className="pager">
              {query.get('cursor') ? (
                <a href={`${here}?${new URLSearchParams([...query].filter(([k]) => k !== 'cursor'))}`}>First page</a>
              ) : null}
              {page.next_cursor ? (
                <a href={`${here}?${new URLSearchParams({ ...Object.fromEntries(query), cursor: page.next_cursor })}`}>
                  Next page
                </a>
              ) : null}
            </nav>
          </>
        )}
      </Loading>
    </Page>
  );
}
