-- lock-tenant-endpoints: params :tenant_id — nothing to do on SQLite: the transaction's BEGIN IMMEDIATE already holds the one write lock
SELECT :tenant_id AS tenant_id
