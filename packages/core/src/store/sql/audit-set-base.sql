-- audit-set-base: moves the checkpoint onto the last purged entry; params :seq, :hash
UPDATE audit_chain SET base_seq = :seq, base_hash = :hash WHERE id = 1
