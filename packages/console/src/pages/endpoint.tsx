// An endpoint: status with pause / reactivate, a test delivery, the breaker with reset, the settings form (URL,
// description, event types, policy, cap), signing secrets (reveal on request, rotate with an overlap) and the
// window replay with its progress shown live.

import type { components } from '@hookline/client';
import { type FormEvent, useState } from 'react';
import { api, messageOf, unwrap } from '../api.ts';
import { Badge, Loading, Page, Status, when } from '../components/page.tsx';
import { useLoad } from '../use-load.ts';

type Endpoint = components['schemas']['Endpoint'];
type Message = { text: string; error?: boolean } | null;

export function EndpointPage({ tenant, id }: { tenant: string; id: string }) {
  const path = { tenant, endpoint: id };
  const loaded = useLoad(async () => {
    const [e, breaker, policies] = await Promise.all([
      api.GET('/v1/tenants/{tenant}/endpoints/{endpoint}', { params: { path } }).then(unwrap),
      api.GET('/v1/tenants/{tenant}/endpoints/{endpoint}/breaker', { params: { path } }).then(unwrap),
      api.GET('/v1/policies').then(unwrap),
    ]);
    return { e, breaker, policies: policies.items };
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
      {({ e, breaker, policies }) => (
        <Page title={e.description || `Endpoint ${e.id}`}>
          <dl className="facts">
            <dt>URL</dt>
            <dd className="wrap">{e.url}</dd>
            <dt>Status</dt>
            <dd id="status-badge">
              <Badge status={e.status} />
              {e.pause_reason ? ` (${e.pause_reason})` : ''}
            </dd>
            <dt>Policy</dt>
            <dd id="policy-value">{e.policy}</dd>
            <dt>Cap</dt>
            <dd id="cap-value">{e.max_concurrency} concurrent attempts</dd>
            <dt>Effective concurrency</dt>
            <dd id="effective-concurrency">
              {e.effective_concurrency ?? e.max_concurrency} (learned from the endpoint's 429/503 answers and latency)
            </dd>
            <dt>Rate limit</dt>
            <dd id="rate-limit-value">
              {e.rate_limit_per_s == null ? 'none' : `${e.rate_limit_per_s} sends a second`}
            </dd>
            <dt>Event types</dt>
            <dd>{e.event_types.join(', ') || 'all'}</dd>
            <dt>Payload filter</dt>
            <dd className="wrap" id="filter-value">
              {e.payload_filter ? JSON.stringify(e.payload_filter) : 'none (every event)'}
            </dd>
            <dt>Custom headers</dt>
            <dd id="headers-value">{Object.keys(e.headers ?? {}).join(', ') || 'none'}</dd>
            <dt>Signing</dt>
            <dd id="signing-value">
              {e.signing === 'ed25519' ? 'ed25519 (v1a; receivers hold the public key)' : 'HMAC (whsec_ secret)'}
            </dd>
            <dt>Last success</dt>
            <dd>{when(e.last_success_at)}</dd>
          </dl>
          <p className="actions">
            <button
              type="button"
              id="reactivate"
              disabled={e.status === 'active'}
              onClick={setEndpointStatus('active')}
            >
              Reactivate
            </button>
            <button type="button" id="pause" disabled={e.status === 'paused'} onClick={setEndpointStatus('paused')}>
              Pause
            </button>
            <button
              type="button"
              id="retry-now"
              disabled={e.status === 'paused'}
              title={
                e.status === 'paused'
                  ? 'The endpoint is paused; reactivate it first'
                  : 'Every pending delivery due now, paced by the cap and rate limit'
              }
              onClick={retryNow}
            >
              Retry now
            </button>
            <button type="button" id="test-delivery" onClick={sendTest}>
              Send a test delivery
            </button>
          </p>
          <Status id="endpoint-status" message={status} />
          <Status id="test-result" message={test} />
          <h2>Breaker</h2>
          <p id="breaker-state">
            <Badge status={breaker.state} />
            {breaker.next_probe_at ? ` next probe ${when(breaker.next_probe_at)}` : ''}{' '}
            <button
              type="button"
              id="breaker-reset"
              disabled={breaker.state === 'closed'}
              onClick={act(() =>
                api.POST('/v1/tenants/{tenant}/endpoints/{endpoint}/breaker/reset', { params: { path } }).then(unwrap),
              )}
            >
              Reset breaker
            </button>
          </p>
          <h2>Settings</h2>
          <Settings
            key={e.updated_at}
            endpoint={e}
            policies={policies}
            onSave={async (body) => {
              try {
                await api.PATCH('/v1/tenants/{tenant}/endpoints/{endpoint}', { params: { path }, body }).then(unwrap);
                setStatus({ text: 'Settings saved.' });
                await loaded.reload();
              } catch (err) {
                fail(err);
              }
            }}
          />
          <h2>Signing secrets</h2>
          <p>
            <button
              type="button"
              id="reveal-secret"
              aria-controls="secret"
              aria-expanded={secrets !== null}
              onClick={reveal}
            >
              Reveal secrets
            </button>
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
              <button type="button" id="rotate-secret" onClick={rotate}>
                Rotate secret
              </button>
            </div>
          </div>
          <h2>Replay a window</h2>
          <p>Sends again every failed (and, if chosen, skipped) delivery of this endpoint created in the window.</p>
          <WindowReplay tenant={tenant} id={id} />
        </Page>
      )}
    </Loading>
  );
}

type Patch = {
  url: string;
  description: string;
  event_types: string[];
  policy: string;
  max_concurrency: number | null;
  rate_limit_per_s: number | null;
  payload_filter: Endpoint['payload_filter'];
  headers: Record<string, string>;
};

/** "Name: value" per line (blank lines ignored) → the headers object, or the first line that is not one. */
export function parseHeaderLines(text: string): { headers: Record<string, string> } | { error: string } {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return { error: `Custom headers, line ${i + 1}: write it as Name: value` };
    out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { headers: out };
}

function Settings({
  endpoint: e,
  policies,
  onSave,
}: {
  endpoint: Endpoint;
  policies: ReadonlyArray<{ name: string; description: string }>;
  onSave: (body: Patch) => Promise<void>;
}) {
  const [v, setV] = useState({
    url: e.url,
    description: e.description,
    types: e.event_types.join(', '),
    policy: e.policy,
    cap: String(e.max_concurrency),
    rate: e.rate_limit_per_s == null ? '' : String(e.rate_limit_per_s),
    filter: e.payload_filter ? JSON.stringify(e.payload_filter, null, 2) : '',
    headers: Object.entries(e.headers ?? {})
      .map(([k, x]) => `${k}: ${x}`)
      .join('\n'),
  });
  // What the form itself refuses before asking the server (JSON that does not parse, a header line without a colon).
  const [invalid, setInvalid] = useState<string | null>(null);
  const set = (k: keyof typeof v) => (ev: { target: { value: string } }) => setV({ ...v, [k]: ev.target.value });
  const submit = (ev: FormEvent) => {
    ev.preventDefault();
    let filter: Patch['payload_filter'] = null;
    if (v.filter.trim() !== '') {
      try {
        filter = JSON.parse(v.filter);
      } catch (err) {
        setInvalid(`Payload filter: not valid JSON (${(err as Error).message})`);
        return;
      }
    }
    const headers = parseHeaderLines(v.headers);
    if ('error' in headers) {
      setInvalid(headers.error);
      return;
    }
    setInvalid(null);
    void onSave({
      url: v.url.trim(),
      description: v.description,
      event_types: v.types
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
      policy: v.policy,
      max_concurrency: v.cap.trim() === '' ? null : Number(v.cap),
      rate_limit_per_s: v.rate.trim() === '' ? null : Number(v.rate),
      payload_filter: filter,
      headers: headers.headers,
    });
  };
  return (
    <form onSubmit={submit} className="stack" aria-label="Endpoint settings">
      <label htmlFor="edit-url">URL</label>
      <input id="edit-url" name="url" type="url" required value={v.url} onChange={set('url')} />
      <label htmlFor="edit-description">Description</label>
      <input id="edit-description" name="description" value={v.description} onChange={set('description')} />
      <label htmlFor="edit-event-types">Event types</label>
      <input
        id="edit-event-types"
        name="event_types"
        aria-describedby="types-help"
        value={v.types}
        onChange={set('types')}
      />
      <p id="types-help" className="help">
        Comma-separated; empty for every type; a trailing .* matches a family.
      </p>
      <label htmlFor="edit-policy">Policy</label>
      <select id="edit-policy" name="policy" aria-describedby="policy-help" value={v.policy} onChange={set('policy')}>
        {policies.some((p) => p.name === v.policy) ? null : <option value={v.policy}>{v.policy}</option>}
        {policies.map((p) => (
          <option key={p.name} value={p.name}>
            {p.name}
          </option>
        ))}
      </select>
      <p id="policy-help" className="help">
        {policies.find((p) => p.name === v.policy)?.description ?? ''}
      </p>
      <label htmlFor="edit-cap">Cap (concurrent attempts)</label>
      <input
        id="edit-cap"
        name="max_concurrency"
        type="number"
        min={1}
        max={1000}
        inputMode="numeric"
        aria-describedby="cap-help"
        value={v.cap}
        onChange={set('cap')}
      />
      <p id="cap-help" className="help">
        At most this many attempts to this endpoint at once (1–1000); empty: the policy&apos;s.
      </p>
      <label htmlFor="edit-rate">Rate limit (sends a second)</label>
      <input
        id="edit-rate"
        name="rate_limit_per_s"
        type="number"
        min={1}
        inputMode="numeric"
        aria-describedby="rate-help"
        value={v.rate}
        onChange={set('rate')}
      />
      <p id="rate-help" className="help">
        At most this many sends a second across every worker; empty: no limit.
      </p>
      <label htmlFor="edit-filter">Payload filter (JSON)</label>
      <textarea
        id="edit-filter"
        name="payload_filter"
        rows={4}
        spellCheck={false}
        aria-describedby="filter-help"
        value={v.filter}
        onChange={set('filter')}
      />
      <p id="filter-help" className="help">
        Which events of these types get a delivery, by what they hold, e.g.{' '}
        <code>{'{"path": "data.status", "in": ["paid"]}'}</code>. Empty: every event. Applies to events accepted after
        saving.
      </p>
      <label htmlFor="edit-headers">Custom headers</label>
      <textarea
        id="edit-headers"
        name="headers"
        rows={3}
        spellCheck={false}
        aria-describedby="headers-help"
        value={v.headers}
        onChange={set('headers')}
      />
      <p id="headers-help" className="help">
        One per line, as Name: value; sent on every attempt.
      </p>
      {invalid ? (
        <p id="settings-invalid" role="alert" className="error">
          {invalid}
        </p>
      ) : null}
      <div>
        <button type="submit">Save settings</button>
      </div>
    </form>
  );
}

type Replay = components['schemas']['Replay'];

function WindowReplay({ tenant, id }: { tenant: string; id: string }) {
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [skipped, setSkipped] = useState(false);
  const [progress, setProgress] = useState<Message>(null);
  const show = (r: Replay) =>
    setProgress({
      text: `Replay ${r.id}: ${r.attempted} of ${r.selected} attempted, ${r.succeeded} succeeded, ${r.failed} failed${r.done ? ' — done' : '…'}`,
    });
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    try {
      let r = (
        await api
          .POST('/v1/tenants/{tenant}/endpoints/{endpoint}/replays', {
            params: { path: { tenant, endpoint: id } },
            body: { since: since.trim(), until: until.trim(), include_skipped: skipped },
          })
          .then(unwrap)
      ).replay;
      // Bounded: 120 reads, half a second apart.
      for (let i = 0; ; i++) {
        show(r);
        if (r.done || i >= 120) return;
        await new Promise((res) => setTimeout(res, 500));
        r = await api
          .GET('/v1/tenants/{tenant}/replays/{replay}', { params: { path: { tenant, replay: r.id } } })
          .then(unwrap);
      }
    } catch (err) {
      setProgress({ text: messageOf(err), error: true });
    }
  };
  return (
    <>
      <form className="filters" onSubmit={submit} aria-label="Replay a window">
        <div>
          <label htmlFor="since">Since (ISO-8601)</label>
          <input
            id="since"
            name="since"
            required
            placeholder="2026-01-01T00:00:00Z"
            value={since}
            onChange={(e) => setSince(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor="until">Until (ISO-8601)</label>
          <input
            id="until"
            name="until"
            required
            placeholder="2026-01-02T00:00:00Z"
            value={until}
            onChange={(e) => setUntil(e.target.value)}
          />
        </div>
        <div className="check">
          <input
            id="include_skipped"
            type="checkbox"
            checked={skipped}
            onChange={(e) => setSkipped(e.target.checked)}
          />
          <label htmlFor="include_skipped">Include skipped</label>
        </div>
        <div>
          <button type="submit">Replay window</button>
        </div>
      </form>
      <Status id="replay-progress" message={progress} />
    </>
  );
}
