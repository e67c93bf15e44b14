import { api, unwrap } from '../api.ts';
import { Badge, Loading, Page, ScrollTable } from '../components/page.tsx';
import { TableHead } from '../components/table-head.tsx';
import { tenantHref } from '../router.ts';
import { useLoad } from '../use-load.ts';

export function EndpointsPage({ tenant }: { tenant: string }) {
  const loaded = useLoad(
    () =>
      api.GET('/v1/tenants/{tenant}/endpoints', { params: { path: { tenant }, query: { limit: 200 } } }).then(unwrap),
    [tenant],
  );
  return (
    <Loading loaded={loaded}>
      {(page) => (
        <Page title="Endpoints">
          <ScrollTable>
            <table id="endpoints">
              <TableHead columns={['Endpoint', 'URL', 'Status', 'Policy', 'Cap']} />
              <tbody>
                {page.items.map((e) => (
                  <tr key={e.id}>
                    <td>
                      <a href={tenantHref(tenant, 'endpoints', e.id)}>{e.description || e.id}</a>
                    </td>
                    <td className="wrap">{e.url}</td>
                    <td>
                      <Badge status={e.status} />
                      {e.pause_reason ? ` (${e.pause_reason})` : ''}
                    </td>
                    <td>{e.policy}</td>
                    <td>{e.max_concurrency}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
        </Page>
      )}
    </Loading>
  );
}
