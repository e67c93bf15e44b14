// The replays part of the store: window, single and catch-up replays under the daily quota, and ordered dismissals.
import type { Endpoint, EndpointStatus } from '../../domain.ts';
import type { EndpointPatch } from '../catalog/catalog-store.ts';

/** The daily window-replay quota (docs/rules.md#replay-quota): at most `max` replays that selected something since `since`. */
export interface ReplayQuota {
  max: number;
  since: number;
}

export type WindowReplayResult = { kind: 'scheduled'; selected: number } | { kind: 'quota_exceeded'; used: number };

/** reactivateWithCatchUp's answer; only `scheduled` changed anything. */
export type CatchUpResult =
  | { kind: 'scheduled'; endpoint: Endpoint & { version: number }; replay: ReplayRow }
  | { kind: 'quota_exceeded'; used: number }
  | { kind: 'not_paused'; status: EndpointStatus }
  | { kind: 'not_found' };

export interface ReplayRow {
  id: string;
  tenantId: string;
  endpointId: string | null;
  kind: 'window' | 'single';
  sinceMs: number | null;
  untilMs: number | null;
  includeSkipped: boolean;
  selected: number;
  attempted: number;
  succeeded: number;
  failed: number;
  createdAt: number;
}

export interface ReplayStore {
  createReplay(replay: ReplayRow): Promise<void>;
  getReplay(tenantId: string, id: string): Promise<ReplayRow | null>;
  /**
   * Marks up to `limit` of the endpoint's failed (and optionally skipped) deliveries, oldest first, whose
   * last attempt (or creation, when never attempted) lies in [since, until], for one replay attempt now.
   * With a quota, atomically (two concurrent requests at max − 1 never both pass): a replay that selects
   * something is refused, and nothing is written, when the tenant already has `quota.max` window replays that
   * selected something since `quota.since`; a replay that selects nothing is recorded and never uses the quota.
   */
  scheduleWindowReplay(replay: ReplayRow, limit: number, now: number, quota?: ReplayQuota): Promise<WindowReplayResult>;
  scheduleSingleReplay(replay: ReplayRow, deliveryId: string, now: number): Promise<boolean>;
  /**
   * Reactivates a paused endpoint (`patch`) and, in the same transaction, schedules a window replay (`replay`, kind
   * window, under the quota) of its deliveries that failed or were skipped since the pause began, by when they last
   * changed: the deliveries failed as endpoint_paused at their next claim are among them (docs/rules.md#catch-up).
   * Over the quota nothing changes: the endpoint stays paused.
   */
  reactivateWithCatchUp(
    tenantId: string,
    id: string,
    patch: EndpointPatch,
    replay: ReplayRow,
    limit: number,
    now: number,
    quota?: ReplayQuota,
  ): Promise<CatchUpResult>;
  /**
   * Marks a failed delivery of an ordering key dismissed, so it no longer holds its key (docs/rules.md#ordered-dismiss);
   * it stays failed. False when it is not failed, has no key, or is dismissed already.
   */
  dismissDelivery(tenantId: string, id: string, now: number): Promise<boolean>;
}
