// A tenant's usage today against its limits (docs/rules.md#tenant-limits), and for the admin a form to set the limits:
// an empty field takes the server's configured default.
import type { components } from '@hookline/client';
import { Button, Flex, Text } from '@radix-ui/themes';
import { type FormEvent, useState } from 'react';
import { api, messageOf, unwrap } from '../api.ts';
import { useLoad } from '../use-load.ts';
import { Field } from './field.tsx';
import { Loading, Status } from './page.tsx';

type Limits = components['schemas']['TenantLimits'];
type LimitKey = keyof Limits;

const FIELDS: ReadonlyArray<readonly [LimitKey, string, string]> = [
  ['events_per_s', 'Events per second', 'New events per second, across every API process.'],
  ['events_per_day', 'Events per day', 'New events per UTC day; the owners are told at 80 % and 100 %.'],
  ['max_endpoints', 'Endpoints', 'How many endpoints the tenant may have.'],
  ['max_payload_bytes', 'Payload bytes', 'The largest event envelope accepted.'],
];

const of = (n: number, max: number | null) => (max === null ? `${n} (no limit)` : `${n} of ${max}`);

export function TenantUsage({ tenant, admin }: { tenant: string; admin: boolean }) {
  const loaded = useLoad(
    () => api.GET('/v1/tenants/{tenant}/usage', { params: { path: { tenant } } }).then(unwrap),
    [tenant],
  );
  return (
    <Loading loaded={loaded}>
      {(u) => (
        <>
          <ul id="usage">
            <li id="usage-events">
              Events today ({u.day}, UTC): {of(u.events_today, u.events_per_day)}
              {u.percent === null ? '' : ` — ${u.percent} %`}
            </li>
            <li id="usage-rate">
              Rate: {u.rate_per_s}/s over the last whole minute ({u.events_this_minute} this minute)
              {u.limits.events_per_s === null ? '' : `; limit ${u.limits.events_per_s}/s`}
            </li>
            <li id="usage-endpoints">Endpoints: {of(u.endpoints, u.max_endpoints)}</li>
            <li id="usage-payload">
              Largest event: {u.limits.max_payload_bytes === null ? 'no limit' : `${u.limits.max_payload_bytes} bytes`}
            </li>
          </ul>
          {admin ? <LimitsForm tenant={tenant} own={u.own_limits} onSaved={loaded.reload} /> : null}
        </>
      )}
    </Loading>
  );
}

function LimitsForm({ tenant, own, onSaved }: { tenant: string; own: Limits; onSaved: () => Promise<void> }) {
  const [v, setV] = useState(() => Object.fromEntries(FIELDS.map(([k]) => [k, own[k] === null ? '' : String(own[k])])));
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(null);
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    const limits = Object.fromEntries(FIELDS.map(([k]) => [k, v[k].trim() === '' ? null : Number(v[k])])) as Limits;
    const bad = FIELDS.find(([k]) => limits[k] !== null && !Number.isFinite(limits[k]));
    if (bad) {
      setMessage({ text: `${bad[1]}: give a number, or leave it empty for the default`, error: true });
      return;
    }
    try {
      await api.PATCH('/v1/tenants/{tenant}', { params: { path: { tenant } }, body: { limits } }).then(unwrap);
      setMessage({ text: 'Limits saved.' });
      await onSaved();
    } catch (err) {
      setMessage({ text: messageOf(err), error: true });
    }
  };
  return (
    <form onSubmit={submit} aria-label="Tenant limits" id="limits-form">
      <Text as="p" size="2">
        Limits (admin only). An empty field takes the server's configured default.
      </Text>
      <Flex gap="3" wrap="wrap" align="end">
        {FIELDS.map(([k, label, help]) => (
          <Field
            key={k}
            id={`limit-${k}`}
            label={label}
            help={help}
            inputMode="decimal"
            value={v[k]}
            onChange={(e) => setV({ ...v, [k]: e.target.value })}
          />
        ))}
        <Button type="submit" id="save-limits">
          Save limits
        </Button>
      </Flex>
      <Status id="limits-status" message={message} />
    </form>
  );
}
