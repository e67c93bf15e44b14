// Svix's error shapes for the /api/v1 routes (docs/svix-compatibility.md#errors): `{code, detail}` from Hookline's
// catalog, and a 422 `{detail: [{loc, msg, type}]}` for a request whose fields are wrong.
import type { HooklineError } from '@hookline/core';

/** What Svix answers for one Hookline error: 400-level field errors become 422 with one item per field. */
export function svixErrorBody(e: HooklineError): { status: number; body: unknown } {
  if ((e.code === 'invalid_request' || e.code === 'schema_validation_failed') && e.details?.length) {
    return {
      status: 422,
      body: {
        detail: e.details.map((d) => ({
          loc: [d.in, ...d.path.split('/').filter((p) => p.length > 0)],
          msg: d.message,
          type: 'value_error',
        })),
      },
    };
  }
  if (e.code === 'schema_validation_failed') {
    const path = String(e.params.path ?? '/data').replace(/^\/data/, '/payload');
    return {
      status: 422,
      body: {
        detail: [
          {
            loc: ['body', ...path.split('/').filter((p) => p.length > 0)],
            msg: String(e.params.detail ?? e.message),
            type: 'value_error',
          },
        ],
      },
    };
  }
  return { status: e.status, body: { code: e.code, detail: e.message } };
}
