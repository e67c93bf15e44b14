-- find-tenant-by-uid: a tenant by its caller-chosen uid (docs/svix-compatibility.md). params :uid
SELECT * FROM tenants WHERE uid = :uid
