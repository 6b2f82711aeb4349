-- name: LockMemberNotifications :exec
-- Serialises a member's notification intake: the duplicate check, the
-- cancellation match and the insert see each other's results.
SELECT pg_advisory_xact_lock(hashtextextended('notify:' || @member_id::bigint, 0));

-- name: ClaimNotificationKey :execrows
-- Records a cancellation's key; no row when it was claimed before.
INSERT INTO notification_key (member_id, notif_key) VALUES (@member_id, @notif_key)
ON CONFLICT DO NOTHING;

-- name: DeleteNotificationKeysBefore :execrows
-- Cancellation keys past the window in which a notification is redelivered
-- (a push retried, the same alert again by SMS).
DELETE FROM notification_key WHERE created_at < @before::timestamptz;
