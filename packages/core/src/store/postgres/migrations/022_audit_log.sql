-- 022_audit_log: the audit log (docs/audit.md). Entries are appended, never updated; each holds the hash of the one
-- before it. No foreign keys: an entry outlives the tenant, endpoint or key it names (a deletion is itself audited).
-- audit_chain is one row: the head (the last entry appended; every append locks it FOR UPDATE, so writers in several
-- processes queue there and never fork the chain) and the checkpoint (the last entry retention deleted).
CREATE TABLE audit_log (
  seq BIGINT PRIMARY KEY,                          -- 1, 2, 3, … without gaps (a gap is a deleted entry)
  at BIGINT NOT NULL,
  tenant_id TEXT,                                -- NULL for installation-wide changes (event types, admin sign-in)
  actor_kind TEXT NOT NULL,                      -- admin | api_key | console_session | portal_link | system
  actor_id TEXT,
  ip TEXT,
  user_agent TEXT,
  request_id TEXT,
  action TEXT NOT NULL,                          -- endpoint.update, api_key.revoke, console.sign_in, …
  target_type TEXT NOT NULL,
  target_id TEXT,
  changes TEXT NOT NULL,                         -- JSON: column → {before, after}, secrets redacted
  details TEXT NOT NULL,                         -- JSON: what the diff cannot show, redacted alike
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE INDEX audit_log_tenant ON audit_log (tenant_id, seq);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE TABLE audit_chain (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  head_seq BIGINT NOT NULL,
  head_hash TEXT NOT NULL,
  base_seq BIGINT NOT NULL,
  base_hash TEXT NOT NULL
);
INSERT INTO audit_chain (id, head_seq, head_hash, base_seq, base_hash) VALUES (1, 0, '', 0, '');
