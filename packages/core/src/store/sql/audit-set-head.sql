-- audit-set-head: moves the chain's head onto the entry just appended; params :seq, :hash
UPDATE audit_chain SET head_seq = :seq, head_hash = :hash WHERE id = 1
