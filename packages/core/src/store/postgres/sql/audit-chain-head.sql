-- audit-chain-head: the chain's head and checkpoint, locked until commit: appends from every process queue here, so
-- two writers never take the same seq or fork the chain (docs/audit.md#chain); no params.
SELECT head_seq, head_hash, base_seq, base_hash FROM audit_chain WHERE id = 1 FOR UPDATE
