-- get-setting: params :key
SELECT value FROM settings WHERE key = :key
