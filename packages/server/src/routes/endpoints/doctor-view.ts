// The doctor's report as JSON (the route's answer and `hookline doctor --json`), with its schema for the OpenAPI document.
import { type DoctorReport, SCHEMES } from '@hookline/core';
import { iso } from '../../http/views.ts';

export function doctorView(r: DoctorReport) {
  return {
    url: r.url,
    scheme: r.scheme,
    event_type: r.eventType,
    started_at: iso(r.startedAt),
    duration_ms: r.durationMs,
    requests_sent: r.requestsSent,
    limits: {
      max_requests: r.limits.maxRequests,
      max_duration_ms: r.limits.maxDurationMs,
      timeout_ms: r.limits.timeoutMs,
    },
    stopped_by: r.stoppedBy,
    score: r.score,
    cases: r.cases.map((c) => ({
      id: c.id,
      number: c.number,
      title: c.title,
      grade: c.grade,
      explanation: c.explanation,
      applicable: c.applicable,
      advice: c.advice,
      requests: c.requests.map((q) => ({
        event_id: q.eventId,
        status: q.status,
        duration_ms: q.durationMs,
        error: q.error,
      })),
    })),
    fixes: r.fixes,
  };
}

const nullable = (type: string) => ({ type: [type, 'null'] });

export const DoctorReportSchema = {
  type: 'object',
  required: [
    'url',
    'scheme',
    'event_type',
    'started_at',
    'duration_ms',
    'requests_sent',
    'limits',
    'stopped_by',
    'score',
    'cases',
    'fixes',
  ],
  properties: {
    url: { type: 'string' },
    scheme: { type: 'string', enum: [...SCHEMES] },
    event_type: { type: 'string' },
    started_at: { type: 'string', format: 'date-time' },
    duration_ms: { type: 'integer' },
    requests_sent: { type: 'integer' },
    limits: {
      type: 'object',
      required: ['max_requests', 'max_duration_ms', 'timeout_ms'],
      properties: {
        max_requests: { type: 'integer' },
        max_duration_ms: { type: 'integer' },
        timeout_ms: { type: 'integer' },
      },
    },
    stopped_by: {
      type: ['string', 'null'],
      enum: ['max_requests', 'max_duration', 'refused_address', null],
      description: 'why the run ended before every case ran',
    },
    score: {
      type: 'object',
      required: ['passed', 'applicable', 'warned', 'failed', 'skipped'],
      description:
        'passed of applicable cases (cases 6 and 9 are not applicable without a schema or a previous secret)',
      properties: {
        passed: { type: 'integer' },
        applicable: { type: 'integer' },
        warned: { type: 'integer' },
        failed: { type: 'integer' },
        skipped: { type: 'integer' },
      },
    },
    cases: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'number', 'title', 'grade', 'explanation', 'applicable', 'advice', 'requests'],
        properties: {
          id: { type: 'string' },
          number: { type: 'string' },
          title: { type: 'string' },
          grade: { type: 'string', enum: ['pass', 'warn', 'fail', 'skip'] },
          explanation: { type: 'string' },
          applicable: { type: 'boolean' },
          advice: nullable('string'),
          requests: {
            type: 'array',
            items: {
              type: 'object',
              required: ['event_id', 'status', 'duration_ms', 'error'],
              properties: {
                event_id: { type: 'string' },
                status: nullable('integer'),
                duration_ms: { type: 'integer' },
                error: nullable('string'),
              },
            },
          },
        },
      },
    },
    fixes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['number', 'title', 'grade', 'advice'],
        properties: {
          number: { type: 'string' },
          title: { type: 'string' },
          grade: { type: 'string', enum: ['fail', 'warn'] },
          advice: { type: 'string' },
        },
      },
    },
  },
};
