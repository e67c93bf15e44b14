-- insert-audit: one chained entry; params :seq, :at, :tenant_id, :actor_kind, :actor_id, :ip, :user_agent,
-- :request_id, :action, :target_type, :target_id, :changes (JSON text), :details (JSON text), :prev_hash, :hash
INSERT INTO audit_log (seq, at, tenant_id, actor_kind, actor_id, ip, user_agent, request_id, action, target_type,
  target_id, changes, details, prev_hash, hash)
VALUES (:seq, :at, :tenant_id, :actor_kind, :actor_id, :ip, :user_agent, :request_id, :action, :target_type,
  :target_id, :changes, :details, :prev_hash, :hash)
