// A tenant's overview: deliveries per minute, what needs attention, the queue, each endpoint's figures over the stats
// window (docs/rules.md#stats-counters), its usage against its limits (the admin sets them here) and its notices, each
// endpoint named by its description or URL.
import { Card, Flex, Text } from '@radix-ui/themes';
import { api, unwrap } from '../api.ts';
import { MinuteChart } from '../components/minute-chart.tsx';
import { Badge, Loading, Page, ScrollTable, Section, SectionLinks, when } from '../components/page.tsx';
import { TableHead } from '../components/table-head.tsx';
import { TenantUsage } from '../components/tenant-usage.tsx';
import { duration } from '../format.ts';
import { breakerName, endpointName, oldestDue } from '../names.ts';
import { tenantHref } from '../router.ts';
import { useLoad } from '../use-load.ts';

export function OverviewPage({ tenant, admin = false }: { tenant: string; admin?: boolean }) {
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
        const byId = new Map(endpoints.items.map((e) => [e.id, e]));
        const names = new Map(endpoints.items.map((e) => [e.id, endpointName(e)]));
        const windowMs = Date.parse(stats.at) - Date.parse(stats.since);
        return (
          <Page title={`${info.name} — overview`}>
            <Text as="p">
              Environment: {info.environment} · figures over the last {duration(windowMs)}, since {when(stats.since)}
            </Text>
            <SectionLinks
              sections={[
                ['chart', 'Deliveries per minute'],
                ['needs-attention', 'Needs attention'],
                ['queue', 'Queue'],
                ['endpoint-figures', 'Endpoint figures'],
                ['usage-section', 'Usage and limits'],
                ['notices-section', 'Notices'],
              ]}
            />
            <Section id="chart" title="Deliveries per minute">
              <MinuteChart data={minutes} />
            </Section>
            <Section id="needs-attention" title="Needs attention">
              <ul id="attention">
                {unhealthy.map((e) => (
                  <li key={e.id}>
                    <a href={tenantHref(tenant, 'endpoints', e.id)}>{endpointName(e)}</a> <Badge status={e.status} />
                    {e.pause_reason ? ` (${e.pause_reason})` : ''}
                    {e.status === 'degraded' && e.failing_since
                      ? ` failing since ${when(e.failing_since)}, ${e.consecutive_failed_events} events in a row`
                      : ''}
                  </li>
                ))}
                {open.map((b) => (
                  <li key={b.scope_key}>
                    {breakerName(b.scope_key, names)}: <Badge status={b.state} />
                    {b.next_probe_at ? ` next probe ${when(b.next_probe_at)}` : ''}
                  </li>
                ))}
                {unhealthy.length + open.length === 0 ? (
                  <li>Every endpoint is active and every breaker closed.</li>
                ) : null}
              </ul>
            </Section>
            <Section id="queue" title="Queue">
              <Flex gap="3" wrap="wrap" id="queue-cards">
                {Object.entries(stats.queue).map(([k, v]) => (
                  <Card key={k} size="1">
                    <Text as="div" size="2" color="gray">
                      {k}
                    </Text>
                    <Text as="div" weight="bold" size="5">
                      {String(v)}
                    </Text>
                  </Card>
                ))}
                <Card size="1">
                  <Text as="div" size="2" color="gray">
                    oldest due
                  </Text>
                  <Text as="div" weight="bold" size="5" id="oldest-due">
                    {stats.oldest_due_age_ms === null ? 'nothing due' : `${duration(stats.oldest_due_age_ms)} ago`}
                  </Text>
                </Card>
              </Flex>
            </Section>
            <Section id="endpoint-figures" title="Endpoint figures">
              <Text as="p" size="2" color="gray" id="rate-explained">
                Succeeded, failed and the success rate count the deliveries that ended in the last {duration(windowMs)}{' '}
                (succeeded ÷ (succeeded + failed)); retries still under way are not in them, so a degraded endpoint can
                show 100 % while its failing deliveries are retrying.
              </Text>
              <ScrollTable>
                <table id="endpoint-stats">
                  <TableHead
                    columns={['Endpoint', 'Status', 'Succeeded', 'Failed', 'Success rate (ended)', 'Pending', 'Health']}
                  />
                  <tbody>
                    {stats.endpoints.map((s) => {
                      const e = byId.get(s.endpoint_id);
                      const ended = s.succeeded + s.failed;
                      return (
                        <tr key={s.endpoint_id}>
                          <td>
                            <a href={tenantHref(tenant, 'endpoints', s.endpoint_id)}>
                              {names.get(s.endpoint_id) ?? s.endpoint_id}
                            </a>
                          </td>
                          <td>
                            <Badge status={s.endpoint_status} />
                          </td>
                          <td>{s.succeeded}</td>
                          <td>{s.failed}</td>
                          <td>
                            {s.success_rate === null
                              ? 'none ended'
                              : `${Math.round(s.success_rate * 100)} % of ${ended}`}
                          </td>
                          <td>{s.queue.pending ?? 0}</td>
                          <td className="wrap">
                            {s.endpoint_status === 'degraded' && e?.failing_since
                              ? `failing since ${when(e.failing_since)} (${e.consecutive_failed_events} events in a row)`
                              : s.endpoint_status === 'paused'
                                ? (e?.pause_reason ?? 'paused')
                                : oldestDue(s.oldest_due_age_ms)}
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </ScrollTable>
            </Section>
            <Section id="usage-section" title="Usage and limits">
              <TenantUsage tenant={tenant} admin={admin} />
            </Section>
            <Section id="notices-section" title="Notices">
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
            </Section>
          </Page>
        );
      }}
    </Loading>
  );
}
