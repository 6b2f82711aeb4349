-- name: GetAppSetting :one
SELECT value FROM app_setting WHERE key = @key;

-- name: PutAppSetting :exec
INSERT INTO app_setting (key, value, updated_at)
VALUES (@key, @value, now())
ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now();
