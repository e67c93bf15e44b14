// A replay (one delivery, or an endpoint's window) and its progress as the API answers it, and their JSON Schemas.
import type { ReplayRow } from '@hookline/core';
import { named } from '../../http/schema-names.ts';
import { bool, int, iso, nullableStr, nullableTime, obj, str, time } from '../../http/views.ts';

export const ReplaySchema = named(
  'Replay',
  obj({
    id: str,
    endpoint_id: nullableStr,
    kind: { type: 'string', enum: ['window', 'single'] },
    since: nullableTime,
    until: nullableTime,
    include_skipped: bool,
    selected: int,
    attempted: {
      ...int,
      description:
        'Selected deliveries the replay is done with: attempted, or ended unattempted because the endpoint paused (counted failed).',
    },
    succeeded: int,
    failed: int,
    done: { ...bool, description: 'Every selected delivery has had its attempt.' },
    created_at: time,
  }),
);
export const replayView = (r: ReplayRow) => ({
  id: r.id,
  endpoint_id: r.endpointId,
  kind: r.kind,
  since: iso(r.sinceMs),
  until: iso(r.untilMs),
  include_skipped: r.includeSkipped,
  selected: r.selected,
  attempted: r.attempted,
  succeeded: r.succeeded,
  failed: r.failed,
  done: r.attempted >= r.selected,
  created_at: iso(r.createdAt),
});
export const ReplayAcceptedSchema = named('ReplayAccepted', obj({ replay_id: str, replay: ReplaySchema }));
