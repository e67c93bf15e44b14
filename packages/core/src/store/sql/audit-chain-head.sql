-- audit-chain-head: the chain's head and checkpoint (one row, made by migration 022); no params.
-- SQLite: the caller's BEGIN IMMEDIATE already serialises appends (PostgreSQL's copy locks the row).
SELECT head_seq, head_hash, base_seq, base_hash FROM audit_chain WHERE id = 1
