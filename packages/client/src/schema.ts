// Generated from packages/server/openapi.json by `npm run generate -w @hookline/client` (openapi-typescript); do not edit.
// Every component schema also has a top-level alias (`Tenant`, `Endpoint`, …) so callers can name it.
export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers and its store has not failed for good (a failed fsync, a dead store thread: 503 storage_unavailable, and the process exits) */
        get: operations["healthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics: hookline_attempts_total, hookline_attempt_duration_seconds, hookline_delivery_latency_seconds (accept → successful attempt), hookline_queue_depth, hookline_breaker_open */
        get: operations["metrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This API's OpenAPI 3.1 document */
        get: operations["openapi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the store answers and can take writes (503 storage_unavailable while the disk is full, writes or checkpoints fail, or after a fatal store failure); settings_mismatch lists settings another live process has different */
        get: operations["readyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every change made through the API, CLI or console, newest first (admin; all tenants or one) */
        get: operations["listAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit-log/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Walk the audit chain from its checkpoint: the first edited, inserted or deleted entry, or ok (admin) */
        get: operations["verifyAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List event types */
        get: operations["listEventTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/event-types/{type}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an event type */
        get: operations["getEventType"];
        /** Define or replace an event type */
        put: operations["putEventType"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The retry policies an endpoint can name: the presets, then those defined in config */
        get: operations["listPolicies"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/simulate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview a policy: the attempt timeline against scripted receiver answers, on a virtual clock
         * @description The real engine (dispatcher, policy, breaker) runs one event in a throwaway store on a virtual clock, as `hookline simulate --responses` does; nothing is sent and no tenant data is read or written. The last answer repeats. The same seed gives the same jitter.
         */
        post: operations["simulatePolicy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every tenant's queue depth by status and how long the oldest due delivery has waited (workers falling behind) */
        get: operations["getStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List tenants (oldest first) */
        get: operations["listTenants"];
        put?: never;
        /** Create a tenant */
        post: operations["createTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a tenant */
        get: operations["getTenant"];
        put?: never;
        post?: never;
        /** Delete a tenant and everything it owns */
        delete: operations["deleteTenant"];
        options?: never;
        head?: never;
        /** Edit a tenant */
        patch: operations["updateTenant"];
        trace?: never;
    };
    "/v1/tenants/{tenant}/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List API keys (never the keys themselves) */
        get: operations["listApiKeys"];
        put?: never;
        /** Create an API key (the key is shown only in this response) */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/api-keys/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's audit log, newest first */
        get: operations["listTenantAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/breaker": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant-scope breaker and every endpoint-scope breaker of the tenant */
        get: operations["getTenantBreaker"];
        put?: never;
        /** Set the tenant breaker's state; only `closed` (a manual reset) can be set — breakers open by themselves */
        post: operations["setTenantBreaker"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/breaker/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Close the tenant breaker now; every held delivery becomes due at once */
        post: operations["resetTenantBreaker"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List deliveries, newest first
         * @description since/until (ISO-8601, inclusive) bound the delivery's creation time.
         */
        get: operations["listDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/deliveries/{delivery}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a delivery with its payload and every attempt */
        get: operations["getDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/deliveries/{delivery}/dismiss": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Dismiss a failed delivery that holds its ordering key, so the key's later deliveries go on
         * @description Only for a failed delivery of an ordering key on an endpoint with on_failure block (docs/rules.md#ordered-dismiss); it stays failed and replayable. 409 delivery_not_dismissable otherwise.
         */
        post: operations["dismissDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/deliveries/{delivery}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replay one failed or skipped delivery: a single attempt now, same ids */
        post: operations["replayDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/deliveries/{delivery}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry now: a pending delivery becomes due now, as its next attempt
         * @description docs/rules.md#retry-now. The attempt counts on its retry ladder (not a replay). 409 delivery_finished (replay it instead), delivery_in_flight, delivery_not_head (a later delivery of an ordering key; names the head), breaker_open (held by a breaker that is not closed; the message carries the breaker's state), endpoint_paused.
         */
        post: operations["retryDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List endpoints */
        get: operations["listEndpoints"];
        put?: never;
        /** Create an endpoint (its first signing secret, or ed25519 public key, is returned here and by GET …/secret) */
        post: operations["createEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/endpoints/{endpoint}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an endpoint */
        get: operations["getEndpoint"];
        put?: never;
        post?: never;
        /** Delete an endpoint and its deliveries */
        delete: operations["deleteEndpoint"];
        options?: never;
        head?: never;
        /** Edit an endpoint; a URL change or status=active clears degradation; status=active with catch_up replays what the pause missed */
        patch: operations["updateEndpoint"];
        trace?: never;
    };
    "/v1/tenants/{tenant}/endpoints/{endpoint}/breaker": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The endpoint-scope breaker (policies with breaker scope "endpoint") */
        get: operations["getEndpointBreaker"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/endpoints/{endpoint}/breaker/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Close the endpoint breaker now; its held deliveries become due at once */
        post: operations["resetEndpointBreaker"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/endpoints/{endpoint}/doctor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check the receiver: signed ugly cases (duplicates, bad signatures, stale timestamps, bad JSON, …), graded
         * @description Sends at most 30 requests within 60 s to the endpoint URL only (SSRF rules apply), marked X-Webhook-Doctor: 1 with event ids prefixed doctor_. The contract is the registered event type named by `type`, else the first registered type the endpoint subscribes to; its example is the data and its schema the required fields. Nothing is recorded; health is untouched. 409 endpoint_paused for a paused endpoint.
         */
        post: operations["doctorEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/endpoints/{endpoint}/replays": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay the endpoint's failed (and optionally skipped) deliveries attempted within [since, until]
         * @description Defaults: since = 24 h ago, until = now; both inclusive, compared with the attempt time. At most the 10,000 oldest; a limited number per tenant per UTC day (429 replay_quota_exceeded, Retry-After until the next UTC midnight; a replay that selects nothing does not count); 409 endpoint_paused on a paused endpoint.
         */
        post: operations["replayWindow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/endpoints/{endpoint}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry now: every pending delivery of the endpoint becomes due now
         * @description docs/rules.md#retry-now. Sent as the endpoint's concurrency cap and rate limit allow; of an ordering key only its head moves; deliveries held by an open breaker stay held. 409 endpoint_paused on a paused endpoint.
         */
        post: operations["retryEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/endpoints/{endpoint}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current signing secret and every live one */
        get: operations["getEndpointSecret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/endpoints/{endpoint}/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate the signing secret; the old ones keep signing until the overlap ends (default from config, 24 h) */
        post: operations["rotateEndpointSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/endpoints/{endpoint}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send one test delivery now; success clears degradation */
        post: operations["testEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search events (oldest first), or export the whole selection as NDJSON
         * @description Events (not deliveries) by type, accept time (since/until, ISO-8601, inclusive: the event's created_at), event_id prefix and a payload filter (filter=, the endpoints' filter language as JSON, docs/filters.md), each with its deliveries' statuses. Order: by accept time (id); with event_id_prefix, by event_id (byte order). A page scans at most 10000 events or 250 ms: with a filter it may hold fewer than limit items (even none) and still a next_cursor; only next_cursor null ends the search. A filter without since or until over a tenant with more than 100000 events (of the type, when given) is 400 event_search_window_required. With Accept: application/x-ndjson or format=ndjson: the whole selection as NDJSON, one item per line, read and sent batch by batch as the client takes it; resume with after=<id of the last line>. A failure mid-stream ends it with a line {"error":{…}}.
         */
        get: operations["searchEvents"];
        put?: never;
        /**
         * Accept an event: answered 202 once it and its deliveries are on disk
         * @description Idempotent on event_id: the same id and body returns the existing event (duplicate: true); a different body is 409 event_conflict. Over the tenant's limits (docs/rules.md#tenant-limits): 429 tenant_rate_limited or tenant_quota_exceeded with Retry-After, 413 payload_too_large; nothing is stored. A duplicate is never counted nor refused.
         */
        post: operations["sendEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/events/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept up to 1000 events at once; each gets its own result
         * @description Valid items are committed together; an invalid or conflicting item gets an error object and does not affect the others. When storage fails and no item was stored, the answer is 503 storage_unavailable, not a 202. Every new item counts against the tenant's limits (docs/rules.md#tenant-limits), in order: the items past a limit get tenant_rate_limited, tenant_quota_exceeded or payload_too_large and are not stored; when every item was refused by the rate or daily limit, the answer is that 429 with Retry-After.
         */
        post: operations["sendEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/events/{event_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an event (by your event_id) with its deliveries */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/notices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List notices, newest first */
        get: operations["listNotices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/portal-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a single-use console sign-in link for a tenant
         * @description The URL signs its first visitor into the console restricted to this tenant (a session of at most 12 hours); it works once, within 15 minutes. Show it to your customer, e.g. in an iframe (docs/console.md#portal-links).
         */
        post: operations["createPortalLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/replays/{replay}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A replay's progress: selected, attempted, succeeded, failed */
        get: operations["getReplay"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's queue and, per endpoint, its queue, oldest due delivery and success rate over deliveries that ended since `since` (default 24 h ago) */
        get: operations["getTenantStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/stats/minutes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's deliveries per minute over the last 24 h, by the minute of their last attempt: succeeded, retrying (pending after an attempt), failed
         * @description Minutes without deliveries are left out. A delivery counts once, in the minute of its latest attempt, in its current state.
         */
        get: operations["getTenantMinuteStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's events today (UTC), recent rate and endpoints against its limits */
        get: operations["getTenantUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who the credentials are: the admin, or a tenant API key with its tenant and environment */
        get: operations["whoami"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AcceptedEvent: {
            id: string;
            event_id: string;
            type: string;
            version: string;
            occurred_at: string;
            is_money: boolean;
            ordering_key: string | null;
            /** Format: date-time */
            created_at: string;
        };
        ApiKey: {
            id: string;
            tenant_id: string;
            name: string;
            prefix: string;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description When the key last authenticated a request, to the minute; null: never used.
             */
            last_used_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
        };
        Attempt: {
            id: string;
            /**
             * @description The tenant's environment (test or live), fixed at its creation.
             * @enum {string}
             */
            environment: "test" | "live";
            delivery_id: string;
            endpoint_id: string;
            n: number;
            /** @enum {string} */
            trigger: "scheduled" | "replay" | "test" | "probe";
            /** @description The ladder that scheduled this attempt (the delivery's when it was claimed: fast for a first attempt); null for attempts recorded before Hookline kept it. */
            ladder: string | null;
            /** Format: date-time */
            started_at: string;
            duration_ms: number;
            /** @enum {string} */
            outcome: "success" | "delivery_failure" | "client_error";
            request_headers: {
                [key: string]: string;
            };
            response_status: number | null;
            response_headers: {
                [key: string]: string;
            } | null;
            /** @description The first few KB of the response body. */
            response_body_excerpt: string | null;
            /** @description timeout, connection, dns, tls, status, refused_address, body_too_large; the egress proxy: proxy_unreachable, proxy_refused, proxy_auth_failed */
            error_class: string | null;
            error_message: string | null;
            /** @description The trace this attempt's span is in (32 hex digits; docs/observability.md#traces): the producer's trace when it sent a traceparent. null when tracing was off. */
            trace_id: string | null;
            /**
             * Format: date-time
             * @description Start of the held period (breaker open) that ended with this attempt: the delivery's first hold.
             */
            held_from: string | null;
            /**
             * Format: date-time
             * @description End of that held period: the breaker closed or was reset, or this attempt was its probe.
             */
            held_until: string | null;
        };
        AuditEntry: {
            /** @description Position in the chain: 1, 2, 3, … without gaps. */
            seq: number;
            /** Format: date-time */
            at: string;
            tenant_id: string | null;
            actor: {
                /** @enum {string} */
                kind: "admin" | "api_key" | "console_session" | "portal_link" | "system";
                id: string | null;
                ip: string | null;
                user_agent: string | null;
                request_id: string | null;
            };
            /** @description `<resource>.<verb>`, e.g. endpoint.update, api_key.revoke, console.sign_in */
            action: string;
            target: {
                type: string;
                id: string | null;
            };
            /** @description The target row’s changed columns, before → after; secret values read `[redacted]`. */
            changes: {
                [key: string]: {
                    before: unknown;
                    after: unknown;
                };
            };
            details: {
                [key: string]: unknown;
            };
            prev_hash: string;
            /** @description SHA-256 (hex) over the entry’s canonical form and prev_hash (docs/audit.md#chain). */
            hash: string;
        };
        AuditEntryPage: {
            items: components["schemas"]["AuditEntry"][];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
        };
        AuditVerification: {
            ok: boolean;
            checked: number;
            /** @description Where the walk began: the last entry retention purged (seq 0 before any). */
            from: {
                seq: number;
                hash: string;
            };
            /** @description The first entry that does not hold (edited, deleted or out of chain), or null. */
            broken: {
                seq: number;
                reason: string;
            } | null;
        };
        Breaker: {
            scope_key: string;
            /** @enum {string} */
            scope: "tenant" | "endpoint";
            /** @enum {string} */
            state: "closed" | "open" | "probing";
            pause_ms: number;
            /** Format: date-time */
            opened_at: string | null;
            /** Format: date-time */
            next_probe_at: string | null;
            probe_delivery_id: string | null;
            /** Format: date-time */
            updated_at: string | null;
            /** @description Distinct deliveries attempted in the current sliding window (each counted once, by its latest attempt) and how many of them failed. */
            window: {
                deliveries: number;
                failures: number;
                /** Format: date-time */
                since: string;
            };
        };
        CreateApiKeyRequest: {
            name?: string;
        };
        CreateApiKeyResponse: {
            id: string;
            tenant_id: string;
            name: string;
            prefix: string;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description When the key last authenticated a request, to the minute; null: never used.
             */
            last_used_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
            /** @description The secret key; store it now, it is never shown again. */
            key: string;
        };
        CreateEndpointRequest: {
            /** @description Absolute https URL (http only with --allow-http), at most 2048 characters, public address. */
            url: string;
            description?: string;
            /** @description Exact names and `prefix.*` wildcards; empty means every type. */
            event_types?: string[];
            /** @description payments, standard (default), brief, strict, or a configured policy. */
            policy?: string;
            /** @enum {string} */
            scheme?: "hookline" | "standard";
            /** @description null: the policy's timeout. */
            timeout_ms?: number | null;
            /** @description null: the policy's. */
            max_concurrency?: number | null;
            /** @description At most this many sends a second across every worker, 1-10000 (rate_limit_invalid otherwise); null: no limit (default). Deliveries over it wait without spending attempts. */
            rate_limit_per_s?: number | null;
            /**
             * @description paused stops attempts; active reactivates.
             * @enum {string}
             */
            status?: "active" | "paused";
            /**
             * @description key: deliveries of one event ordering_key are attempted one at a time, in accept order (default none). Applies to events accepted after the change.
             * @enum {string}
             */
            ordering?: "none" | "key";
            /** @description docs/filters.md: a JSON filter on the envelope (equals, in, exists, gt/gte/lt/lte on dotted paths, combined with all/any); null clears it. 400 invalid_filter names the bad part. */
            payload_filter?: Record<string, unknown> | null;
            /** @description Custom headers (at most 20) sent on every attempt; an edit replaces the whole set, {} clears it. Hop-by-hop headers and those Hookline sets are refused (400 invalid_header). */
            headers?: {
                [key: string]: string;
            };
            /**
             * @description With ordering key: continue (default) lets a key go on after a failed delivery; block holds it until that delivery is replayed successfully or dismissed.
             * @enum {string}
             */
            on_failure?: "continue" | "block";
            /** @description docs/rules.md#egress-proxy: null (default) the configured egress proxy; "none" direct; or the name of a proxy under egress.proxies. */
            proxy?: string | null;
            /** @description docs/rules.md#client-certificate: presented on every attempt (mTLS); null removes it. 400 client_certificate_invalid when it does not parse, has expired or the key does not match. */
            client_certificate?: {
                /** @description PEM certificate (chain). */
                certificate: string;
                /** @description PEM private key (unencrypted); sealed at rest, never shown again. */
                key: string;
            } | null;
            /** @description docs/rules.md#oauth2: client credentials; each attempt carries Authorization: Bearer <token> from token_url; null removes it. */
            oauth2?: {
                /** @description Same rules as an endpoint URL (SSRF). */
                token_url: string;
                client_id: string;
                /** @description Sealed at rest, never shown again; omit it to keep the current one. */
                client_secret?: string;
                scope?: string | null;
                audience?: string | null;
            } | null;
            /**
             * @description hmac (default): whsec_ secrets, v1. ed25519: a key pair Hookline keeps, v1a signatures in the standard scheme (the default scheme then); receivers hold only the whpk_ public key. Fixed at creation.
             * @enum {string}
             */
            signing?: "hmac" | "ed25519";
        };
        CreateEndpointResponse: {
            id: string;
            tenant_id: string;
            url: string;
            description: string;
            event_types: string[];
            policy: string;
            /** @enum {string} */
            scheme: "hookline" | "standard";
            timeout_ms: number | null;
            max_concurrency: number;
            /** @description Sends a second across every worker; null: no limit. */
            rate_limit_per_s: number | null;
            /** @description The concurrency Hookline currently allows the endpoint, learned from its 429/503 answers and latency (1 … max_concurrency). */
            effective_concurrency: number;
            /** @enum {string} */
            ordering: "none" | "key";
            /** @enum {string} */
            on_failure: "continue" | "block";
            /** @description docs/filters.md: only events whose envelope passes get a delivery; null: every event. */
            payload_filter: {
                [key: string]: unknown;
            } | null;
            /** @description Custom headers sent on every attempt (values that look like credentials are redacted in attempt records). */
            headers: {
                [key: string]: string;
            };
            /**
             * Format: date-time
             * @description When the current pause began; null unless paused.
             */
            paused_at: string | null;
            /**
             * @description hmac: whsec_ secrets (v1); ed25519: key pairs (v1a, standard scheme), receivers hold only the whpk_ public key. Fixed at creation.
             * @enum {string}
             */
            signing: "hmac" | "ed25519";
            /** @description docs/rules.md#egress-proxy: null the configured egress proxy; "none" direct; else a named proxy. */
            proxy: string | null;
            /** @description The client certificate presented on every attempt (its key is never shown); null: none. */
            client_certificate: {
                has_certificate: boolean;
                subject: string;
                /** Format: date-time */
                expires_at: string;
            } | null;
            /** @description OAuth2 client credentials (the secret is never shown); null: none. */
            oauth2: {
                token_url: string;
                client_id: string;
                scope: string | null;
                audience: string | null;
                has_secret: boolean;
            } | null;
            /** @enum {string} */
            status: "active" | "degraded" | "paused";
            pause_reason: string | null;
            /** Format: date-time */
            failing_since: string | null;
            consecutive_failed_events: number;
            /** Format: date-time */
            last_success_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description The HMAC signing secret (`whsec_…`); null with signing ed25519. */
            secret: string | null;
            /** @description With signing ed25519: the public key (`whpk_…`) receivers verify v1a with; its secret key is never shown. Null otherwise. */
            public_key: string | null;
        };
        CreatePortalLinkResponse: {
            url: string;
            /** Format: date-time */
            expires_at: string;
        };
        CreateTenantRequest: {
            name: string;
            /**
             * @description test or live (default live; docs/rules.md#environments); fixed at creation. Its API keys are hk_test_… or hk_live_….
             * @enum {string}
             */
            environment?: "test" | "live";
            owner_emails?: string[];
            notify_email?: boolean;
        };
        Delivery: {
            id: string;
            /**
             * @description The tenant's environment (test or live), fixed at its creation.
             * @enum {string}
             */
            environment: "test" | "live";
            event_id: string;
            event_type: string;
            endpoint_id: string;
            /** @enum {string} */
            status: "pending" | "delivering" | "held" | "succeeded" | "failed" | "skipped";
            ladder: string;
            is_money: boolean;
            attempt_count: number;
            /** Format: date-time */
            first_attempt_at: string | null;
            /** Format: date-time */
            last_attempt_at: string | null;
            /** Format: date-time */
            next_attempt_at: string | null;
            terminal_reason: string | null;
            /** @description Set when the endpoint orders by key: the event's ordering_key. */
            ordering_key: string | null;
            /** @description The delivery's place in its key's order on the endpoint (1, 2, …). */
            ordering_seq: number | null;
            /**
             * Format: date-time
             * @description A failed delivery dismissed so it no longer holds its key.
             */
            dismissed_at: string | null;
            /**
             * Format: date-time
             * @description While held (breaker open): when its current held period began; its next attempt records it.
             */
            held_since: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        DeliveryDetail: {
            id: string;
            /**
             * @description The tenant's environment (test or live), fixed at its creation.
             * @enum {string}
             */
            environment: "test" | "live";
            event_id: string;
            event_type: string;
            endpoint_id: string;
            /** @enum {string} */
            status: "pending" | "delivering" | "held" | "succeeded" | "failed" | "skipped";
            ladder: string;
            is_money: boolean;
            attempt_count: number;
            /** Format: date-time */
            first_attempt_at: string | null;
            /** Format: date-time */
            last_attempt_at: string | null;
            /** Format: date-time */
            next_attempt_at: string | null;
            terminal_reason: string | null;
            /** @description Set when the endpoint orders by key: the event's ordering_key. */
            ordering_key: string | null;
            /** @description The delivery's place in its key's order on the endpoint (1, 2, …). */
            ordering_seq: number | null;
            /**
             * Format: date-time
             * @description A failed delivery dismissed so it no longer holds its key.
             */
            dismissed_at: string | null;
            /**
             * Format: date-time
             * @description While held (breaker open): when its current held period began; its next attempt records it.
             */
            held_since: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description The exact envelope every attempt sends, as JSON. */
            payload: unknown;
            attempts: components["schemas"]["Attempt"][];
        };
        DeliveryListItem: components["schemas"]["Delivery"] & {
            /** @description The latest attempt's answer (docs/rules.md#dead-letter): HTTP status, the first bytes of the body, or the error when there was no answer; null before any attempt. */
            last_response: null | components["schemas"]["LastResponse"];
        };
        DeliveryListItemPage: {
            items: components["schemas"]["DeliveryListItem"][];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
        };
        DoctorEndpointRequest: {
            /** @description a registered event type (default: the first one the endpoint subscribes to) */
            type?: string;
            /** @description the type's version (default: its latest) */
            version?: string;
        } | null;
        DoctorEndpointResponse: {
            url: string;
            /** @enum {string} */
            scheme: "hookline" | "standard";
            event_type: string;
            /** Format: date-time */
            started_at: string;
            duration_ms: number;
            requests_sent: number;
            limits: {
                max_requests: number;
                max_duration_ms: number;
                timeout_ms: number;
            };
            /**
             * @description why the run ended before every case ran
             * @enum {string|null}
             */
            stopped_by: "max_requests" | "max_duration" | "refused_address" | null;
            /** @description passed of applicable cases (cases 6 and 9 are not applicable without a schema or a previous secret) */
            score: {
                passed: number;
                applicable: number;
                warned: number;
                failed: number;
                skipped: number;
            };
            cases: {
                id: string;
                number: string;
                title: string;
                /** @enum {string} */
                grade: "pass" | "warn" | "fail" | "skip";
                explanation: string;
                applicable: boolean;
                advice: string | null;
                requests: {
                    event_id: string;
                    status: number | null;
                    duration_ms: number;
                    error: string | null;
                }[];
            }[];
            fixes: {
                number: string;
                title: string;
                /** @enum {string} */
                grade: "fail" | "warn";
                advice: string;
            }[];
        };
        Endpoint: {
            id: string;
            tenant_id: string;
            url: string;
            description: string;
            event_types: string[];
            policy: string;
            /** @enum {string} */
            scheme: "hookline" | "standard";
            timeout_ms: number | null;
            max_concurrency: number;
            /** @description Sends a second across every worker; null: no limit. */
            rate_limit_per_s: number | null;
            /** @description The concurrency Hookline currently allows the endpoint, learned from its 429/503 answers and latency (1 … max_concurrency). */
            effective_concurrency: number;
            /** @enum {string} */
            ordering: "none" | "key";
            /** @enum {string} */
            on_failure: "continue" | "block";
            /** @description docs/filters.md: only events whose envelope passes get a delivery; null: every event. */
            payload_filter: {
                [key: string]: unknown;
            } | null;
            /** @description Custom headers sent on every attempt (values that look like credentials are redacted in attempt records). */
            headers: {
                [key: string]: string;
            };
            /**
             * Format: date-time
             * @description When the current pause began; null unless paused.
             */
            paused_at: string | null;
            /**
             * @description hmac: whsec_ secrets (v1); ed25519: key pairs (v1a, standard scheme), receivers hold only the whpk_ public key. Fixed at creation.
             * @enum {string}
             */
            signing: "hmac" | "ed25519";
            /** @description docs/rules.md#egress-proxy: null the configured egress proxy; "none" direct; else a named proxy. */
            proxy: string | null;
            /** @description The client certificate presented on every attempt (its key is never shown); null: none. */
            client_certificate: {
                has_certificate: boolean;
                subject: string;
                /** Format: date-time */
                expires_at: string;
            } | null;
            /** @description OAuth2 client credentials (the secret is never shown); null: none. */
            oauth2: {
                token_url: string;
                client_id: string;
                scope: string | null;
                audience: string | null;
                has_secret: boolean;
            } | null;
            /** @enum {string} */
            status: "active" | "degraded" | "paused";
            pause_reason: string | null;
            /** Format: date-time */
            failing_since: string | null;
            consecutive_failed_events: number;
            /** Format: date-time */
            last_success_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        EndpointPage: {
            items: components["schemas"]["Endpoint"][];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
        };
        EndpointSecrets: {
            /** @description The current secret's key id. */
            kid: string;
            /** @enum {string} */
            signing: "hmac" | "ed25519";
            /** @description The current HMAC signing secret (`whsec_…`); null on an ed25519 endpoint. */
            secret: string | null;
            /** @description The current ed25519 public key (`whpk_…`); null on an HMAC endpoint. */
            public_key: string | null;
            /** @description Every live secret (or key pair's public key), newest first; older ones retire at expires_at. */
            secrets: components["schemas"]["SigningSecret"][];
        };
        EndpointStats: {
            endpoint_id: string;
            /** @enum {string} */
            endpoint_status: "active" | "degraded" | "paused";
            queue: components["schemas"]["QueueDepth"];
            /** @description Milliseconds the oldest due pending delivery has waited past its next_attempt_at; null when nothing due waits. */
            oldest_due_age_ms: number | null;
            /** @description Deliveries that ended succeeded by an attempt in the window (per-minute counters, docs/rules.md#stats-counters). */
            succeeded: number;
            /** @description Deliveries that ended failed (dead letter) by an attempt in the window. */
            failed: number;
            /** @description succeeded / (succeeded + failed); null when none ended in the window. */
            success_rate: number | null;
            /** @description Attempts made in the window, retries included. */
            attempts: number;
            /** @description The attempts' mean duration in the window (ms, one decimal); null when none was made. */
            avg_latency_ms: number | null;
        };
        /** @description An error from the catalog (docs/errors.md). */
        Error: {
            error: {
                code: string;
                message: string;
                request_id: string;
                /** @description Every problem found, on errors about specific fields (validation); absent otherwise. */
                details?: components["schemas"]["ErrorDetail"][];
            };
        };
        ErrorDetail: {
            /** @enum {string} */
            in: "body" | "query" | "path";
            /** @description JSON Pointer (RFC 6901) into the part, e.g. /name or /events/0/type; empty for the part itself. */
            path: string;
            message: string;
        };
        Event: {
            id: string;
            event_id: string;
            type: string;
            version: string;
            occurred_at: string;
            is_money: boolean;
            ordering_key: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description The exact envelope every attempt sends, as JSON. */
            payload: unknown;
        };
        EventAccepted: {
            event: components["schemas"]["AcceptedEvent"];
            deliveries: components["schemas"]["Delivery"][];
            /** @description true: this event_id was already accepted with the same body; nothing new was created. */
            duplicate: boolean;
        };
        EventBatchItem: {
            index: number;
            ok: boolean;
            event?: components["schemas"]["AcceptedEvent"];
            deliveries?: components["schemas"]["Delivery"][];
            duplicate?: boolean;
            error?: {
                code: string;
                message: string;
                /** @description Every problem found, on errors about specific fields (validation); absent otherwise. */
                details?: components["schemas"]["ErrorDetail"][];
            };
        };
        EventDeliveryStatus: {
            id: string;
            endpoint_id: string;
            /** @enum {string} */
            status: "pending" | "delivering" | "held" | "succeeded" | "failed" | "skipped";
            attempts: number;
        };
        EventInput: {
            /** @description Your id; the same id with the same body is accepted once. Default: a generated evt_ id. */
            event_id?: string;
            type: string;
            /** @description Default "1". */
            version?: string;
            /** @description ISO-8601; default: the time of acceptance. */
            occurred_at?: string;
            /** @description Any JSON value; validated against the event type's schema when the type is registered. */
            data: unknown;
            /** @description The producer's W3C traceparent, for an event whose trace differs from the request's `traceparent` header (a batch item); stored with the event, continued by its attempts (docs/observability.md#traces). Not part of the envelope; an invalid value is ignored. */
            traceparent?: string;
            /** @description The W3C tracestate beside `traceparent`. */
            tracestate?: string;
            /** @description At most 256 bytes of UTF-8, no control characters (e.g. a payment id). On endpoints with ordering key, deliveries of one key are attempted one at a time in accept order; not part of the envelope. 400 ordering_key_too_long above 256 bytes. */
            ordering_key?: string;
        };
        EventSearchItem: {
            id: string;
            event_id: string;
            type: string;
            version: string;
            occurred_at: string;
            is_money: boolean;
            ordering_key: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description The exact envelope every attempt sends, as JSON. */
            payload: unknown;
            /** @description Each delivery's endpoint and status. */
            deliveries: components["schemas"]["EventDeliveryStatus"][];
        };
        EventSearchItemPage: {
            items: components["schemas"]["EventSearchItem"][];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
        };
        EventType: {
            name: string;
            description: string;
            versions: {
                [key: string]: unknown;
            };
            money: unknown;
            /** Format: date-time */
            updated_at: string;
        };
        GetEventResponse: {
            event: components["schemas"]["Event"];
            deliveries: components["schemas"]["Delivery"][];
        };
        GetTenantBreakerResponse: {
            breaker: components["schemas"]["Breaker"];
            endpoints: components["schemas"]["Breaker"][];
        };
        GetTenantMinuteStatsResponse: {
            /** Format: date-time */
            since: string;
            /** Format: date-time */
            until: string;
            minutes: {
                /** Format: date-time */
                at: string;
                succeeded: number;
                retrying: number;
                failed: number;
            }[];
        };
        GetTenantStatsResponse: {
            /** Format: date-time */
            at: string;
            queue: components["schemas"]["QueueDepth"];
            /** @description Milliseconds the oldest due pending delivery has waited past its next_attempt_at; null when nothing due waits. */
            oldest_due_age_ms: number | null;
            /** Format: date-time */
            since: string;
            endpoints: components["schemas"]["EndpointStats"][];
        };
        LastResponse: {
            status: number | null;
            excerpt: string | null;
            error: string | null;
        };
        ListApiKeysResponse: {
            items: components["schemas"]["ApiKey"][];
        };
        ListEventTypesResponse: {
            items: components["schemas"]["EventType"][];
        };
        ListPoliciesResponse: {
            items: components["schemas"]["Policy"][];
        };
        Notice: {
            id: string;
            /**
             * @description The tenant's environment (test or live), fixed at its creation.
             * @enum {string}
             */
            environment: "test" | "live";
            kind: string;
            subject_id: string | null;
            message: string;
            data: {
                [key: string]: unknown;
            };
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description A degraded or paused notice: when its incident ended (a recovery that held for the reopen window, or a reactivation by hand; docs/rules.md#notifications). Null while the incident is open, and for other kinds.
             */
            resolved_at: string | null;
        };
        NoticePage: {
            items: components["schemas"]["Notice"][];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
        };
        OpenapiResponse: {
            [key: string]: unknown;
        };
        Policy: {
            name: string;
            /** @description A built-in policy (payments, standard, brief, strict); false: defined in config. */
            preset: boolean;
            timeout_ms: number;
            max_concurrency: number;
            /** @description Its ladders, client-error rule, timeout, cap, age limit and breaker in one line. */
            description: string;
        };
        PutEventTypeRequest: {
            /** @default  */
            description: string;
            /** @description By version ("1", "2", …): a JSON Schema for data and an example that must match it. */
            versions: {
                [key: string]: {
                    schema: Record<string, unknown> | boolean;
                    example?: unknown;
                };
            };
            /** @description true/false: every event of the type is (not) money; {field, in}: money when data.<field> is one of in. Overrides the configured money rules. */
            money?: boolean | {
                field?: string;
                in?: string[];
            };
        };
        /** @description Deliveries not yet terminal, by status. */
        QueueDepth: {
            pending: number;
            delivering: number;
            held: number;
        };
        QueueStats: {
            /** Format: date-time */
            at: string;
            queue: components["schemas"]["QueueDepth"];
            /** @description Milliseconds the oldest due pending delivery has waited past its next_attempt_at; null when nothing due waits. */
            oldest_due_age_ms: number | null;
        };
        Readiness: {
            status: string;
            role?: string;
            /** @description Present while another live process on this database has different settings that may differ for a while (docs/scaling.md#settings-that-must-match): warned, not refused; the process is still ready */
            settings_mismatch?: {
                setting: string;
                here: string;
                there: string;
                process_id: string;
                role: string;
            }[];
        };
        Replay: {
            id: string;
            endpoint_id: string | null;
            /** @enum {string} */
            kind: "window" | "single";
            /** Format: date-time */
            since: string | null;
            /** Format: date-time */
            until: string | null;
            include_skipped: boolean;
            selected: number;
            /** @description Selected deliveries the replay is done with: attempted, or ended unattempted because the endpoint paused (counted failed). */
            attempted: number;
            succeeded: number;
            failed: number;
            /** @description Every selected delivery has had its attempt. */
            done: boolean;
            /** Format: date-time */
            created_at: string;
        };
        ReplayAccepted: {
            replay_id: string;
            replay: components["schemas"]["Replay"];
        };
        ReplayWindowRequest: {
            /** @description ISO-8601 */
            since?: string;
            /** @description ISO-8601 */
            until?: string;
            include_skipped?: boolean;
        } | null;
        RetryMoved: {
            /** @description Pending deliveries made due now (of an ordering key, only its head). */
            moved: number;
        };
        RotateEndpointSecretRequest: {
            overlap_seconds?: number;
        } | null;
        SendEventsRequest: {
            events: Record<string, unknown>[];
        };
        SendEventsResponse: {
            accepted: number;
            failed: number;
            results: components["schemas"]["EventBatchItem"][];
        };
        ServiceStatus: {
            status: string;
            role?: string;
        };
        SetTenantBreakerRequest: {
            /** @enum {string} */
            state: "closed";
        };
        SigningSecret: {
            kid: string;
            /** @enum {string} */
            signing: "hmac" | "ed25519";
            /** @description The HMAC signing secret (`whsec_…`); null for an ed25519 key, whose secret key is never shown. */
            secret: string | null;
            /** @description The ed25519 public key (`whpk_…`) receivers verify v1a signatures with; null for an HMAC secret. */
            public_key: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string | null;
        };
        SimulatePolicyRequest: {
            policy: string;
            /** @description Per request: an HTTP status (100-599), "timeout" or "reset"; the last one repeats, e.g. [500, 500, 200]. */
            responses: (number | string)[];
            /** @description Event type (default simulate.test); decides money events for payments. */
            type?: string;
            /** @description Event data (default {}). */
            data?: unknown;
            /** @description Jitter seed (default 1). */
            seed?: number;
        };
        Simulation: {
            policy: string;
            seed: number;
            type: string;
            is_money: boolean;
            attempts: {
                n: number;
                /** @description Start, ms after the event was accepted. */
                at_ms: number;
                duration_ms: number;
                /** @description The ladder that scheduled this attempt (fast, slow, …). */
                ladder: string;
                /** @description The scripted answer: a status, timeout or reset. */
                response: string;
                /** @enum {string} */
                outcome: "success" | "delivery_failure" | "client_error";
                next: {
                    /** @enum {string} */
                    status: "pending" | "succeeded" | "failed";
                    /** @description pending: when the next attempt is due. */
                    at_ms?: number;
                    /** @description pending: the ladder of the next attempt. */
                    ladder?: string;
                    /** @description failed: why the delivery ended. */
                    reason?: string;
                };
            }[];
            /** @description A due attempt put back because the breaker was open (no attempt spent). */
            held: {
                at_ms: number;
                until_ms: number;
            }[];
            /** @description Breaker and endpoint-health changes. */
            transitions: {
                at_ms: number;
                /** @enum {string} */
                kind: "breaker" | "health";
                scope: string;
                from: string;
                to: string;
                reason?: string;
            }[];
            final: {
                status: string;
                reason: string | null;
                at_ms: number;
            };
        };
        Tenant: {
            id: string;
            name: string;
            /**
             * @description The tenant's environment (test or live), fixed at its creation.
             * @enum {string}
             */
            environment: "test" | "live";
            owner_emails: string[];
            notify_email: boolean;
            operations_endpoint_id: string | null;
            limits: components["schemas"]["TenantLimits"];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description null: no limit of its own (on a tenant, the configured default applies; in usage, none applies). */
        TenantLimits: {
            /** @description New events accepted per second, across every API process. */
            events_per_s: number | null;
            /** @description New events accepted per UTC day. */
            events_per_day: number | null;
            max_endpoints: number | null;
            /** @description Largest event envelope accepted, in bytes. */
            max_payload_bytes: number | null;
        };
        TenantPage: {
            items: components["schemas"]["Tenant"][];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
        };
        TenantUsage: {
            /**
             * Format: date
             * @description The UTC day counted.
             */
            day: string;
            /**
             * Format: date-time
             * @description The next UTC midnight, when the daily count starts again.
             */
            resets_at: string;
            /** @description New events accepted today (an idempotent replay is not counted). */
            events_today: number;
            /** @description The daily limit that applies; null: none. */
            events_per_day: number | null;
            /** @description events_today against events_per_day; null without a daily limit. */
            percent: number | null;
            events_this_minute: number;
            /** @description New events per second, averaged over the last whole minute. */
            rate_per_s: number;
            endpoints: number;
            max_endpoints: number | null;
            limits: components["schemas"]["TenantLimits"];
            own_limits: components["schemas"]["TenantLimits"];
        };
        UpdateEndpointRequest: {
            /** @description Absolute https URL (http only with --allow-http), at most 2048 characters, public address. */
            url?: string;
            description?: string;
            /** @description Exact names and `prefix.*` wildcards; empty means every type. */
            event_types?: string[];
            /** @description payments, standard (default), brief, strict, or a configured policy. */
            policy?: string;
            /** @enum {string} */
            scheme?: "hookline" | "standard";
            /** @description null: the policy's timeout. */
            timeout_ms?: number | null;
            /** @description null: the policy's. */
            max_concurrency?: number | null;
            /** @description At most this many sends a second across every worker, 1-10000 (rate_limit_invalid otherwise); null: no limit (default). Deliveries over it wait without spending attempts. */
            rate_limit_per_s?: number | null;
            /**
             * @description paused stops attempts; active reactivates.
             * @enum {string}
             */
            status?: "active" | "paused";
            /**
             * @description key: deliveries of one event ordering_key are attempted one at a time, in accept order (default none). Applies to events accepted after the change.
             * @enum {string}
             */
            ordering?: "none" | "key";
            /** @description docs/filters.md: a JSON filter on the envelope (equals, in, exists, gt/gte/lt/lte on dotted paths, combined with all/any); null clears it. 400 invalid_filter names the bad part. */
            payload_filter?: Record<string, unknown> | null;
            /** @description Custom headers (at most 20) sent on every attempt; an edit replaces the whole set, {} clears it. Hop-by-hop headers and those Hookline sets are refused (400 invalid_header). */
            headers?: {
                [key: string]: string;
            };
            /**
             * @description With ordering key: continue (default) lets a key go on after a failed delivery; block holds it until that delivery is replayed successfully or dismissed.
             * @enum {string}
             */
            on_failure?: "continue" | "block";
            /** @description docs/rules.md#egress-proxy: null (default) the configured egress proxy; "none" direct; or the name of a proxy under egress.proxies. */
            proxy?: string | null;
            /** @description docs/rules.md#client-certificate: presented on every attempt (mTLS); null removes it. 400 client_certificate_invalid when it does not parse, has expired or the key does not match. */
            client_certificate?: {
                /** @description PEM certificate (chain). */
                certificate: string;
                /** @description PEM private key (unencrypted); sealed at rest, never shown again. */
                key: string;
            } | null;
            /** @description docs/rules.md#oauth2: client credentials; each attempt carries Authorization: Bearer <token> from token_url; null removes it. */
            oauth2?: {
                /** @description Same rules as an endpoint URL (SSRF). */
                token_url: string;
                client_id: string;
                /** @description Sealed at rest, never shown again; omit it to keep the current one. */
                client_secret?: string;
                scope?: string | null;
                audience?: string | null;
            } | null;
            /**
             * @description hmac (default): whsec_ secrets, v1. ed25519: a key pair Hookline keeps, v1a signatures in the standard scheme (the default scheme then); receivers hold only the whpk_ public key. Fixed at creation.
             * @enum {string}
             */
            signing?: "hmac" | "ed25519";
            /** @description With status active on a paused endpoint: one window replay of everything that failed or was skipped since the pause began (10,000 oldest, counts against the daily replay quota); its id is in catch_up.replay_id. */
            catch_up?: boolean;
        };
        UpdateEndpointResponse: {
            id: string;
            tenant_id: string;
            url: string;
            description: string;
            event_types: string[];
            policy: string;
            /** @enum {string} */
            scheme: "hookline" | "standard";
            timeout_ms: number | null;
            max_concurrency: number;
            /** @description Sends a second across every worker; null: no limit. */
            rate_limit_per_s: number | null;
            /** @description The concurrency Hookline currently allows the endpoint, learned from its 429/503 answers and latency (1 … max_concurrency). */
            effective_concurrency: number;
            /** @enum {string} */
            ordering: "none" | "key";
            /** @enum {string} */
            on_failure: "continue" | "block";
            /** @description docs/filters.md: only events whose envelope passes get a delivery; null: every event. */
            payload_filter: {
                [key: string]: unknown;
            } | null;
            /** @description Custom headers sent on every attempt (values that look like credentials are redacted in attempt records). */
            headers: {
                [key: string]: string;
            };
            /**
             * Format: date-time
             * @description When the current pause began; null unless paused.
             */
            paused_at: string | null;
            /**
             * @description hmac: whsec_ secrets (v1); ed25519: key pairs (v1a, standard scheme), receivers hold only the whpk_ public key. Fixed at creation.
             * @enum {string}
             */
            signing: "hmac" | "ed25519";
            /** @description docs/rules.md#egress-proxy: null the configured egress proxy; "none" direct; else a named proxy. */
            proxy: string | null;
            /** @description The client certificate presented on every attempt (its key is never shown); null: none. */
            client_certificate: {
                has_certificate: boolean;
                subject: string;
                /** Format: date-time */
                expires_at: string;
            } | null;
            /** @description OAuth2 client credentials (the secret is never shown); null: none. */
            oauth2: {
                token_url: string;
                client_id: string;
                scope: string | null;
                audience: string | null;
                has_secret: boolean;
            } | null;
            /** @enum {string} */
            status: "active" | "degraded" | "paused";
            pause_reason: string | null;
            /** Format: date-time */
            failing_since: string | null;
            consecutive_failed_events: number;
            /** Format: date-time */
            last_success_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description Only with catch_up: the replay it started. */
            catch_up?: {
                replay_id: string;
                replay: components["schemas"]["Replay"];
            };
        };
        UpdateTenantRequest: {
            name?: string;
            /**
             * @description Fixed at creation: accepted only when it is the tenant's own (409 environment_immutable otherwise).
             * @enum {string}
             */
            environment?: "test" | "live";
            owner_emails?: string[];
            notify_email?: boolean;
            /** @description An endpoint of this tenant that receives operational events (endpoint.degraded, …). */
            operations_endpoint_id?: string | null;
            /** @description Admin only (403 forbidden for a tenant key). A field left out stays; null takes the configured default (docs/rules.md#tenant-limits). */
            limits?: {
                events_per_s?: number | null;
                events_per_day?: number | null;
                max_endpoints?: number | null;
                max_payload_bytes?: number | null;
            };
        };
        Whoami: {
            /**
             * @description admin: the admin token (or an admin console session); tenant: a tenant API key or portal session.
             * @enum {string}
             */
            kind: "admin" | "tenant";
            /** @description With kind tenant: the one tenant these credentials reach. */
            tenant_id: string | null;
            /** @description With kind tenant: the API key (or session key) in use. */
            api_key_id: string | null;
            /**
             * @description With kind tenant: its tenant's environment.
             * @enum {string|null}
             */
            environment: "test" | "live" | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type AcceptedEvent = components['schemas']['AcceptedEvent'];
export type ApiKey = components['schemas']['ApiKey'];
export type Attempt = components['schemas']['Attempt'];
export type AuditEntry = components['schemas']['AuditEntry'];
export type AuditEntryPage = components['schemas']['AuditEntryPage'];
export type AuditVerification = components['schemas']['AuditVerification'];
export type Breaker = components['schemas']['Breaker'];
export type CreateApiKeyRequest = components['schemas']['CreateApiKeyRequest'];
export type CreateApiKeyResponse = components['schemas']['CreateApiKeyResponse'];
export type CreateEndpointRequest = components['schemas']['CreateEndpointRequest'];
export type CreateEndpointResponse = components['schemas']['CreateEndpointResponse'];
export type CreatePortalLinkResponse = components['schemas']['CreatePortalLinkResponse'];
export type CreateTenantRequest = components['schemas']['CreateTenantRequest'];
export type Delivery = components['schemas']['Delivery'];
export type DeliveryDetail = components['schemas']['DeliveryDetail'];
export type DeliveryListItem = components['schemas']['DeliveryListItem'];
export type DeliveryListItemPage = components['schemas']['DeliveryListItemPage'];
export type DoctorEndpointRequest = components['schemas']['DoctorEndpointRequest'];
export type DoctorEndpointResponse = components['schemas']['DoctorEndpointResponse'];
export type Endpoint = components['schemas']['Endpoint'];
export type EndpointPage = components['schemas']['EndpointPage'];
export type EndpointSecrets = components['schemas']['EndpointSecrets'];
export type EndpointStats = components['schemas']['EndpointStats'];
export type Error = components['schemas']['Error'];
export type ErrorDetail = components['schemas']['ErrorDetail'];
export type Event = components['schemas']['Event'];
export type EventAccepted = components['schemas']['EventAccepted'];
export type EventBatchItem = components['schemas']['EventBatchItem'];
export type EventDeliveryStatus = components['schemas']['EventDeliveryStatus'];
export type EventInput = components['schemas']['EventInput'];
export type EventSearchItem = components['schemas']['EventSearchItem'];
export type EventSearchItemPage = components['schemas']['EventSearchItemPage'];
export type EventType = components['schemas']['EventType'];
export type GetEventResponse = components['schemas']['GetEventResponse'];
export type GetTenantBreakerResponse = components['schemas']['GetTenantBreakerResponse'];
export type GetTenantMinuteStatsResponse = components['schemas']['GetTenantMinuteStatsResponse'];
export type GetTenantStatsResponse = components['schemas']['GetTenantStatsResponse'];
export type LastResponse = components['schemas']['LastResponse'];
export type ListApiKeysResponse = components['schemas']['ListApiKeysResponse'];
export type ListEventTypesResponse = components['schemas']['ListEventTypesResponse'];
export type ListPoliciesResponse = components['schemas']['ListPoliciesResponse'];
export type Notice = components['schemas']['Notice'];
export type NoticePage = components['schemas']['NoticePage'];
export type OpenapiResponse = components['schemas']['OpenapiResponse'];
export type Policy = components['schemas']['Policy'];
export type PutEventTypeRequest = components['schemas']['PutEventTypeRequest'];
export type QueueDepth = components['schemas']['QueueDepth'];
export type QueueStats = components['schemas']['QueueStats'];
export type Readiness = components['schemas']['Readiness'];
export type Replay = components['schemas']['Replay'];
export type ReplayAccepted = components['schemas']['ReplayAccepted'];
export type ReplayWindowRequest = components['schemas']['ReplayWindowRequest'];
export type RetryMoved = components['schemas']['RetryMoved'];
export type RotateEndpointSecretRequest = components['schemas']['RotateEndpointSecretRequest'];
export type SendEventsRequest = components['schemas']['SendEventsRequest'];
export type SendEventsResponse = components['schemas']['SendEventsResponse'];
export type ServiceStatus = components['schemas']['ServiceStatus'];
export type SetTenantBreakerRequest = components['schemas']['SetTenantBreakerRequest'];
export type SigningSecret = components['schemas']['SigningSecret'];
export type SimulatePolicyRequest = components['schemas']['SimulatePolicyRequest'];
export type Simulation = components['schemas']['Simulation'];
export type Tenant = components['schemas']['Tenant'];
export type TenantLimits = components['schemas']['TenantLimits'];
export type TenantPage = components['schemas']['TenantPage'];
export type TenantUsage = components['schemas']['TenantUsage'];
export type UpdateEndpointRequest = components['schemas']['UpdateEndpointRequest'];
export type UpdateEndpointResponse = components['schemas']['UpdateEndpointResponse'];
export type UpdateTenantRequest = components['schemas']['UpdateTenantRequest'];
export type Whoami = components['schemas']['Whoami'];
export type $defs = Record<string, never>;
export interface operations {
    healthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceStatus"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    metrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text exposition format 0.0.4 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    openapi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI 3.1 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenapiResponse"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    readyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAuditLog: {
        parameters: {
            query?: {
                limit?: number;
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description Only entries of this action, e.g. endpoint.update */
                action?: string;
                /** @description Only entries at or after this time */
                since?: string;
                /** @description Only entries before this time */
                until?: string;
                /** @description ndjson: every matching entry, one JSON object per line, streamed (also chosen by Accept: application/x-ndjson); limit and cursor are ignored. */
                format?: "json" | "ndjson";
                /** @description Only this tenant’s entries */
                tenant?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEntryPage"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    verifyAuditLog: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditVerification"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEventTypes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListEventTypesResponse"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEventType: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                type: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventType"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putEventType: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                type: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutEventTypeRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventType"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPolicies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListPoliciesResponse"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    simulatePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SimulatePolicyRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Simulation"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueStats"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTenants: {
        parameters: {
            query?: {
                /** @description Only the tenants of this environment. */
                environment?: "test" | "live";
                limit?: number;
                /** @description next_cursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantPage"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createTenant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTenantRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tenant"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tenant"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTenantRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tenant"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListApiKeysResponse"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateApiKeyResponse"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTenantAuditLog: {
        parameters: {
            query?: {
                limit?: number;
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description Only entries of this action, e.g. endpoint.update */
                action?: string;
                /** @description Only entries at or after this time */
                since?: string;
                /** @description Only entries before this time */
                until?: string;
                /** @description ndjson: every matching entry, one JSON object per line, streamed (also chosen by Accept: application/x-ndjson); limit and cursor are ignored. */
                format?: "json" | "ndjson";
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEntryPage"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTenantBreaker: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetTenantBreakerResponse"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setTenantBreaker: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetTenantBreakerRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Breaker"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resetTenantBreaker: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Breaker"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDeliveries: {
        parameters: {
            query?: {
                status?: "pending" | "delivering" | "held" | "succeeded" | "failed" | "skipped";
                endpoint_id?: string;
                event_type?: string;
                /** @description Your event_id: only that event's deliveries */
                event_id?: string;
                /** @description ISO-8601, inclusive */
                since?: string;
                /** @description ISO-8601, inclusive */
                until?: string;
                limit?: number;
                /** @description next_cursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryListItemPage"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                delivery: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryDetail"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    dismissDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                delivery: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    replayDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                delivery: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplayAccepted"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                delivery: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEndpoints: {
        parameters: {
            query?: {
                limit?: number;
                /** @description next_cursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EndpointPage"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateEndpointRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateEndpointResponse"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                endpoint: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Endpoint"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                endpoint: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                endpoint: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateEndpointRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdateEndpointResponse"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEndpointBreaker: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                endpoint: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Breaker"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resetEndpointBreaker: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                endpoint: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Breaker"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    doctorEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                endpoint: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["DoctorEndpointRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DoctorEndpointResponse"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    replayWindow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                endpoint: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ReplayWindowRequest"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplayAccepted"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                endpoint: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetryMoved"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEndpointSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                endpoint: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EndpointSecrets"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateEndpointSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                endpoint: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RotateEndpointSecretRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EndpointSecrets"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    testEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                endpoint: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Attempt"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    searchEvents: {
        parameters: {
            query?: {
                type?: string;
                /** @description ISO-8601, inclusive (accept time) */
                since?: string;
                /** @description ISO-8601, inclusive (accept time) */
                until?: string;
                /** @description Events whose event_id starts so */
                event_id_prefix?: string;
                /** @description A payload filter as JSON (docs/filters.md) */
                filter?: string;
                limit?: number;
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description NDJSON export only: the id (evt_…) of the last line received; the export resumes after it */
                after?: string;
                /** @description Overrides the Accept header */
                format?: "json" | "ndjson";
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventSearchItemPage"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventInput"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventAccepted"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SendEventsRequest"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SendEventsResponse"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                event_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetEventResponse"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listNotices: {
        parameters: {
            query?: {
                limit?: number;
                /** @description next_cursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoticePage"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPortalLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatePortalLinkResponse"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReplay: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                replay: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Replay"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTenantStats: {
        parameters: {
            query?: {
                /** @description ISO-8601; default 24 h ago */
                since?: string;
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetTenantStatsResponse"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTenantMinuteStats: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetTenantMinuteStatsResponse"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTenantUsage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantUsage"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    whoami: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Whoami"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An error from the catalog (docs/errors.md). */
            "5XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
