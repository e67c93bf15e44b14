// Policy preview: a policy and a response script in, the engine's simulated timeline out (POST /v1/simulate, the
// same run as `hookline simulate --responses`), drawn to scale with held periods, ladders and the outcome.

import type { components } from '@hookline/client';
import { Button } from '@radix-ui/themes';
import { type FormEvent, useState } from 'react';
import { api, messageOf, unwrap } from '../api.ts';
import { Loading, Page, ScrollTable, Status } from '../components/page.tsx';
import { TableHead } from '../components/table-head.tsx';
import { Timeline, type TimelineBand, type TimelineMark } from '../components/timeline.tsx';
import { duration } from '../format.ts';
import { useLoad } from '../use-load.ts';

type Simulation = components['schemas']['Simulation'];

export function simulationTimeline(s: Simulation) {
  const marks: TimelineMark[] = s.attempts.map((a) => ({
    atMs: a.at_ms,
    durationMs: a.duration_ms,
    outcome: a.outcome,
    label: `#${a.n}`,
    sub: a.ladder,
    detail: `attempt #${a.n} on the ${a.ladder} ladder: ${a.response} → ${a.outcome}${a.next.status === 'pending' ? `; next at +${duration(a.next.at_ms ?? 0)} (${a.next.ladder})` : a.next.status === 'failed' ? `; failed: ${a.next.reason ?? ''}` : '; delivered'}`,
  }));
  const bands: TimelineBand[] = [];
  for (let i = 1; i < marks.length; i++) {
    const from = marks[i - 1].atMs + marks[i - 1].durationMs;
    if (marks[i].atMs > from)
      bands.push({
        fromMs: from,
        toMs: marks[i].atMs,
        kind: 'wait',
        detail: `waited ${duration(marks[i].atMs - from)}`,
      });
  }
  for (const h of s.held)
    bands.push({
      fromMs: h.at_ms,
      toMs: h.until_ms,
      kind: 'held',
      detail: `held until +${duration(h.until_ms)}: breaker open, no attempt spent`,
    });
  return { marks, bands, endMs: s.final.at_ms };
}

/** Not tenant data: any signed-in session may preview (the route is under the tenant only for its navigation). */
export function PolicyPreviewPage() {
  const policies = useLoad(() => api.GET('/v1/policies').then(unwrap), []);
  const [policy, setPolicy] = useState('standard');
  const [script, setScript] = useState('500,500,200');
  const [type, setType] = useState('');
  const [seed, setSeed] = useState('1');
  const [result, setResult] = useState<Simulation | null>(null);
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setMessage({ text: 'Simulating…' });
    try {
      const responses = script
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
        .map((x) => (/^\d{3}$/.test(x) ? Number(x) : x));
      const r = await api
        .POST('/v1/simulate', {
          body: {
            policy,
            responses,
            ...(type.trim() ? { type: type.trim() } : {}),
            ...(seed.trim() ? { seed: Number(seed) } : {}),
          },
        })
        .then(unwrap);
      setResult(r);
      setMessage({
        text: `${r.final.status} at +${duration(r.final.at_ms)} after ${r.attempts.length} attempt${r.attempts.length === 1 ? '' : 's'}${r.final.reason ? `: ${r.final.reason}` : ''}`,
      });
    } catch (err) {
      setResult(null);
      setMessage({ text: messageOf(err), error: true });
    }
  };
  return (
    <Page title="Policy preview">
      <p>
        What a policy does against a receiver that answers as you script it: the engine runs one event on a virtual
        clock (nothing is sent), as <code>hookline simulate</code> does.
      </p>
      <Loading loaded={policies}>
        {(list) => (
          <form className="stack" onSubmit={submit} aria-label="Simulate a policy">
            <label htmlFor="sim-policy">Policy</label>
            <select
              id="sim-policy"
              value={policy}
              onChange={(e) => setPolicy(e.target.value)}
              aria-describedby="sim-policy-help"
            >
              {list.items.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name}
                </option>
              ))}
            </select>
            <p id="sim-policy-help" className="help">
              {list.items.find((p) => p.name === policy)?.description}
            </p>
            <label htmlFor="sim-responses">Response script</label>
            <input
              id="sim-responses"
              value={script}
              onChange={(e) => setScript(e.target.value)}
              required
              aria-describedby="sim-responses-help"
            />
            <p id="sim-responses-help" className="help">
              The receiver&apos;s answer per attempt, comma-separated: an HTTP status, timeout or reset; the last one
              repeats (e.g. 500,500,404,timeout,200).
            </p>
            <label htmlFor="sim-type">Event type (optional)</label>
            <input
              id="sim-type"
              value={type}
              onChange={(e) => setType(e.target.value)}
              placeholder="simulate.test"
              aria-describedby="sim-type-help"
            />
            <p id="sim-type-help" className="help">
              Decides money events for the payments policy.
            </p>
            <label htmlFor="sim-seed">Jitter seed</label>
            <input
              id="sim-seed"
              type="number"
              min={0}
              inputMode="numeric"
              value={seed}
              onChange={(e) => setSeed(e.target.value)}
            />
            <div>
              <Button type="submit">Simulate</Button>
            </div>
          </form>
        )}
      </Loading>
      <Status id="sim-status" message={message} />
      {result ? <SimulationResult s={result} /> : null}
    </Page>
  );
}

function SimulationResult({ s }: { s: Simulation }) {
  const tl = simulationTimeline(s);
  return (
    <section aria-labelledby="sim-result">
      <h2 id="sim-result">
        Timeline: {s.policy}
        {s.is_money ? ' (money event)' : ''} · seed {s.seed}
      </h2>
      <Timeline
        id="sim-timeline"
        marks={tl.marks}
        bands={tl.bands}
        endMs={tl.endMs}
        label={`${s.attempts.length} attempts over ${duration(tl.endMs)}; ${s.final.status}`}
        endLabel={`ends ${s.final.status} at +${duration(s.final.at_ms)}`}
      />
      <ScrollTable>
        <table id="sim-attempts">
          <TableHead columns={['n', 'at', 'ladder', 'response', 'outcome', 'next']} />
          <tbody>
            {s.attempts.map((a) => (
              <tr key={a.n}>
                <td>{a.n}</td>
                <td>+{duration(a.at_ms)}</td>
                <td>{a.ladder}</td>
                <td>{a.response}</td>
                <td>{a.outcome}</td>
                <td>
                  {a.next.status === 'pending'
                    ? `retry at +${duration(a.next.at_ms ?? 0)} (${a.next.ladder})`
                    : a.next.status === 'succeeded'
                      ? 'delivered'
                      : `failed${a.next.reason ? `: ${a.next.reason}` : ''}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
      {s.transitions.length ? (
        <>
          <h3>Breaker and health changes</h3>
          <ul>
            {s.transitions.map((t, i) => (
              <li key={i}>
                +{duration(t.at_ms)}: {t.kind === 'breaker' ? `breaker (${t.scope})` : 'endpoint'} {t.from} → {t.to}
                {t.reason ? ` (${t.reason})` : ''}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
