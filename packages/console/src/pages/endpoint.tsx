// An endpoint, in sections: its facts and actions (pause / reactivate, retry now, a test delivery, each disabled
// control saying why), its latest deliveries, the breaker with reset, the settings form, signing secrets (reveal on
// request, rotate with an overlap) and the window replay with its progress shown live.
import { Button, DataList, Flex } from '@radix-ui/themes';
import { useState } from 'react';
import { api, messageOf, unwrap } from '../api.ts';
import { Egress } from '../components/endpoint-egress.tsx';
import { Settings } from '../components/endpoint-settings.tsx';
import {
  Badge,
  Fact,
  Loading,
  Page,
  Reason,
  ScrollTable,
  Section,
  SectionLinks,
  Status,
  when,
} from '../components/page.tsx';
import { TableHead } from '../components/table-head.tsx';
import { WindowReplay } from '../components/window-replay.tsx';
import { endpointName } from '../names.ts';
import { tenantHref } from '../router.ts';
import { useLoad } from '../use-load.ts';

type Message = { text: string; error?: boolean } | null;

export function EndpointPage({ tenant, id }: { tenant: string; id: string }) {
  const path = { tenant, endpoint: id };
  const loaded = useLoad(async () => {
    const [e, breaker, policies, deliveries] = await Promise.all([
      api.GET('/v1/tenants/{tenant}/endpoints/{endpoint}', { params: { path } }).then(unwrap),
      api.GET('/v1/tenants/{tenant}/endpoints/{endpoint}/breaker', { params: { path } }).then(unwrap),
      api.GET('/v1/policies').then(unwrap),
      api
        .GET('/v1/tenants/{tenant}/deliveries', { params: { path: { tenant }, query: { endpoint_id: id, limit: 20 } } })
        .then(unwrap),
    ]);
    return { e, breaker, policies: policies.items, deliveries: deliveries.items };
  }, [tenant, id]);
  const [status, setStatus] = useState<Message>(null);
  const [test, setTest] = useState<Message>(null);
  const [secrets, setSecrets] = useState<string | null>(null);
  const [overlap, setOverlap] = useState('86400');
  const fail = (err: unknown) => setStatus({ text: messageOf(err), error: true });
  const act = (fn: () => Promise<unknown>) => async () => {
    try {
      await fn();
      await loaded.reload();
    } catch (err) {
      fail(err);
    }
  };
  const setEndpointStatus = (s: 'active' | 'paused') =>
    act(() =>
      api.PATCH('/v1/tenants/{tenant}/endpoints/{endpoint}', { params: { path }, body: { status: s } }).then(unwrap),
    );
  const reveal = async () => {
    try {
      const sec = await api.GET('/v1/tenants/{tenant}/endpoints/{endpoint}/secret', { params: { path } }).then(unwrap);
      setSecrets(
        sec.secrets
          .map(
            (x) =>
              `${x.kid}  ${x.secret ?? `public key ${x.public_key ?? ''}`}  ${x.expires_at ? `retires ${when(x.expires_at)}` : 'current'}`,
          )
          .join('\n'),
      );
    } catch (err) {
      fail(err);
    }
  };
  const rotate = async () => {
    try {
      await api
        .POST('/v1/tenants/{tenant}/endpoints/{endpoint}/secret/rotate', {
          params: { path },
          body: { overlap_seconds: Number(overlap) },
        })
        .then(unwrap);
      setStatus({ text: `Secret rotated; the previous one keeps signing for ${overlap} s.` });
      setSecrets(null);
    } catch (err) {
      fail(err);
    }
  };
  // Retry now (docs/rules.md#retry-now): every pending delivery of the endpoint due now, heads of keys only.
  const retryNow = async () => {
    try {
      const r = await api.POST('/v1/tenants/{tenant}/endpoints/{endpoint}/retry', { params: { path } }).then(unwrap);
      setStatus({ text: `${r.moved} pending ${r.moved === 1 ? 'delivery' : 'deliveries'} due now.` });
      await loaded.reload();
    } catch (err) {
      fail(err);
    }
  };
  const sendTest = async () => {
    try {
      const a = await api.POST('/v1/tenants/{tenant}/endpoints/{endpoint}/test', { params: { path } }).then(unwrap);
      setTest({
        text: `Test delivery: ${a.outcome}${a.response_status === null ? '' : ` (HTTP ${a.response_status})`}${a.error_message ? ` — ${a.error_message}` : ''}`,
        error: a.outcome !== 'success',
      });
    } catch (err) {
      setTest({ text: messageOf(err), error: true });
    }
  };

  return (
    <Loading loaded={loaded}>
      {({ e, breaker, policies, deliveries }) => {
        const why = {
          reactivate: e.status === 'active' ? 'Reactivate: the endpoint is already active.' : null,
          pause: e.status === 'paused' ? 'Pause: the endpoint is already paused.' : null,
          retry: e.status === 'paused' ? 'Retry now: the endpoint is paused; reactivate it first.' : null,
          reset: breaker.state === 'closed' ? 'Reset breaker: the breaker is closed; there is nothing to reset.' : null,
        };
        const policy = policies.find((p) => p.name === e.policy);
        return (
          <Page title={endpointName(e)}>
            <SectionLinks
              sections={[
                ['about', 'Endpoint'],
                ['endpoint-deliveries', 'Deliveries'],
                ['breaker', 'Breaker'],
                ['settings', 'Settings'],
                ['egress', 'Way out'],
                ['secrets', 'Signing secrets'],
                ['window-replay', 'Replay a window'],
              ]}
            />
            <Section id="about" title="Endpoint">
              <DataList.Root className="facts" size="2">
                <Fact label="URL" id="url-value">
                  {e.url}
                </Fact>
                <Fact label="Status" id="status-badge">
                  <Badge status={e.status} />
                  {e.pause_reason ? ` (${e.pause_reason})` : ''}
                  {e.status === 'degraded' && e.failing_since
                    ? ` failing since ${when(e.failing_since)}, ${e.consecutive_failed_events} events in a row`
                    : ''}
                </Fact>
                <Fact label="Policy" id="policy-value">
                  {e.policy}
                  {policy ? ` — ${policy.description}` : ''}
                </Fact>
                <Fact label="Cap" id="cap-value">
                  {e.max_concurrency} concurrent attempts
                </Fact>
                <Fact label="Effective concurrency" id="effective-concurrency">
                  {e.effective_concurrency ?? e.max_concurrency} (learned from the endpoint's 429/503 answers and
                  latency)
                </Fact>
                <Fact label="Rate limit" id="rate-limit-value">
                  {e.rate_limit_per_s == null ? 'none' : `${e.rate_limit_per_s} sends a second`}
                </Fact>
                <Fact label="Event types">{e.event_types.join(', ') || 'all'}</Fact>
                <Fact label="Payload filter" id="filter-value">
                  {e.payload_filter ? JSON.stringify(e.payload_filter) : 'none (every event)'}
                </Fact>
                <Fact label="Custom headers" id="headers-value">
                  {Object.keys(e.headers ?? {}).join(', ') || 'none'}
                </Fact>
                <Fact label="Signing" id="signing-value">
                  {e.signing === 'ed25519' ? 'ed25519 (v1a; receivers hold the public key)' : 'HMAC (whsec_ secret)'}
                </Fact>
                <Fact label="Last success">{when(e.last_success_at)}</Fact>
              </DataList.Root>
              <Flex gap="2" wrap="wrap" mt="3" className="actions">
                <Button
                  type="button"
                  id="reactivate"
                  disabled={why.reactivate !== null}
                  aria-describedby={why.reactivate ? 'reactivate-reason' : undefined}
                  onClick={setEndpointStatus('active')}
                >
                  Reactivate
                </Button>
                <Button
                  type="button"
                  id="pause"
                  variant="soft"
                  disabled={why.pause !== null}
                  aria-describedby={why.pause ? 'pause-reason' : undefined}
                  onClick={setEndpointStatus('paused')}
                >
                  Pause
                </Button>
                <Button
                  type="button"
                  id="retry-now"
                  variant="soft"
                  disabled={why.retry !== null}
                  aria-describedby={why.retry ? 'retry-now-reason' : undefined}
                  title={why.retry ?? 'Every pending delivery due now, paced by the cap and rate limit'}
                  onClick={retryNow}
                >
                  Retry now
                </Button>
                <Button type="button" id="test-delivery" variant="soft" onClick={sendTest}>
                  Send a test delivery
                </Button>
              </Flex>
              {why.reactivate ? <Reason id="reactivate-reason">{why.reactivate}</Reason> : null}
              {why.pause ? <Reason id="pause-reason">{why.pause}</Reason> : null}
              {why.retry ? <Reason id="retry-now-reason">{why.retry}</Reason> : null}
              <Status id="endpoint-status" message={status} />
              <Status id="test-result" message={test} />
            </Section>
            <Section id="endpoint-deliveries" title="Latest deliveries">
              {deliveries.length === 0 ? (
                <p>No delivery yet.</p>
              ) : (
                <ScrollTable>
                  <table id="endpoint-delivery-list">
                    <TableHead columns={['Delivery', 'Status', 'Event type', 'Attempts', 'Created']} />
                    <tbody>
                      {deliveries.map((d) => (
                        <tr key={d.id}>
                          <td>
                            <a href={tenantHref(tenant, 'deliveries', d.id)}>{d.id}</a>
                          </td>
                          <td>
                            <Badge status={d.status} />
                          </td>
                          <td>{d.event_type}</td>
                          <td>{d.attempt_count}</td>
                          <td>{when(d.created_at)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </ScrollTable>
              )}
              <p>
                <a
                  id="all-deliveries"
                  href={`${tenantHref(tenant, 'deliveries')}?endpoint_id=${encodeURIComponent(id)}`}
                >
                  Every delivery of this endpoint
                </a>
              </p>
            </Section>
            <Section id="breaker" title="Breaker">
              <Flex id="breaker-state" gap="2" align="center" wrap="wrap">
                <Badge status={breaker.state} />
                {breaker.next_probe_at ? ` next probe ${when(breaker.next_probe_at)}` : ''}
                <Button
                  type="button"
                  id="breaker-reset"
                  variant="soft"
                  disabled={why.reset !== null}
                  aria-describedby={why.reset ? 'breaker-reset-reason' : undefined}
                  onClick={act(() =>
                    api
                      .POST('/v1/tenants/{tenant}/endpoints/{endpoint}/breaker/reset', { params: { path } })
                      .then(unwrap),
                  )}
                >
                  Reset breaker
                </Button>
              </Flex>
              {why.reset ? <Reason id="breaker-reset-reason">{why.reset}</Reason> : null}
            </Section>
            <Section id="settings" title="Settings">
              <Settings
                key={e.updated_at}
                endpoint={e}
                policies={policies}
                onSave={async (body) => {
                  try {
                    await api
                      .PATCH('/v1/tenants/{tenant}/endpoints/{endpoint}', { params: { path }, body })
                      .then(unwrap);
                    setStatus({ text: 'Settings saved.' });
                    await loaded.reload();
                  } catch (err) {
                    fail(err);
                  }
                }}
              />
            </Section>
            <Section id="egress" title="Way out">
              <Egress
                key={e.updated_at}
                endpoint={e}
                onSave={async (body) => {
                  try {
                    await api
                      .PATCH('/v1/tenants/{tenant}/endpoints/{endpoint}', { params: { path }, body })
                      .then(unwrap);
                    setStatus({ text: 'Way out saved.' });
                    await loaded.reload();
                  } catch (err) {
                    fail(err);
                  }
                }}
              />
            </Section>
            <Section id="secrets" title="Signing secrets">
              <p>
                <Button
                  type="button"
                  id="reveal-secret"
                  variant="soft"
                  aria-controls="secret"
                  aria-expanded={secrets !== null}
                  onClick={reveal}
                >
                  Reveal secrets
                </Button>
              </p>
              <pre id="secret" hidden={secrets === null}>
                {secrets ?? ''}
              </pre>
              <div className="filters">
                <div>
                  <label htmlFor="overlap">Overlap (seconds)</label>
                  <input
                    id="overlap"
                    type="number"
                    min={0}
                    max={30 * 86400}
                    inputMode="numeric"
                    value={overlap}
                    onChange={(ev) => setOverlap(ev.target.value)}
                  />
                </div>
                <div>
                  <Button type="button" id="rotate-secret" onClick={rotate}>
                    Rotate secret
                  </Button>
                </div>
              </div>
            </Section>
            <Section id="window-replay" title="Replay a window">
              <p>Sends again every failed (and, if chosen, skipped) delivery of this endpoint created in the window.</p>
              <WindowReplay tenant={tenant} id={id} />
            </Section>
          </Page>
        );
      }}
    </Loading>
  );
}
