// The receiver doctor (docs/rules.md#tool-doctor) against an endpoint, through the engine's sender and its SSRF rules.

import { type DoctorReport, runDoctor } from '../doctor/run-doctor.ts';
import type { Endpoint } from '../domain.ts';
import { fail } from '../errors.ts';
import type { EngineParts } from './engine-parts.ts';

/** The event type the doctor's events carry, from the registry: its example is their data, its schema drives case 6. */
export interface DoctorContract {
  type: string;
  version?: string;
  example?: unknown;
  schema?: unknown;
}

/** What `doctor.run` adds to the endpoint's own settings. */
export interface DoctorEndpointOptions {
  /** The contract, or how to find it from the endpoint (run before the paused check, so its errors come first). */
  contract?: DoctorContract | ((endpoint: Endpoint) => Promise<DoctorContract | undefined>);
  /** Lower caps (tests); never above 30 requests and 60 s. */
  maxRequests?: number;
  maxDurationMs?: number;
}

export class DoctorOperations {
  readonly #p: EngineParts;

  constructor(parts: EngineParts) {
    this.#p = parts;
  }

  /**
   * Runs the doctor against the endpoint: its URL, scheme and live secrets (the older of two during a rotation
   * overlap is case 9's), its timeout. Records nothing and leaves endpoint health alone. Refused for a paused endpoint.
   */
  async run(tenantId: string, id: string, opts: DoctorEndpointOptions = {}): Promise<DoctorReport> {
    const p = this.#p;
    const ep = await p.store.catalog.getEndpoint(tenantId, id);
    if (!ep) throw fail('endpoint_not_found');
    const c = typeof opts.contract === 'function' ? await opts.contract(ep) : opts.contract;
    if (ep.status === 'paused') throw fail('endpoint_paused');
    const policy = p.policies.get(ep.policy) ?? p.policies.default();
    const secrets = await p.secrets.live(id, ep.version, p.clock.now());
    // The endpoint's way out (proxy, client certificate, OAuth2 token) goes with every request, as with its deliveries.
    const egress = await p.egress.of(id, ep.version);
    return runDoctor(
      {
        url: ep.url,
        scheme: ep.scheme,
        secrets,
        previousSecret: secrets.length > 1 ? secrets[secrets.length - 1] : null,
        ...(c ? { eventType: c.type, version: c.version, example: c.example, schema: c.schema } : {}),
        timeoutMs: ep.timeoutMs ?? policy.timeoutMs,
      },
      // No endpoint id: the doctor's requests use the per-origin pool, never the sockets the endpoint's deliveries hold.
      {
        sender: { send: (r) => p.sender.send({ ...r, ...egress }) },
        clock: p.clock,
        maxRequests: opts.maxRequests,
        maxDurationMs: opts.maxDurationMs,
      },
    );
  }
}
