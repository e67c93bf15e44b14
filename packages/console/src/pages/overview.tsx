import { api, unwrap } from '../api.ts';
import { MinuteChart } from '../components/minute-chart.tsx';
import { Badge, Loading, Page, ScrollTable, when } from '../components/page.tsx';
import { TableHead } from '../components/table-head.tsx';
import { seconds } from '../format.ts';
import { tenantHref } from '../router.ts';
import { useLoad } from '../use-load.ts';

export function OverviewPage({ tenant }: { tenant: string }) {
  const loaded = useLoad(async () => {
    const path = { tenant };
    const [info, stats, notices, minutes, endpoints, breakers] = await Promise.all([
      api.GET('/v1/tenants/{tenant}', { params: { path } }).then(unwrap),
      api.GET('/v1/tenants/{tenant}/stats', { params: { path } }).then(unwrap),
      api.GET('/v1/tenants/{tenant}/notices', { params: { path, query: { limit: 20 } } }).then(unwrap),
      api.GET('/v1/tenants/{tenant}/stats/minutes', { params: { path } }).then(unwrap),
      api.GET('/v1/tenants/{tenant}/endpoints', { params: { path, query: { limit: 200 } } }).then(unwrap),
      api.GET('/v1/tenants/{tenant}/breaker', { params: { path } }).then(unwrap),
    ]);
    return { info, stats, notices, minutes, endpoints, breakers };
  }, [tenant]);
  return (
    <Loading loaded={loaded}>
      {({ info, stats, notices, minutes, endpoints, breakers }) => {
        const unhealthy = endpoints.items.filter((e) => e.status !== 'active');
        const open = [breakers.breaker, ...breakers.endpoints].filter((b) => b.state !== 'closed');
        const names = new Map(endpoints.items.map((e) => [e.id, e.description || e.id]));
        return (
          <Page title={`${info.name} — overview`}>
            <p>
              Environment: {info.environment} · figures since {when(stats.since)}
            </p>
            <h2>Deliveries per minute</h2>
            <MinuteChart data={minutes} />
            <h2>Needs attention</h2>
            <ul id="attention">
              {unhealthy.map((e) => (
                <li key={e.id}>
                  <a href={tenantHref(tenant, 'endpoints', e.id)}>{e.description || e.id}</a>{' '}
                  <Badge status={e.status} />
                  {e.pause_reason ? ` (${e.pause_reason})` : ''}
                </li>
              ))}
              {open.map((b) => (
                <li key={b.scope_key}>
                  breaker {b.scope_key}: <Badge status={b.state} />
                </li>
              ))}
              {unhealthy.length + open.length === 0 ? (
                <li>Every endpoint is active and every breaker closed.</li>
              ) : null}
            </ul>
            <h2>Queue</h2>
            <div className="cards">
              {Object.entries(stats.queue).map(([k, v]) => (
                <div className="card" key={k}>
                  <div>{k}</div>
                  <strong>{String(v)}</strong>
                </div>
              ))}
              <div className="card">
                <div>oldest due</div>
                <strong>{seconds(stats.oldest_due_age_ms)}</strong>
              </div>
            </div>
            <h2>Endpoints</h2>
            <ScrollTable>
              <table>
                <TableHead columns={['Endpoint', 'Status', 'Succeeded', 'Failed', 'Success rate']} />
                <tbody>
                  {stats.endpoints.map((e) => (
                    <tr key={e.endpoint_id}>
                      <td>
                        <a href={tenantHref(tenant, 'endpoints', e.endpoint_id)}>
                          {names.get(e.endpoint_id) ?? e.endpoint_id}
                        </a>
                      </td>
                      <td>
                        <Badge status={e.endpoint_status} />
                      </td>
                      <td>{e.succeeded}</td>
                      <td>{e.failed}</td>
                      <td>{e.success_rate === null ? '—' : `${Math.round(e.success_rate * 100)} %`}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollTable>
            <h2>Notices</h2>
            {notices.items.length === 0 ? (
              <p>No notices.</p>
            ) : (
              <ul id="notices">
                {notices.items.map((n) => (
                  <li key={n.id}>
                    <strong>{n.kind}</strong> {when(n.created_at)}: {n.message}
                  </li>
                ))}
              </ul>
            )}
          </Page>
        );
      }}
    </Loading>
  );
}
