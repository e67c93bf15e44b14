// A notice (endpoint degraded, paused, recovered…) as the API answers it, and its JSON Schema.
import type { Notice } from '@hookline/core';
import { named } from '../../http/schema-names.ts';
import { environment, iso, nullableStr, obj, str, time } from '../../http/views.ts';

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
});
