// An endpoint's settings form: URL, description, event types, policy, cap, rate limit, payload filter and custom
// headers; what the form can tell is wrong (JSON that does not parse, a header line without a colon) it says itself.
import type { components } from '@hookline/client';
import { Button } from '@radix-ui/themes';
import { type FormEvent, useState } from 'react';

type Endpoint = components['schemas']['Endpoint'];

export type Patch = {
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

export function Settings({
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
        <Button type="submit">Save settings</Button>
      </div>
    </form>
  );
}
