// `hookline doctor <url>`: runs the receiver doctor's signed ugly cases against a receiver from this machine, graded.
import {
  checkEndpointUrl,
  createSender,
  type DoctorReport,
  InvalidDurationError,
  isEd25519Secret,
  parseDuration,
  publicKeyOf,
  runDoctor,
  type Scheme,
  signingKey,
} from '@hookline/core';
import { doctorView } from '../../routes/endpoints/doctor-view.ts';
import { type CliContext, out, printJson } from '../cli-context.ts';
import { CliError, EXIT, usageError } from '../cli-error.ts';
import type { Command } from '../command.ts';
import { readJsonFile } from '../json-file.ts';
import { parseCommandArgs, requirePositional, requireValue } from '../parse-args.ts';
import { formatTable } from '../table.ts';

const OPTIONS = {
  secret: { type: 'string' },
  kid: { type: 'string' },
  'previous-secret': { type: 'string' },
  'previous-kid': { type: 'string' },
  scheme: { type: 'string' },
  type: { type: 'string' },
  version: { type: 'string' },
  example: { type: 'string' },
  schema: { type: 'string' },
  timeout: { type: 'string' },
  'allow-private-targets': { type: 'boolean' },
  'allow-http': { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

export const doctor: Command = {
  name: 'doctor',
  summary: 'check a webhook receiver against the ugly cases (docs/rules.md#tool-doctor) and grade it',
  help: `Usage:
  hookline doctor <url> --secret <secret> [--scheme hookline|standard] [--previous-secret <s>]
                  [--type <type> --example <payload.json> [--schema <schema.json>]] [--json]

Sends signed requests to <url> and nothing else — a valid event, the same event three times, a bad
signature, a body changed by one byte, timestamps 10 minutes old and ahead, corrupted JSON, a missing
required field, an unknown event type, an extra optional field, the previous secret, two versions out
of order — and grades each pass / warn / fail with the fix. At most 30 requests and 60 s; every request
carries X-Webhook-Doctor: 1 and an event id starting doctor_: a receiver answers them as real
events but must not run them as work (@hookline/receiver does so by default).

Options:
  --secret <s>            the receiver's signing secret (required; an ed25519 whsk_ key signs v1a, --scheme standard)
  --kid <id>              key id in the signature (default doctor)
  --previous-secret <s>   a secret being retired: case 9 signs with it alone (skipped without it)
  --previous-kid <id>     its key id (default doctor-previous)
  --scheme <name>         hookline (default) or standard (Standard Webhooks; secrets whsec_<base64>)
  --type <type>           event type of the doctor's events (default doctor.check)
  --version <v>           their version (default 1)
  --example <file>        the events' data: a JSON file holding the data, or a whole event with "data"
  --schema <file>         JSON Schema of data; its required fields drive case 6 (skipped without it)
  --timeout <duration>    per-request timeout (default 10s; case 1 warns above 1s, fails above 10s)
  --allow-http            allow a plain http:// URL (development)
  --allow-private-targets allow loopback and private addresses (development); refused otherwise
  --json                  machine-readable report (the same JSON as POST …/endpoints/:endpoint/doctor)

Exit codes: 0 no case failed (warnings allowed), 1 at least one case failed, 2 usage error,
4 the URL is refused by the SSRF rules.

Examples:
  hookline doctor https://shop.test/webhooks --secret whsec_… --type order.shipped --example order.json \\
    --schema order.schema.json
  hookline doctor http://127.0.0.1:3000/hooks --secret s3cret --allow-http --allow-private-targets --json`,

  async run(args, ctx) {
    const { values, positionals } = parseCommandArgs('doctor', args, OPTIONS, 1);
    const url = requirePositional('doctor', 'url', positionals[0]);
    const secret = requireValue('doctor', 'secret', values.secret);
    const scheme = schemeValue(values.scheme);
    const allowHttp = values['allow-http'] === true;
    const allowPrivateTargets = values['allow-private-targets'] === true;
    const check = checkEndpointUrl(url, { allowHttp, allowPrivateTargets });
    if (!check.ok) {
      const hint =
        check.code === 'url_must_be_https'
          ? ' (--allow-http for development)'
          : check.code === 'url_private_address'
            ? ' (--allow-private-targets for development)'
            : '';
      throw new CliError(
        check.code === 'url_invalid' ? EXIT.usage : EXIT.refused,
        `doctor: ${url}: ${check.message}${hint}; nothing was sent`,
      );
    }
    const secrets = [{ kid: kidValue('kid', values.kid ?? 'doctor'), secret: secretValue('secret', secret, scheme) }];
    const previous = values['previous-secret'];
    const previousSecret =
      previous === undefined
        ? null
        : {
            kid: kidValue('previous-kid', values['previous-kid'] ?? 'doctor-previous'),
            secret: secretValue('previous-secret', previous, scheme),
          };
    const example = values.example === undefined ? undefined : readJsonFile('doctor', values.example, 'example');
    const envelope = isEnvelope(example) ? example : null;
    const schema = values.schema === undefined ? undefined : readJsonFile('doctor', values.schema, 'schema');
    const timeoutMs = values.timeout === undefined ? undefined : durationValue(values.timeout);

    const sender = createSender({ allowHttp, allowPrivateTargets });
    let report: DoctorReport;
    try {
      report = await runDoctor(
        {
          url: check.url.toString(),
          scheme,
          secrets,
          previousSecret,
          eventType: values.type ?? (envelope ? envelope.type : undefined),
          ...(values.version !== undefined ? { version: values.version } : {}),
          ...(example !== undefined ? { example: envelope ? envelope.data : example } : {}),
          ...(schema !== undefined ? { schema } : {}),
          ...(timeoutMs !== undefined ? { timeoutMs } : {}),
        },
        { sender },
      );
    } finally {
      await sender.close();
    }
    if (values.json) printJson(ctx, doctorView(report));
    else printReport(ctx, report);
    return report.score.failed > 0 ? EXIT.failure : EXIT.ok;
  },
};

function schemeValue(raw: string | undefined): Scheme {
  if (raw === undefined || raw === 'hookline') return 'hookline';
  if (raw === 'standard') return 'standard';
  throw usageError(`doctor: --scheme must be hookline or standard, got '${raw}'`);
}

function secretValue(flag: string, secret: string, scheme: Scheme): string {
  // An ed25519 secret key (whsk_) signs v1a, which only the standard scheme carries (docs/rules.md#signing-ed25519).
  if (isEd25519Secret(secret) && scheme !== 'standard')
    throw usageError(`doctor: --${flag}: an ed25519 secret key (whsk_) needs --scheme standard`);
  try {
    if (isEd25519Secret(secret)) publicKeyOf(secret);
    else signingKey(scheme, secret);
  } catch (err) {
    throw usageError(`doctor: --${flag}: ${(err as Error).message}`);
  }
  return secret;
}

function kidValue(flag: string, kid: string): string {
  if (kid === '' || /[,=\s]/.test(kid))
    throw usageError(`doctor: --${flag} must be non-empty without commas, '=' or spaces, got '${kid}'`);
  return kid;
}

function durationValue(raw: string): number {
  try {
    const ms = parseDuration(raw);
    if (ms >= 1 && ms <= 60_000) return ms;
  } catch (err) {
    if (!(err instanceof InvalidDurationError)) throw err;
  }
  throw usageError(`doctor: --timeout must be a duration from 1ms to 60s (e.g. 5s), got '${raw}'`);
}

/** A whole event (`{"type": …, "data": …}`) rather than just its data. */
function isEnvelope(v: unknown): v is { type: string; data: unknown } {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    typeof (v as { type?: unknown }).type === 'string' &&
    Object.hasOwn(v, 'data')
  );
}

/** Said on every report: the doctor's events are checks, and a receiver must not run them as work. */
const DOCTOR_MARK_NOTE =
  'every request carried X-Webhook-Doctor: 1 and a doctor_ event id: a receiver answers them as real events but never runs them as work (@hookline/receiver does so by default; docs/rules.md#tool-doctor)';

const MARK = { pass: 'pass', warn: 'WARN', fail: 'FAIL', skip: 'skip' } as const;

function printReport(ctx: CliContext, r: DoctorReport): void {
  out(
    ctx,
    `doctor ${r.url} · scheme ${r.scheme} · type ${r.eventType} · ${r.requestsSent} requests in ${(r.durationMs / 1000).toFixed(1)} s`,
  );
  out(ctx, DOCTOR_MARK_NOTE);
  out(ctx);
  out(
    ctx,
    formatTable(r.cases, [
      { header: '#', value: (c) => c.number, align: 'right' },
      { header: 'case', value: (c) => c.title },
      { header: 'grade', value: (c) => MARK[c.grade] },
      { header: 'result', value: (c) => c.explanation },
    ]),
  );
  out(ctx);
  const { passed, applicable, warned, failed, skipped } = r.score;
  out(
    ctx,
    `score ${passed}/${applicable} passed · ${warned} warning${warned === 1 ? '' : 's'} · ${failed} failed${skipped ? ` · ${skipped} skipped` : ''}`,
  );
  if (r.stoppedBy !== null)
    out(
      ctx,
      `stopped early: ${r.stoppedBy === 'max_requests' ? `the ${r.limits.maxRequests}-request cap` : r.stoppedBy === 'max_duration' ? `the ${r.limits.maxDurationMs / 1000} s budget` : 'the address is refused by the SSRF rules'}`,
    );
  if (r.fixes.length === 0) return;
  out(ctx);
  out(ctx, 'fixes:');
  for (const f of r.fixes) out(ctx, `  ${f.number.padStart(3)}  ${f.grade === 'fail' ? 'FAIL' : 'WARN'}  ${f.advice}`);
}
