// Endpoints: create (with a first signing secret), read, edit, delete mid-flight, retry now, and one test delivery now.

import type { Actor } from '../audit/audit-types.ts';
import { DEFAULTS } from '../defaults.ts';
import type { Attempt, Endpoint } from '../domain.ts';
import { fail } from '../errors.ts';
import { checkEndpointUrl } from '../http/address-guard.ts';
import { newId } from '../ids.ts';
import { generateEd25519Secret, publicKeyOf } from '../signing/ed25519-keys.ts';
import { generateSecret } from '../signing/signing-keys.ts';
import { isUniqueViolation } from '../store/storage-fault.ts';
import type { EndpointLabels, EndpointPatch, Page, ReplayRow } from '../store/store.ts';
import { audited } from './audit.ts';
import { EndpointEgressOperations, hasEgressInput, summarize } from './endpoint-egress.ts';
import {
  checkGivenSecret,
  type EndpointEdit,
  type EndpointInput,
  endpointPatch,
  newEndpoint,
} from './endpoint-input.ts';
import { sendTestDelivery } from './endpoint-test-delivery.ts';
import type { EngineParts } from './engine-parts.ts';
import { dailyReplayQuota, replayQuotaExceeded } from './replay-quota.ts';

/** An endpoint as stored: `version` counts its edits (signing secrets are cached by it). */
type StoredEndpoint = Endpoint & { version: number };

export class EndpointOperations {
  readonly #p: EngineParts;
  readonly #egress: EndpointEgressOperations;

  constructor(parts: EngineParts) {
    this.#p = parts;
    this.#egress = new EndpointEgressOperations(parts);
  }

  /** The normalised URL, or 400 with the SSRF rule it breaks. */
  checkUrl(url: string): string {
    const check = checkEndpointUrl(url, {
      allowHttp: this.#p.settings.allowHttp,
      allowPrivateTargets: this.#p.settings.allowPrivateTargets,
    });
    if (!check.ok) throw fail(check.code, check.params);
    return check.url.toString();
  }

