-- name: GetSpamKeywords :one
SELECT value FROM app_setting WHERE key = 'spam_keywords';

-- name: PutSpamKeywords :exec
INSERT INTO app_setting (key, value, updated_at) VALUES ('spam_keywords', @value, now())
ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now();
