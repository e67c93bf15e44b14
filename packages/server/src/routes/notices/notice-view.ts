// A notice (endpoint degraded, paused, recovered…) as the API answers it, and its JSON Schema.
import type { Notice } from '@hookline/core';
import { named } from '../../http/schema-names.ts';
import { environment, iso, nullableStr, nullableTime, obj, str, time } from '../../http/views.ts';

export const NoticeSchema = named(
  'Notice',
  obj({
    id: str,
    environment,
    kind: str,
    subject_id: nullableStr,
    message: str,
    data: { type: 'object', additionalProperties: true },
    created_at: time,
    resolved_at: {
      ...nullableTime,
      description:
        'A degraded or paused notice: when its incident ended (a recovery that held for the reopen window, or a reactivation by hand; docs/rules.md#notifications). Null while the incident is open, and for other kinds.',
    },
  }),
);
export const noticeView = (n: Notice) => ({
  id: n.id,
  environment: n.environment,
  kind: n.kind,
  subject_id: n.subjectId,
  message: n.message,
  data: n.data,
  created_at: iso(n.createdAt),
  resolved_at: iso(n.resolvedAt),
});
