import { api, unwrap } from '../api.ts';
import { Loading, Page, ScrollTable } from '../components/page.tsx';
import { TableHead } from '../components/table-head.tsx';
import { seconds } from '../format.ts';
import { tenantHref } from '../router.ts';
import { useLoad } from '../use-load.ts';

export function TenantsPage() {
  const loaded = useLoad(async () => {
    const [page, stats] = await Promise.all([
      api.GET('/v1/tenants', { params: { query: { limit: 200 } } }).then(unwrap),
      api.GET('/v1/stats').then(unwrap),
    ]);
    return { page, stats };
  }, []);
  return (
    <Loading loaded={loaded}>
      {({ page, stats }) => (
        <Page title="Tenants">
          <p>
            Queue: {stats.queue.pending ?? 0} pending · oldest due {seconds(stats.oldest_due_age_ms)} ago
          </p>
          <ScrollTable>
            <table id="tenants">
              <TableHead columns={['Tenant', 'Environment', 'Id']} />
              <tbody>
                {page.items.map((x) => (
                  <tr key={x.id}>
                    <td>
                      <a href={tenantHref(x.id)}>{x.name}</a>
                    </td>
                    <td>{x.environment}</td>
                    <td>
                      <code>{x.id}</code>
                    </td>
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