  #policyName(name: string | undefined): string {
    const policies = this.#p.policies;
    if (name === undefined) return policies.default().name;
    if (!policies.has(name)) throw fail('unknown_policy', { name });
    return name;
  }

  /**
   * Creates an endpoint with its first signing key: an HMAC secret (returned, shown once here and by the secrets
   * view) or an ed25519 key pair (only its public key is returned: the secret key never leaves the engine).
   */
  async create(
    tenantId: string,
    input: EndpointInput,
    actor?: Actor,
  ): Promise<{ endpoint: Endpoint; secret: string | null; publicKey: string | null }> {
    const p = this.#p;
    const now = p.clock.now();
    const signing = input.signing ?? 'hmac';
    const scheme = input.scheme ?? (signing === 'ed25519' ? 'standard' : 'hookline');
    if (signing === 'ed25519' && scheme !== 'standard') throw fail('signing_needs_standard_scheme');
    const url = this.checkUrl(input.url);
    const policyName = this.#policyName(input.policy);
    const policy = p.policies.get(policyName)!;
    const resolved = { url, policy: policyName, maxConcurrency: policy.maxConcurrency, scheme, signing };
    const endpoint = newEndpoint(newId('ep', now), tenantId, input, resolved, now);
    // Egress settings are checked (and sealed) before anything is written; stored right after the endpoint.
    const egress = hasEgressInput(input) ? this.#egress.prepare(endpoint.id, input, null, now) : null;
    if (input.secret !== undefined && signing !== 'hmac') throw fail('signing_needs_standard_scheme');
    const secret =
      input.secret !== undefined
        ? checkGivenSecret(input.secret)
        : signing === 'ed25519'
          ? generateEd25519Secret()
          : generateSecret();
    const uid = endpoint.uid;
    if (uid && (await p.store.svix.findEndpointByUid(tenantId, uid)))
      throw fail('uid_taken', { uid, what: 'endpoint' });
    const maxEndpoints = await this.#maxEndpoints(tenantId);
    const what = { action: 'endpoint.create', target: { type: 'endpoint' as const, id: endpoint.id, tenantId } };
    let created: boolean;
    try {
      created = await audited(
        p,
        actor,
        what,
        'createEndpoint',
        endpoint,
        {
          kid: newId('sec', now),
          endpointId: endpoint.id,
          sealed: p.box.seal(secret, endpoint.id),
          createdAt: now,
          expiresAt: null,
        },
        maxEndpoints,
      );
    } catch (err) {
      if (uid && isUniqueViolation(err)) throw fail('uid_taken', { uid, what: 'endpoint' });
      throw err;
    }
    if (!created) throw fail('endpoint_limit_reached', { max: maxEndpoints! });
    if (egress !== null) await p.store.egress.setEndpointEgress(endpoint.id, egress, now);
    endpoint.egress = summarize(egress);
    p.ingest.invalidate(tenantId);
    return signing === 'ed25519'
      ? { endpoint, secret: null, publicKey: publicKeyOf(secret) }
      : { endpoint, secret, publicKey: null };
  }

  /** The tenant's endpoint cap (docs/rules.md#tenant-limits): its own, else the configured default; null: none. */
  async #maxEndpoints(tenantId: string): Promise<number | null> {
    const t = await this.#p.store.catalog.getTenant(tenantId);
    return t?.limits.maxEndpoints ?? this.#p.settings.tenantLimits?.maxEndpoints ?? null;
  }

  async list(tenantId: string, cursor: string | null, limit: number): Promise<Page<Endpoint>> {
    const page = await this.#p.store.catalog.listEndpoints(tenantId, cursor, limit);
    for (const ep of page.items) ep.egress = await this.#egress.summaryOf(ep.id);
    return page;
  }

  /** The endpoint, or null when the tenant has none by that id. */
  async find(tenantId: string, id: string): Promise<StoredEndpoint | null> {
    const ep = await this.#p.store.catalog.getEndpoint(tenantId, id);
    if (ep) ep.egress = await this.#egress.summaryOf(id);
    return ep;
  }

  /** The endpoint by its id or, failing that, its uid (the Svix-compatible API's `endpoint_id`); 404 when neither. */
  async getByIdOrUid(tenantId: string, ref: string): Promise<StoredEndpoint> {
    const ep =
      (await this.#p.store.catalog.getEndpoint(tenantId, ref)) ??
      (await this.#p.store.svix.findEndpointByUid(tenantId, ref));
    if (!ep) throw fail('endpoint_not_found');
    return ep;
  }

  /** Sets every Svix label of the endpoint at once (uid, metadata, channels); 409 uid_taken. */
  async setLabels(tenantId: string, id: string, labels: EndpointLabels, actor?: Actor): Promise<StoredEndpoint> {
    const p = this.#p;
    if (labels.uid) {
      const holder = await p.store.svix.findEndpointByUid(tenantId, labels.uid);
      if (holder && holder.id !== id) throw fail('uid_taken', { uid: labels.uid, what: 'endpoint' });
    }
    const channels = labels.channels?.length ? labels.channels : null;
    try {
      const what = { action: 'endpoint.labels', target: { type: 'endpoint' as const, id, tenantId } };
      const set = await audited(
        p,
        actor,
        what,
        'setEndpointLabels',
        tenantId,
        id,
        { ...labels, channels },
        p.clock.now(),
      );
      if (!set) throw fail('endpoint_not_found');
    } catch (err) {
      if (labels.uid && isUniqueViolation(err)) throw fail('uid_taken', { uid: labels.uid, what: 'endpoint' });
      throw err;
    }
    p.ingest.invalidate(tenantId);
    p.secrets.forget(id);
    return this.get(tenantId, id);
  }

  async get(tenantId: string, id: string): Promise<StoredEndpoint> {
    const ep = await this.#p.store.catalog.getEndpoint(tenantId, id);
    if (!ep) throw fail('endpoint_not_found');
    ep.egress = await this.#egress.summaryOf(id);
    return ep;
  }

  /**
   * Retry now for the endpoint (docs/rules.md#retry-now): every pending delivery due later becomes due now (of an
   * ordering key only its head; held ones stay with their breaker), paced by the claim as usual; the count moved.
   * 409 endpoint_paused on a paused endpoint (its queue is failed at the next claim, not sent).
   */
  async retry(tenantId: string, id: string, actor?: Actor): Promise<{ moved: number }> {
    const p = this.#p;
    const ep = await this.get(tenantId, id);
    if (ep.status === 'paused') throw fail('endpoint_paused');
    const what = { action: 'endpoint.retry', target: { type: 'endpoint' as const, id, tenantId } };
    const moved = await audited(p, actor, what, 'retryEndpointDeliveries', id, p.clock.now());
    if (moved > 0) p.dispatcher.wake();
    return { moved };
  }

  /**
   * Edits an endpoint. A URL change clears degradation and the failure streak; description and subscription
   * edits do not (docs/rules.md#health-clear). `status: 'active'` reactivates a paused endpoint; `paused` pauses it manually.
   */
  async update(tenantId: string, id: string, input: EndpointEdit, actor?: Actor): Promise<StoredEndpoint> {
    const p = this.#p;
    if (input.catch_up === true) throw fail('catch_up_needs_reactivation');
    const cur = await this.get(tenantId, id);
    const patch = this.#patch(cur, input);
    // The egress settings first: a refused certificate or token URL leaves the whole edit undone.
    const egress = hasEgressInput(input) ? await this.#egress.apply(id, input) : cur.egress;
    const what = { action: 'endpoint.update', target: { type: 'endpoint' as const, id, tenantId } };
    const next = await audited(p, actor, what, 'updateEndpoint', tenantId, id, patch, p.clock.now());
    if (!next) throw fail('endpoint_not_found');
    next.egress = egress;
    p.ingest.invalidate(tenantId);
    if (patch.status === 'active') p.dispatcher.wake();
    return next;
  }

  /**
   * Reactivates a paused endpoint with `catch_up: true` (docs/rules.md#catch-up): in one transaction the endpoint
   * is active again (with any other edits of `input`) and a window replay of everything that failed or was skipped
   * since the pause began is scheduled, under the 10,000 limit and the daily quota. Over the quota nothing changes
   * (429, still paused); an endpoint that is not paused is 409 `endpoint_not_paused`.
   */
  async reactivate(
    tenantId: string,
    id: string,
    input: EndpointEdit,
    actor?: Actor,
  ): Promise<{ endpoint: StoredEndpoint; replay: ReplayRow }> {
    const p = this.#p;
    if (input.status !== 'active') throw fail('catch_up_needs_reactivation');
    const cur = await this.get(tenantId, id);
    if (cur.status !== 'paused') throw fail('endpoint_not_paused', { status: cur.status });
    const patch = this.#patch(cur, input);
    const now = p.clock.now();
    const quota = dailyReplayQuota(p.settings, now);
    const replay: ReplayRow = {
      id: newId('rpl', now),
      tenantId,
      endpointId: id,
      kind: 'window',
      sinceMs: null,
      untilMs: now,
      includeSkipped: true,
      selected: 0,
      attempted: 0,
      succeeded: 0,
      failed: 0,
      createdAt: now,
    };
    const what = {
      action: 'endpoint.reactivate',
      target: { type: 'endpoint' as const, id, tenantId },
      details: { catch_up_replay_id: replay.id },
    };
    const result = await audited(
      p,
      actor,
      what,
      'reactivateWithCatchUp',
      tenantId,
      id,
      patch,
      replay,
      p.settings.replayMaxDeliveries ?? DEFAULTS.replay.maxDeliveries,
      now,
      quota,
    );
    if (result.kind === 'not_found') throw fail('endpoint_not_found');
    if (result.kind === 'not_paused') throw fail('endpoint_not_paused', { status: result.status });
    if (result.kind === 'quota_exceeded') throw replayQuotaExceeded(quota, now);
    // Egress edits ride along after the reactivation (a refused one answers 400 with the endpoint already active).
    result.endpoint.egress = hasEgressInput(input) ? await this.#egress.apply(id, input) : cur.egress;
    p.ingest.invalidate(tenantId);
    p.dispatcher.wake();
    return { endpoint: result.endpoint, replay: result.replay };
  }

  #patch(cur: StoredEndpoint, input: EndpointEdit): EndpointPatch {
    const checks = { url: (url: string) => this.checkUrl(url), policyName: (n?: string) => this.#policyName(n) };
    return endpointPatch(cur, input, { ...checks, policies: this.#p.policies });
  }

  /**
   * Deletes an endpoint with its deliveries, mid-flight or not: this process's dispatcher drops its queued work at
   * once (another process's within about a second), sends already on the wire finish and record nothing, and no
   * other endpoint's records are touched.
   */
  async delete(tenantId: string, id: string, actor?: Actor): Promise<void> {
    const p = this.#p;
    const what = { action: 'endpoint.delete', target: { type: 'endpoint' as const, id, tenantId } };
    if (!(await audited(p, actor, what, 'deleteEndpoint', tenantId, id))) throw fail('endpoint_not_found');
    p.dispatcher.forgetEndpoint(id);
    p.ingest.invalidate(tenantId);
    p.secrets.forget(id);
    p.egress.forget(id);
    // Its HTTP pool goes too (a send still in flight finishes on it).
    p.sender.closeEndpoint?.(id);
  }

  /**
   * One test delivery now (event type `hookline.test`); returns its attempt. Success clears degradation.
   * The delivery is inserted leased by this process for the send's timeout and a margin, so it always ends: by its
   * recorded attempt here, or, when this process dies or the record fails, by the dispatcher once the lease lapses.
   */
  async test(tenantId: string, id: string, actor?: Actor): Promise<Attempt> {
    return sendTestDelivery(this.#p, await this.get(tenantId, id), actor);
  }
}
