// Public surface of @hookline/receiver: verify, store in a durable inbox (or deduplicate), validate, order, and adapt webhooks.

export { expressWebhook } from './adapters/express.ts';
export { type FastifyWebhookOptions, fastifyWebhook } from './adapters/fastify.ts';
export { honoWebhook } from './adapters/hono.ts';
export { nodeHttpWebhook } from './adapters/node-http.ts';
export type { BodyLimits } from './adapters/read-body.ts';
export { type ContractViolation, type JsonSchema, type SchemaPayload, validateContract } from './contract.ts';
export {
  type ClaimResult,
  type DedupRecord,
  type DedupState,
  type DedupStore,
  isReclaimable,
  type StoredAnswer,
} from './dedup-store.ts';
export { DOCTOR_HEADER, DOCTOR_ID_PREFIX, isDoctorRequest } from './doctor-request.ts';
export {
  ReceiverError,
  type ReceiverErrorCode,
  receiverErrors,
  StorageUnavailable,
  type VerificationErrorCode,
} from './errors.ts';
export { createWebhookHandler, type HandlerOptions, type WebhookHandler, type WebhookRequest } from './handler.ts';
export type { HeaderSource } from './headers.ts';
export { createInbox, type Inbox, type InboxOptions } from './inbox/inbox.ts';
export type { AcceptResult, InboxEntry, InboxEvent, InboxState, InboxStore } from './inbox/inbox-store.ts';
export { type MemoryInbox, memoryInbox } from './inbox/memory-inbox.ts';
export { postgresInbox } from './inbox/postgres-inbox.ts';
export { type RedisInboxOptions, redisInbox } from './inbox/redis-inbox.ts';
export { defaultRetryPolicy, nextRetryStep, type RetryPolicy, type RetryStep } from './inbox/retry-policy.ts';
export { type SqliteInboxDatabase, sqliteInbox } from './inbox/sqlite-inbox.ts';
export type { LogLine } from './log-line.ts';
export {
  type Arrival,
  applyIfNewer,
  type ComponentState,
  type ComponentUpdate,
  checkArrival,
  componentValues,
  mergeComponents,
  type OccurredAt,
  type Ordered,
  type StampedValue,
} from './ordering.ts';
export type { SecretInput } from './secret-key.ts';
export { type SignOptions, signWebhook } from './sign.ts';
export { hooklineHeaderNames } from './signature-hookline.ts';
export { standardHeaderNames } from './signature-standard.ts';
export type { SignedRequest } from './signed-request.ts';
export { type MemoryStore, memoryStore } from './stores/memory-store.ts';
export { type PostgresQueryable, postgresStore } from './stores/postgres-store.ts';
export { type RedisClient, type RedisStoreOptions, redisStore } from './stores/redis-store.ts';
export { type SqliteDatabase, sqliteStore } from './stores/sqlite-store.ts';
export {
  createVerifier,
  DEFAULT_TOLERANCE_SECONDS,
  type SignatureScheme,
  type Verifier,
  type VerifierOptions,
  verifyWebhook,
} from './verify.ts';
export { answerFor, type WebhookResponse } from './webhook-answer.ts';
export { defineEvent, type EventContract, type WebhookEvent } from './webhook-event.ts';
