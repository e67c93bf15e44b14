// A delivery, in sections: status and failure reason, its endpoint by name, its ladder named with the endpoint's
// policy, Retry now and Replay (each saying why when disabled), its attempts drawn to scale (each with its ladder or
// trigger; waits, past and current held periods, a paused endpoint; the ladder of the next attempt), each attempt's
// response excerpt, the signed headers and the payload.
import type { components } from '@hookline/client';
import { Button, DataList, Flex } from '@radix-ui/themes';
import { useState } from 'react';
import { api, messageOf, unwrap } from '../api.ts';
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
import { Timeline, type TimelineBand, type TimelineMark } from '../components/timeline.tsx';
import { duration } from '../format.ts';
import { endpointName, ladderName } from '../names.ts';
import { tenantHref } from '../router.ts';
import { useLoad } from '../use-load.ts';

type Detail = components['schemas']['DeliveryDetail'];
type Endpoint = components['schemas']['Endpoint'];
const TERMINAL = new Set(['succeeded', 'failed', 'skipped']);

/** What scheduled an attempt, as drawn under its mark: its ladder (fast, slow), or the trigger of a replay, test or probe. */
function scheduledBy(a: Detail['attempts'][number]): string {
  return a.trigger === 'scheduled' ? (a.ladder ?? 'scheduled') : a.trigger;
}

export function deliveryTimeline(d: Detail, endpoint: Endpoint | null, now: number) {
  const t0 = Date.parse(d.created_at);
  const rel = (iso: string) => Date.parse(iso) - t0;
  const marks: TimelineMark[] = d.attempts.map((a) => ({
    atMs: rel(a.started_at),
    durationMs: a.duration_ms,
    outcome: a.outcome,
    label: `#${a.n}`,
    sub: scheduledBy(a),
    detail: `attempt #${a.n} (${a.trigger === 'scheduled' && a.ladder ? `${a.ladder} ladder` : a.trigger}) ${a.outcome}: ${a.response_status === null ? (a.error_class ?? 'no response') : `HTTP ${a.response_status}`} in ${duration(a.duration_ms)}`,
  }));
  const bands: TimelineBand[] = [];
  // A wait band up to each scheduled retry (or probe), or up to its hold; a replay or test comes when someone asked,
  // not after a wait. The held period that ended with an attempt (breaker open) is a band of its own.
  for (let i = 0; i < marks.length; i++) {
    const a = d.attempts[i];
    const heldFrom = a.held_from ? rel(a.held_from) : null;
    if (i > 0 && (a.trigger === 'scheduled' || a.trigger === 'probe')) {
      const from = marks[i - 1].atMs + marks[i - 1].durationMs;
      const to = heldFrom ?? marks[i].atMs;
      if (to > from) {
        bands.push({
          fromMs: from,
          toMs: to,
          kind: 'wait',
          detail: `waited ${duration(to - from)} before ${heldFrom === null ? `attempt ${marks[i].label}` : 'being held'}`,
        });
      }
    }
    if (heldFrom !== null) {
      const until = a.held_until ?? a.started_at;
      bands.push({
        fromMs: heldFrom,
        toMs: Math.max(heldFrom + 1, rel(until)),
        kind: 'held',
        detail: `held from ${when(a.held_from)} until ${when(until)}: the breaker was open`,
      });
    }
  }
  const last = marks.at(-1);
  const lastEnd = last ? last.atMs + last.durationMs : 0;
  let endMs = lastEnd;
  if (!TERMINAL.has(d.status)) {
    const nowRel = now - t0;
    if (endpoint?.status === 'paused') {
      const from = Math.max(lastEnd, rel(endpoint.updated_at));
      bands.push({
        fromMs: from,
        toMs: Math.max(from + 1, nowRel),
        kind: 'paused',
        detail: `endpoint paused${endpoint.pause_reason ? ` (${endpoint.pause_reason})` : ''}: no attempt until it is reactivated`,
      });
      endMs = Math.max(endMs, nowRel);
    } else if (d.next_attempt_at) {
      const next = rel(d.next_attempt_at);
      const kind = d.status === 'held' ? 'held' : 'wait';
      // A held band starts when the hold began (a wait before it is its own band); a wait, at the last attempt's end.
      const heldFrom = kind === 'held' && d.held_since ? Math.max(lastEnd, rel(d.held_since)) : lastEnd;
      if (heldFrom > lastEnd)
        bands.push({
          fromMs: lastEnd,
          toMs: heldFrom,
          kind: 'wait',
          detail: `waited ${duration(heldFrom - lastEnd)} until the breaker held it`,
        });
      bands.push({
        fromMs: heldFrom,
        toMs: Math.max(heldFrom + 1, next),
        kind,
        detail: `${kind === 'held' ? 'held: the breaker is open' : 'waiting'}; next attempt on the ${d.ladder} ladder at ${when(d.next_attempt_at)}`,
      });
      marks.push({
        atMs: next,
        durationMs: 0,
        outcome: 'next',
        label: 'next',
        sub: `${d.ladder} ladder`,
        detail: `next attempt (${d.ladder} ladder) due ${when(d.next_attempt_at)}`,
      });
      endMs = Math.max(endMs, next);
    }
  }
  return { marks, bands, endMs };
}

