// The Hookline console: hash routes, a tiny DOM helper (text only, never HTML from data) and the /v1 API through
// the session cookie; every state-changing request carries the session's CSRF token (docs/console.md).
let session = null;
const main = () => document.getElementById('main');

/** h('a', { href }, 'text', child…): an element; strings become text nodes. */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : String(c));
  return el;
}

class ApiError extends Error {
  constructor(status, code, message) { super(message); this.status = status; this.code = code; }
}

async function api(method, path, body) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && session) headers['x-csrf-token'] = session.csrf_token;
  const res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status === 204) return null;
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, json?.error?.code ?? 'error', json?.error?.message ?? `HTTP ${res.status}`);
  return json;
}

const t = (tenant) => `/v1/tenants/${encodeURIComponent(tenant)}`;
const badge = (s) => h('span', { class: `badge ${s}` }, s);
const when = (iso) => (iso ? new Date(iso).toLocaleString() : '—');

function render(title, ...content) {
  document.title = `${title} · Hookline console`;
  const m = main();
  m.replaceChildren(h('h1', {}, title), ...content.flat(Infinity).filter((c) => c !== null && c !== undefined));
  m.focus();
}

function renderError(err) {
  if (err instanceof ApiError && err.status === 401) { session = null; location.hash = '#/signin'; return; }
  const title = err instanceof ApiError && err.status === 404 ? 'Not found' : 'Something went wrong';
  render(title, h('p', { class: 'error', role: 'alert' }, err.message), err.code ? h('p', {}, h('code', {}, err.code)) : null);
}

function setNav(tenant) {
  const nav = document.getElementById('nav');
  const links = [];
  if (session?.kind === 'admin') links.push(h('a', { href: '#/' }, 'Tenants'));
  if (tenant) {
    links.push(h('a', { href: `#/t/${tenant}` }, 'Overview'), h('a', { href: `#/t/${tenant}/deliveries` }, 'Deliveries'), h('a', { href: `#/t/${tenant}/endpoints` }, 'Endpoints'), h('a', { href: `#/t/${tenant}/event-types` }, 'Event types'));
  }
  nav.replaceChildren(...links);
  const who = document.getElementById('who');
  who.replaceChildren(session ? h('span', {}, session.kind === 'admin' ? 'admin ' : `tenant ${session.tenant_id} `, h('button', { type: 'button', onclick: signOut }, 'Sign out')) : '');
}

async function signOut() {
  await api('DELETE', '/console/session').catch(() => {});
  session = null;
  location.hash = '#/signin';
}

// ---- pages

function signInPage() {
  setNav(null);
  const input = h('input', { id: 'token', name: 'token', type: 'password', autocomplete: 'off', required: true, 'aria-describedby': 'token-help' });
  const status = h('p', { role: 'status', id: 'signin-status' });
  const form = h('form', {
    onsubmit: async (e) => {
      e.preventDefault();
      try {
        session = await api('POST', '/console/session', { token: input.value });
        location.hash = session.kind === 'admin' ? '#/' : `#/t/${session.tenant_id}`;
      } catch (err) {
        status.className = 'error';
        status.textContent = err.message;
      }
    },
  }, h('label', { for: 'token' }, 'Admin token or tenant API key'), input,
  h('p', { id: 'token-help' }, 'The admin token sees every tenant; an API key (hk_live_… or hk_test_…) sees only its tenant.'),
  h('button', { type: 'submit' }, 'Sign in'), status);
  render('Sign in', form);
}

