// Public surface of @hookline/receiver: verify, store in a durable inbox (or deduplicate), validate, order, and adapt webhooks.
export { createVerifier, verifyWebhook, DEFAULT_TOLERANCE_SECONDS, type Verifier, type VerifierOptions, type SignatureScheme } from './verify.ts';
export { signWebhook, type SignOptions } from './sign.ts';
export type { SecretInput } from './secret-key.ts';
export type { SignedRequest } from './signed-request.ts';
export type { HeaderSource } from './headers.ts';
export { hooklineHeaderNames } from './signature-hookline.ts';
export { standardHeaderNames } from './signature-standard.ts';
export { receiverErrors, ReceiverError, StorageUnavailable, type ReceiverErrorCode, type VerificationErrorCode } from './errors.ts';
export {
  createWebhookHandler,
  answerFor,
  type WebhookHandler,
  type HandlerOptions,
  type EventContract,
  type WebhookEvent,
  type WebhookRequest,
  type WebhookResponse,
  type LogLine,
} from './handler.ts';
export { validateContract, type JsonSchema, type ContractViolation } from './contract.ts';
export { isReclaimable, type DedupStore, type DedupRecord, type DedupState, type ClaimResult, type StoredAnswer } from './dedup-store.ts';
export { memoryStore, type MemoryStore } from './stores/memory-store.ts';
export { sqliteStore, type SqliteDatabase } from './stores/sqlite-store.ts';
export { postgresStore, type PostgresQueryable } from './stores/postgres-store.ts';
export { redisStore, type RedisClient, type RedisStoreOptions } from './stores/redis-store.ts';
export { applyIfNewer, checkArrival, mergeComponents, componentValues, type Arrival, type Ordered, type OccurredAt, type ComponentState, type ComponentUpdate, type StampedValue } from './ordering.ts';
export { nodeHttpWebhook } from './adapters/node-http.ts';
export { expressWebhook } from './adapters/express.ts';
export { fastifyWebhook, type FastifyWebhookOptions } from './adapters/fastify.ts';
export { honoWebhook } from './adapters/hono.ts';
export type { BodyLimits } from './adapters/read-body.ts';
export { createInbox, type Inbox, type InboxOptions } from './inbox/inbox.ts';
export type { InboxStore, InboxEvent, InboxEntry, InboxState, AcceptResult } from './inbox/inbox-store.ts';
export { defaultRetryPolicy, nextRetryStep, type RetryPolicy, type RetryStep } from './inbox/retry-policy.ts';
export { memoryInbox, type MemoryInbox } from './inbox/memory-inbox.ts';
export { sqliteInbox, type SqliteInboxDatabase } from './inbox/sqlite-inbox.ts';
export { postgresInbox } from './inbox/postgres-inbox.ts';
export { redisInbox, type RedisInboxOptions } from './inbox/redis-inbox.ts';
