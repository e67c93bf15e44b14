-- purge-outbox: sent and abandoned notifications past their retention (pending ones are never purged); params :before
DELETE FROM outbox WHERE status <> 'pending' AND updated_at < :before
