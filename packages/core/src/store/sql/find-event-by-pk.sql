-- find-event-by-pk: an event by Hookline's own id (evt_…), the Svix-compatible API's message id. params :tenant_id, :id
SELECT * FROM events WHERE tenant_id = :tenant_id AND id = :id
