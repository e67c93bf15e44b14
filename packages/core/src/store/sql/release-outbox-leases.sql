-- release-outbox-leases: for a store with one worker process (SQLite): every outbox lease is a dead predecessor's.
-- params: none
UPDATE outbox SET lease_until = NULL WHERE status = 'pending' AND lease_until IS NOT NULL