async function tenantsPage() {
  if (session.kind !== 'admin') { location.hash = `#/t/${session.tenant_id}`; return; }
  setNav(null);
  const [page, stats] = await Promise.all([api('GET', '/v1/tenants?limit=200'), api('GET', '/v1/stats')]);
  render('Tenants',
    h('p', {}, `Queue: ${stats.queue.pending ?? 0} pending · oldest due ${stats.oldest_due_age_ms === null ? '—' : Math.round(stats.oldest_due_age_ms / 1000) + ' s'} ago`),
    h('div', { class: 'table-wrap' }, h('table', { id: 'tenants' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Tenant'), h('th', { scope: 'col' }, 'Environment'), h('th', { scope: 'col' }, 'Id'))),
      h('tbody', {}, page.items.map((x) => h('tr', {}, h('td', {}, h('a', { href: `#/t/${x.id}` }, x.name)), h('td', {}, x.environment), h('td', {}, h('code', {}, x.id))))))));
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

/** Deliveries per minute over 24 h as stacked bars (succeeded / retrying / failed), one column per minute, to scale. */
function minuteChart(data) {
  const since = Date.parse(data.since);
  const width = 1440;
  const height = 120;
  const max = Math.max(1, ...data.minutes.map((m) => m.succeeded + m.retrying + m.failed));
  const totals = { succeeded: 0, retrying: 0, failed: 0 };
  const bars = [];
  for (const m of data.minutes) {
    const x = Math.floor((Date.parse(m.at) - since) / 60_000);
    let y = height;
    for (const k of ['succeeded', 'retrying', 'failed']) {
      totals[k] += m[k];
      if (m[k] === 0) continue;
      const hgt = (m[k] / max) * height;
      y -= hgt;
      bars.push(svg('rect', { x, y, width: 1, height: hgt, class: `bar ${k}` }, svg('title', {}, `${new Date(m.at).toLocaleTimeString()}: ${m[k]} ${k}`)));
    }
  }
  const summary = `Last 24 hours: ${totals.succeeded} succeeded, ${totals.retrying} retrying, ${totals.failed} failed (busiest minute: ${max === 1 && bars.length === 0 ? 0 : max})`;
  return h('figure', { id: 'minute-chart' },
    svg('svg', { viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': summary, class: 'chart' },
      svg('line', { x1: 0, y1: height, x2: width, y2: height, class: 'axis' }), ...bars),
    h('figcaption', { id: 'chart-summary' }, summary, h('br'), h('span', { class: 'legend succeeded' }, '■ succeeded'), ' ', h('span', { class: 'legend retrying' }, '■ retrying'), ' ', h('span', { class: 'legend failed' }, '■ failed')));
}

async function overviewPage(tenant) {
  const [info, stats, notices, minutes, endpoints, breakers] = await Promise.all([
    api('GET', t(tenant)), api('GET', `${t(tenant)}/stats`), api('GET', `${t(tenant)}/notices?limit=20`), api('GET', `${t(tenant)}/stats/minutes`),
    api('GET', `${t(tenant)}/endpoints?limit=200`), api('GET', `${t(tenant)}/breaker`)]);
  const unhealthy = endpoints.items.filter((e) => e.status !== 'active');
  const open = [breakers.breaker, ...breakers.endpoints].filter((b) => b.state !== 'closed');
  const q = stats.queue;
  render(`${info.name} — overview`,
    h('p', {}, `Environment: ${info.environment} · figures since ${when(stats.since)}`),
    h('h2', {}, 'Deliveries per minute'), minuteChart(minutes),
    h('h2', {}, 'Needs attention'),
    h('ul', { id: 'attention' },
      unhealthy.map((e) => h('li', {}, h('a', { href: `#/t/${tenant}/endpoints/${e.id}` }, e.description || e.id), ' ', badge(e.status), e.pause_reason ? ` (${e.pause_reason})` : '')),
      open.map((b) => h('li', {}, `breaker ${b.scope_key}: `, badge(b.state))),
      unhealthy.length + open.length === 0 ? h('li', {}, 'Every endpoint is active and every breaker closed.') : null),
    h('div', { class: 'cards' },
      Object.entries(q).map(([k, v]) => h('div', { class: 'card' }, h('div', {}, k), h('strong', {}, String(v)))),
      h('div', { class: 'card' }, h('div', {}, 'oldest due'), h('strong', {}, stats.oldest_due_age_ms === null ? '—' : `${Math.round(stats.oldest_due_age_ms / 1000)} s`))),
    h('h2', {}, 'Endpoints'),
    h('div', { class: 'table-wrap' }, h('table', {}, h('thead', {}, h('tr', {}, ['Endpoint', 'Status', 'Succeeded', 'Failed', 'Success rate'].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, stats.endpoints.map((e) => h('tr', {}, h('td', {}, h('a', { href: `#/t/${tenant}/endpoints/${e.endpoint_id}` }, e.endpoint_id)), h('td', {}, badge(e.endpoint_status)),
        h('td', {}, String(e.succeeded)), h('td', {}, String(e.failed)), h('td', {}, e.success_rate === null ? '—' : `${Math.round(e.success_rate * 100)} %`)))))),
    h('h2', {}, 'Notices'),
    notices.items.length === 0 ? h('p', {}, 'No notices.') : h('ul', { id: 'notices' }, notices.items.map((n) => h('li', {}, h('strong', {}, n.kind), ` ${when(n.created_at)}: ${n.message}`))));
}

const STATUSES = ['pending', 'delivering', 'held', 'succeeded', 'failed', 'skipped'];

async function deliveriesPage(tenant, params) {
  const query = new URLSearchParams();
  for (const k of ['status', 'endpoint_id', 'event_type', 'cursor']) if (params.get(k)) query.set(k, params.get(k));
  query.set('limit', '50');
  const eventId = params.get('event_id');
  let items;
  let next = null;
  if (eventId) {
    const found = await api('GET', `${t(tenant)}/events/${encodeURIComponent(eventId)}`).catch((err) => { if (err.status === 404) return null; throw err; });
    items = found ? (found.deliveries ?? []) : [];
  } else {
    const page = await api('GET', `${t(tenant)}/deliveries?${query}`);
    items = page.items;
    next = page.next_cursor;
  }
  const select = h('select', { id: 'status', name: 'status' }, h('option', { value: '' }, 'any'), STATUSES.map((s) => h('option', { value: s, selected: params.get('status') === s }, s)));
  const eventInput = h('input', { id: 'event_id', name: 'event_id', value: eventId ?? '' });
  const filters = h('form', {
    class: 'filters', role: 'search',
    onsubmit: (e) => {
      e.preventDefault();
      const p = new URLSearchParams();
      if (select.value) p.set('status', select.value);
      if (eventInput.value.trim()) p.set('event_id', eventInput.value.trim());
      location.hash = `#/t/${tenant}/deliveries?${p}`;
    },
  }, h('div', {}, h('label', { for: 'status' }, 'Status'), select), h('div', {}, h('label', { for: 'event_id' }, 'Event id'), eventInput), h('button', { type: 'submit' }, 'Filter'));
  const rows = items.map((d) => h('tr', {},
    h('td', {}, h('a', { href: `#/t/${tenant}/deliveries/${d.id}` }, d.id)), h('td', {}, badge(d.status)), h('td', {}, d.event_type), h('td', {}, d.event_id),
    h('td', {}, String(d.attempt_count)), h('td', {}, d.terminal_reason ?? ''), h('td', {}, when(d.created_at))));
  render('Deliveries', filters,
    h('div', { class: 'table-wrap' }, h('table', { id: 'deliveries' }, h('thead', {}, h('tr', {}, ['Delivery', 'Status', 'Event type', 'Event id', 'Attempts', 'Reason', 'Created'].map((c) => h('th', { scope: 'col' }, c)))), h('tbody', {}, rows))),
    items.length === 0 ? h('p', {}, 'No deliveries match.') : null,
    next ? h('p', {}, h('a', { href: `#/t/${tenant}/deliveries?${new URLSearchParams({ ...Object.fromEntries(query), cursor: next })}` }, 'Next page')) : null);
}

function timeline(d) {
  const points = d.attempts.map((a) => ({ a, at: Date.parse(a.started_at) }));
  const start = Date.parse(d.created_at);
  const end = Math.max(start + 1, ...points.map((p) => p.at + p.a.duration_ms));
  return h('div', { class: 'timeline', role: 'img', 'aria-label': `${points.length} attempts between ${when(d.created_at)} and ${when(new Date(end).toISOString())}` },
    points.map(({ a, at }) => h('span', { class: `tick ${a.outcome}`, style: undefined, title: `#${a.n} ${a.outcome} at ${a.started_at}`, 'data-left': String(((at - start) / (end - start)) * 100) })));
}

async function deliveryPage(tenant, id) {
  const d = await api('GET', `${t(tenant)}/deliveries/${encodeURIComponent(id)}`);
  const status = h('p', { role: 'status', id: 'replay-status' });
  const replay = h('button', {
    type: 'button', id: 'replay', disabled: !(d.status === 'failed' || d.status === 'skipped'),
    onclick: async () => {
      replay.disabled = true;
      try {
        const r = await api('POST', `${t(tenant)}/deliveries/${encodeURIComponent(id)}/replay`);
        status.textContent = `Replay ${r.replay_id} scheduled.`;
        await pollDelivery(tenant, id, status);
      } catch (err) {
        status.className = 'error';
        status.textContent = err.message;
        replay.disabled = false;
      }
    },
  }, 'Replay');
  const tl = timeline(d);
  render(`Delivery ${d.id}`,
    h('dl', {},
      h('dt', {}, 'Status'), h('dd', { id: 'delivery-status' }, badge(d.status)),
      h('dt', {}, 'Failure reason'), h('dd', { id: 'failure-reason' }, d.terminal_reason ?? '—'),
      h('dt', {}, 'Event'), h('dd', {}, `${d.event_type} · ${d.event_id}`),
      h('dt', {}, 'Endpoint'), h('dd', {}, h('a', { href: `#/t/${tenant}/endpoints/${d.endpoint_id}` }, d.endpoint_id)),
      h('dt', {}, 'Ladder'), h('dd', {}, d.ladder)),
    replay, status,
    h('h2', {}, 'Timeline'), tl,
    h('h2', {}, 'Attempts'),
    h('div', { class: 'table-wrap' }, h('table', { id: 'attempts' }, h('thead', {}, h('tr', {}, ['#', 'Trigger', 'Started', 'Duration', 'Outcome', 'Response', 'Error'].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, d.attempts.map((a) => h('tr', {}, h('td', {}, String(a.n)), h('td', {}, a.trigger), h('td', {}, when(a.started_at)), h('td', {}, `${Math.round(a.duration_ms)} ms`),
        h('td', {}, badge(a.outcome)), h('td', {}, a.response_status === null ? '—' : String(a.response_status), a.response_body_excerpt ? h('pre', { class: 'response' }, a.response_body_excerpt) : null),
        h('td', {}, a.error_class ? `${a.error_class}: ${a.error_message ?? ''}` : '')))))),
    h('h2', {}, 'Signed headers of the last attempt'),
    h('pre', { id: 'headers' }, d.attempts.length ? JSON.stringify(d.attempts[d.attempts.length - 1].request_headers, null, 2) : '—'),
    h('h2', {}, 'Payload'), h('pre', { id: 'payload' }, JSON.stringify(d.payload, null, 2)));
  // Positions are set through the CSSOM (the CSP allows no inline style attributes).
  for (const tick of tl.children) tick.style.left = `${tick.dataset.left}%`;
}

/** Re-reads a delivery until it leaves pending/delivering, then re-renders its page (bounded: 60 tries). */
async function pollDelivery(tenant, id, status) {
  for (let i = 0; i < 60; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const d = await api('GET', `${t(tenant)}/deliveries/${encodeURIComponent(id)}`);
    if (d.status === 'succeeded' || d.status === 'failed' || d.status === 'skipped') {
      if (location.hash.endsWith(`/deliveries/${id}`)) await deliveryPage(tenant, id);
      return;
    }
    status.textContent = `Replay in progress: ${d.status}…`;
  }
  status.textContent = 'The replay has not finished yet; reload to see its state.';
}

async function endpointsPage(tenant) {
  const page = await api('GET', `${t(tenant)}/endpoints?limit=200`);
  render('Endpoints', h('div', { class: 'table-wrap' }, h('table', { id: 'endpoints' },
    h('thead', {}, h('tr', {}, ['Endpoint', 'URL', 'Status', 'Policy'].map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, page.items.map((e) => h('tr', {}, h('td', {}, h('a', { href: `#/t/${tenant}/endpoints/${e.id}` }, e.description || e.id)), h('td', {}, e.url),
      h('td', {}, badge(e.status), e.pause_reason ? ` (${e.pause_reason})` : ''), h('td', {}, e.policy)))))));
}

async function endpointPage(tenant, id) {
  const e = await api('GET', `${t(tenant)}/endpoints/${encodeURIComponent(id)}`);
  const status = h('p', { role: 'status', id: 'endpoint-status' });
  const fail = (err) => { status.className = 'error'; status.textContent = err.message; };
  const reactivate = h('button', {
    type: 'button', id: 'reactivate', disabled: e.status === 'active',
    onclick: async () => {
      try { await api('PATCH', `${t(tenant)}/endpoints/${encodeURIComponent(id)}`, { status: 'active' }); await endpointPage(tenant, id); } catch (err) { fail(err); }
    },
  }, 'Reactivate');
  const pause = h('button', {
    type: 'button', id: 'pause', disabled: e.status === 'paused',
    onclick: async () => {
      try { await api('PATCH', `${t(tenant)}/endpoints/${encodeURIComponent(id)}`, { status: 'paused' }); await endpointPage(tenant, id); } catch (err) { fail(err); }
    },
  }, 'Pause');
  const since = h('input', { id: 'since', name: 'since', required: true, placeholder: '2026-01-01T00:00:00Z' });
  const until = h('input', { id: 'until', name: 'until', required: true, placeholder: '2026-01-02T00:00:00Z' });
  const skipped = h('input', { id: 'include_skipped', type: 'checkbox' });
  const progress = h('p', { role: 'status', id: 'replay-progress' });
  const form = h('form', {
    class: 'filters',
    onsubmit: async (ev) => {
      ev.preventDefault();
      try {
        const r = await api('POST', `${t(tenant)}/endpoints/${encodeURIComponent(id)}/replays`, { since: since.value.trim(), until: until.value.trim(), include_skipped: skipped.checked });
        await followReplay(tenant, r.replay, progress);
      } catch (err) { progress.className = 'error'; progress.textContent = err.message; }
    },
  }, h('div', {}, h('label', { for: 'since' }, 'Since (ISO-8601)'), since), h('div', {}, h('label', { for: 'until' }, 'Until (ISO-8601)'), until),
  h('div', {}, h('label', { for: 'include_skipped' }, 'Include skipped'), skipped), h('button', { type: 'submit' }, 'Replay window'));
  const breaker = await api('GET', `${t(tenant)}/endpoints/${encodeURIComponent(id)}/breaker`);
  const breakerReset = h('button', {
    type: 'button', id: 'breaker-reset', disabled: breaker.state === 'closed',
    onclick: async () => {
      try { await api('POST', `${t(tenant)}/endpoints/${encodeURIComponent(id)}/breaker/reset`); await endpointPage(tenant, id); } catch (err) { fail(err); }
    },
  }, 'Reset breaker');
  const secretOut = h('pre', { id: 'secret', hidden: true });
  const reveal = h('button', {
    type: 'button', id: 'reveal-secret', 'aria-controls': 'secret',
    onclick: async () => {
      try {
        const sec = await api('GET', `${t(tenant)}/endpoints/${encodeURIComponent(id)}/secret`);
        secretOut.textContent = sec.secrets.map((x) => `${x.kid}  ${x.secret}  ${x.expires_at ? 'retires ' + when(x.expires_at) : 'current'}`).join('\n');
        secretOut.hidden = false;
      } catch (err) { fail(err); }
    },
  }, 'Reveal secrets');
  const overlap = h('input', { id: 'overlap', type: 'number', min: '0', max: String(30 * 86400), value: '86400', inputmode: 'numeric' });
  const rotate = h('button', {
    type: 'button', id: 'rotate-secret',
    onclick: async () => {
      try {
        await api('POST', `${t(tenant)}/endpoints/${encodeURIComponent(id)}/secret/rotate`, { overlap_seconds: Number(overlap.value) });
        status.className = '';
        status.textContent = `Secret rotated; the previous one keeps signing for ${overlap.value} s.`;
        secretOut.hidden = true;
      } catch (err) { fail(err); }
    },
  }, 'Rotate secret');
  const testResult = h('p', { role: 'status', id: 'test-result' });
  const testButton = h('button', {
    type: 'button', id: 'test-delivery',
    onclick: async () => {
      try {
        const a = await api('POST', `${t(tenant)}/endpoints/${encodeURIComponent(id)}/test`);
        testResult.className = a.outcome === 'success' ? 'success' : 'error';
        testResult.textContent = `Test delivery: ${a.outcome}${a.response_status === null ? '' : ' (HTTP ' + a.response_status + ')'}${a.error_message ? ' — ' + a.error_message : ''}`;
      } catch (err) { testResult.className = 'error'; testResult.textContent = err.message; }
    },
  }, 'Send a test delivery');
  const url = h('input', { id: 'edit-url', name: 'url', value: e.url, required: true, type: 'url' });
  const description = h('input', { id: 'edit-description', name: 'description', value: e.description });
  const types = h('input', { id: 'edit-event-types', name: 'event_types', value: e.event_types.join(', '), 'aria-describedby': 'types-help' });
  const settings = h('form', {
    onsubmit: async (ev) => {
      ev.preventDefault();
      try {
        await api('PATCH', `${t(tenant)}/endpoints/${encodeURIComponent(id)}`, { url: url.value.trim(), description: description.value, event_types: types.value.split(',').map((x) => x.trim()).filter(Boolean) });
        await endpointPage(tenant, id);
      } catch (err) { fail(err); }
    },
  }, h('label', { for: 'edit-url' }, 'URL'), url, h('label', { for: 'edit-description' }, 'Description'), description,
  h('label', { for: 'edit-event-types' }, 'Event types'), types, h('p', { id: 'types-help' }, 'Comma-separated; empty for every type; a trailing .* matches a family.'),
  h('button', { type: 'submit' }, 'Save settings'));
  render(e.description || `Endpoint ${e.id}`,
    h('dl', {}, h('dt', {}, 'URL'), h('dd', {}, e.url), h('dt', {}, 'Status'), h('dd', { id: 'status-badge' }, badge(e.status), e.pause_reason ? ` (${e.pause_reason})` : ''),
      h('dt', {}, 'Policy'), h('dd', {}, e.policy), h('dt', {}, 'Event types'), h('dd', {}, e.event_types.join(', ') || 'all'),
      h('dt', {}, 'Last success'), h('dd', {}, when(e.last_success_at))),
    h('p', {}, reactivate, ' ', pause, ' ', testButton), status, testResult,
    h('h2', {}, 'Breaker'), h('p', { id: 'breaker-state' }, badge(breaker.state), breaker.next_probe_at ? ` next probe ${when(breaker.next_probe_at)}` : '', ' ', breakerReset),
    h('h2', {}, 'Settings'), settings,
    h('h2', {}, 'Signing secrets'), h('p', {}, reveal), secretOut,
    h('div', { class: 'filters' }, h('div', {}, h('label', { for: 'overlap' }, 'Overlap (seconds)'), overlap), rotate),
    h('h2', {}, 'Replay a window'), h('p', {}, 'Sends again every failed (and, if chosen, skipped) delivery of this endpoint created in the window.'), form, progress);
}

/** Shows a window replay's progress until every selected delivery had its attempt (bounded: 120 polls). */
async function followReplay(tenant, replay, progress) {
  for (let i = 0; ; i++) {
    progress.className = '';
    progress.textContent = `Replay ${replay.id}: ${replay.attempted} of ${replay.selected} attempted, ${replay.succeeded} succeeded, ${replay.failed} failed${replay.done ? ' — done' : '…'}`;
    if (replay.done || i >= 120) return;
    await new Promise((r) => setTimeout(r, 500));
    replay = await api('GET', `${t(tenant)}/replays/${encodeURIComponent(replay.id)}`);
  }
}

async function eventTypesPage() {
  const list = await api('GET', '/v1/event-types');
  render('Event types', list.items.length === 0 ? h('p', {}, 'No event types are registered.') : null,
    list.items.map((et) => h('section', { class: 'event-type' }, h('h2', {}, et.name), h('p', {}, et.description || '—'),
      et.money ? h('p', {}, h('span', { class: 'badge' }, 'money event')) : null,
      Object.entries(et.versions).map(([v, def]) => h('div', {}, h('h3', {}, `version ${v}`),
        def && def.schema ? [h('h4', {}, 'JSON Schema'), h('pre', {}, JSON.stringify(def.schema, null, 2))] : null,
        def && def.example !== undefined ? [h('h4', {}, 'Example payload'), h('pre', {}, JSON.stringify(def.example, null, 2))] : null)))));
}

// ---- router

async function route() {
  const [path, qs] = location.hash.replace(/^#/, '').split('?');
  const parts = (path || '/').split('/').filter(Boolean).map(decodeURIComponent);
  try {
    if (parts[0] === 'signin') return signInPage();
    if (!session) {
      try { session = await api('GET', '/console/session'); } catch { return signInPage(); }
    }
    if (parts.length === 0) return await tenantsPage();
    if (parts[0] === 't' && parts[1]) {
      const tenant = parts[1];
      setNav(tenant);
      if (parts.length === 2) return await overviewPage(tenant);
      if (parts[2] === 'deliveries' && parts[3]) return await deliveryPage(tenant, parts[3]);
      if (parts[2] === 'deliveries') return await deliveriesPage(tenant, new URLSearchParams(qs ?? ''));
      if (parts[2] === 'endpoints' && parts[3]) return await endpointPage(tenant, parts[3]);
      if (parts[2] === 'endpoints') return await endpointsPage(tenant);
      if (parts[2] === 'event-types') return await eventTypesPage();
    }
    render('Not found', h('p', {}, 'No such page.'));
  } catch (err) {
    renderError(err);
  }
}

window.addEventListener('hashchange', route);
route();