export function DeliveryPage({ tenant, id }: { tenant: string; id: string }) {
  const loaded = useLoad(async () => {
    const d = await api
      .GET('/v1/tenants/{tenant}/deliveries/{delivery}', { params: { path: { tenant, delivery: id } } })
      .then(unwrap);
    const endpoint = await api
      .GET('/v1/tenants/{tenant}/endpoints/{endpoint}', { params: { path: { tenant, endpoint: d.endpoint_id } } })
      .then(unwrap)
      .catch(() => null);
    const policies = await api
      .GET('/v1/policies')
      .then(unwrap)
      .then((p) => p.items)
      .catch(() => []);
    return { d, endpoint, policies };
  }, [tenant, id]);
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(null);
  const [busy, setBusy] = useState(false);

  const replay = async () => {
    setBusy(true);
    try {
      const r = await api
        .POST('/v1/tenants/{tenant}/deliveries/{delivery}/replay', { params: { path: { tenant, delivery: id } } })
        .then(unwrap);
      setMessage({ text: `Replay ${r.replay_id} scheduled.` });
      // Bounded: 60 reads, half a second apart, until the delivery leaves pending/delivering.
      for (let i = 0; i < 60; i++) {
        await new Promise((res) => setTimeout(res, 500));
        const d = await api
          .GET('/v1/tenants/{tenant}/deliveries/{delivery}', { params: { path: { tenant, delivery: id } } })
          .then(unwrap);
        if (TERMINAL.has(d.status)) {
          setMessage({ text: `Replay finished: ${d.status}.` });
          await loaded.reload();
          return;
        }
        setMessage({ text: `Replay in progress: ${d.status}…` });
      }
      setMessage({ text: 'The replay has not finished yet; reload to see its state.' });
    } catch (err) {
      setMessage({ text: messageOf(err), error: true });
    } finally {
      setBusy(false);
    }
  };

  // Retry now (docs/rules.md#retry-now): the pending delivery's next attempt at once, on its ladder.
  const retryNow = async () => {
    setBusy(true);
    try {
      const d = await api
        .POST('/v1/tenants/{tenant}/deliveries/{delivery}/retry', { params: { path: { tenant, delivery: id } } })
        .then(unwrap);
      setMessage({ text: `Retrying now: attempt ${d.attempt_count + 1} on its ${d.ladder} ladder.` });
      await loaded.reload();
    } catch (err) {
      setMessage({ text: messageOf(err), error: true });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Loading loaded={loaded}>
      {({ d, endpoint, policies }) => {
        const tl = deliveryTimeline(d, endpoint, Date.now());
        const retryWhy = retryBlocked(d.status, endpoint?.status);
        const replayWhy =
          d.status === 'failed' || d.status === 'skipped'
            ? null
            : `the delivery is ${d.status}; only failed or skipped deliveries can be replayed.`;
        return (
          <Page title={`Delivery ${d.id}`}>
            <SectionLinks
              sections={[
                ['summary', 'Summary'],
                ['timeline', 'Timeline'],
                ['attempts-section', 'Attempts'],
                ['request', 'Headers and payload'],
              ]}
            />
            <Section id="summary" title="Summary">
              <DataList.Root className="facts" size="2">
                <Fact label="Status" id="delivery-status">
                  <Badge status={d.status} />
                </Fact>
                <Fact label="Failure reason" id="failure-reason">
                  {d.terminal_reason ?? '—'}
                </Fact>
                <Fact label="Event">
                  {d.event_type} · {d.event_id}
                </Fact>
                <Fact label="Endpoint" id="delivery-endpoint">
                  <a href={tenantHref(tenant, 'endpoints', d.endpoint_id)}>
                    {endpoint ? endpointName(endpoint) : d.endpoint_id}
                  </a>
                  {endpoint && endpoint.status !== 'active' ? (
                    <>
                      {' '}
                      <Badge status={endpoint.status} />
                    </>
                  ) : null}
                </Fact>
                <Fact label="Ladder" id="delivery-ladder">
                  {ladderName(endpoint?.policy ?? null, d.ladder, policies)}
                </Fact>
                <Fact label="Created">{when(d.created_at)}</Fact>
              </DataList.Root>
              <Flex gap="2" wrap="wrap" mt="3" className="actions">
                <Button
                  type="button"
                  id="retry-now"
                  disabled={busy || retryWhy !== null}
                  aria-describedby={retryWhy ? 'retry-now-reason' : undefined}
                  title={retryWhy ?? 'Attempt it now, as its next attempt on its ladder'}
                  onClick={retryNow}
                >
                  Retry now
                </Button>
                <Button
                  type="button"
                  id="replay"
                  variant="soft"
                  disabled={busy || replayWhy !== null}
                  aria-describedby={replayWhy ? 'replay-reason' : undefined}
                  onClick={replay}
                >
                  Replay
                </Button>
              </Flex>
              {retryWhy ? <Reason id="retry-now-reason">Retry now: {retryWhy}</Reason> : null}
              {replayWhy ? <Reason id="replay-reason">Replay: {replayWhy}</Reason> : null}
              <Status id="replay-status" message={message} />
            </Section>
            <Section id="timeline" title="Timeline">
              {d.attempts.length === 0 && tl.bands.length === 0 ? (
                <p>No attempt yet.</p>
              ) : (
                <Timeline
                  id="delivery-timeline"
                  marks={tl.marks}
                  bands={tl.bands}
                  endMs={tl.endMs}
                  label={`${d.attempts.length} attempts over ${duration(tl.endMs)} since the delivery was created; status ${d.status}`}
                  endLabel={`t = 0 is ${when(d.created_at)}`}
                />
              )}
            </Section>
            <Section id="attempts-section" title="Attempts">
              <ScrollTable>
                <table id="attempts">
                  <TableHead
                    columns={['#', 'Trigger', 'Ladder', 'Started', 'Duration', 'Outcome', 'Response', 'Error', 'Trace']}
                  />
                  <tbody>
                    {d.attempts.map((a) => (
                      <tr key={a.id}>
                        <td>{a.n}</td>
                        <td>{a.trigger}</td>
                        <td>{a.ladder ?? '—'}</td>
                        <td>{when(a.started_at)}</td>
                        <td>{Math.round(a.duration_ms)} ms</td>
                        <td>
                          <Badge status={a.outcome} />
                        </td>
                        <td>
                          {a.response_status === null ? '—' : String(a.response_status)}
                          {a.response_body_excerpt ? <pre className="response">{a.response_body_excerpt}</pre> : null}
                        </td>
                        <td className="wrap">{a.error_class ? `${a.error_class}: ${a.error_message ?? ''}` : ''}</td>
                        {/* The attempt's trace id (docs/observability.md#traces), to find its span in the tracing backend. */}
                        <td>{a.trace_id ? <code>{a.trace_id}</code> : '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollTable>
            </Section>
            <Section id="request" title="Headers and payload">
              <h3>Signed headers of the last attempt</h3>
              <pre id="headers">
                {d.attempts.length ? JSON.stringify(d.attempts[d.attempts.length - 1].request_headers, null, 2) : '—'}
              </pre>
              <h3>Payload</h3>
              <pre id="payload">{JSON.stringify(d.payload, null, 2)}</pre>
            </Section>
          </Page>
        );
      }}
    </Loading>
  );
}

/** Why "Retry now" cannot apply (docs/rules.md#retry-now), or null; the server has the last word (ordering, breakers). */
export function retryBlocked(status: string, endpointStatus: string | undefined): string | null {
  if (status === 'delivering') return 'an attempt is running right now.';
  if (status === 'succeeded' || status === 'failed' || status === 'skipped')
    return `the delivery is ${status} and has no next attempt; replay it instead.`;
  if (endpointStatus === 'paused') return 'the endpoint is paused; reactivate it first.';
  return null;
}
