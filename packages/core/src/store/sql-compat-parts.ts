// The compat part of SqlStore (the Svix-compatible API's uids, labels, messages and idempotency keys): its delegations
// to sql-parts/compat.ts, a base class of SqlStore so that the store's one class stays within its size.
import type { SqlDriver } from './sql-driver.ts';
import * as compat from './sql-parts/compat.ts';
import * as reads from './sql-parts/message-reads.ts';
import type { DeliveryWindow, EndpointLabels, MessageFilter, MessageLabels, ReplayRow, TenantLabels } from './store.ts';

export abstract class SqlCompatParts {
  abstract readonly driver: SqlDriver;

  findTenantByUid(uid: string) {
    return compat.findTenantByUid(this.driver, uid);
  }
  setTenantLabels(id: string, labels: TenantLabels, now: number) {
    return compat.setTenantLabels(this.driver, id, labels, now);
  }
  findEndpointByUid(tenantId: string, uid: string) {
    return compat.findEndpointByUid(this.driver, tenantId, uid);
  }
  setEndpointLabels(tenantId: string, id: string, labels: EndpointLabels, now: number) {
    return compat.setEndpointLabels(this.driver, tenantId, id, labels, now);
  }
  getEventByPk(tenantId: string, pk: string) {
    return compat.getEventByPk(this.driver, tenantId, pk);
  }
  putMessageLabels(eventPk: string, tenantId: string, labels: MessageLabels) {
    return compat.putMessageLabels(this.driver, eventPk, tenantId, labels);
  }
  getMessageLabels(eventPk: string) {
    return compat.getMessageLabels(this.driver, eventPk);
  }
  listMessages(tenantId: string, filter: MessageFilter, cursor: string | null, limit: number) {
    return compat.listMessages(this.driver, tenantId, filter, cursor, limit);
  }
  messageDestinations(tenantId: string, eventPk: string) {
    return reads.messageDestinations(this.driver, tenantId, eventPk);
  }
  messageAttempts(tenantId: string, eventPk: string, endpointId: string | null) {
    return reads.messageAttempts(this.driver, tenantId, eventPk, endpointId);
  }
  endpointAttempts(tenantId: string, endpointId: string, w: DeliveryWindow, cursor: string | null, limit: number) {
    return reads.endpointAttempts(this.driver, tenantId, endpointId, w, cursor, limit);
  }
  endpointMessages(tenantId: string, endpointId: string, w: DeliveryWindow, cursor: string | null, limit: number) {
    return reads.endpointMessages(this.driver, tenantId, endpointId, w, cursor, limit);
  }
  addDelivery(replay: ReplayRow, eventPk: string, id: string, now: number) {
    return compat.addDelivery(this.driver, replay, eventPk, id, now);
  }
  claimIdempotencyKey(scope: string, key: string, requestHash: string, now: number, ttlMs: number, pendingMs: number) {
    return compat.claimIdempotencyKey(this.driver, scope, key, requestHash, now, ttlMs, pendingMs);
  }
  getIdempotencyKey(scope: string, key: string) {
    return compat.getIdempotencyKey(this.driver, scope, key);
  }
  finishIdempotencyKey(scope: string, key: string, status: number, body: string) {
    return compat.finishIdempotencyKey(this.driver, scope, key, status, body);
  }
  dropIdempotencyKey(scope: string, key: string) {
    return compat.dropIdempotencyKey(this.driver, scope, key);
  }
}
