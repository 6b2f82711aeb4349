-- name: LockMemberNotifications :exec
-- Serialises a member's notification intake: the duplicate check, the
-- cancellation match and the insert see each other's results.
SELECT pg_advisory_xact_lock(hashtextextended('notify:' || @member_id::bigint, 0));

-- name: GetEntryByNotifKey :one
SELECT * FROM account_entry WHERE member_id = @member_id AND notif_key = @notif_key;

-- name: ClaimNotificationKey :execrows
-- Records a cancellation's key; no row when it was claimed before.
INSERT INTO notification_key (member_id, notif_key) VALUES (@member_id, @notif_key)
ON CONFLICT DO NOTHING;

-- name: ListNotifyWallets :many
-- The member's wallets a notification can be matched to, in their order.
SELECT id, name, type FROM wallet WHERE member_id = @member_id ORDER BY sort_order, id;

-- name: MostUsedCategoryForMemo :one
-- The category most used by the member's confirmed entries of a type whose
-- memo contains the pattern; the latest use breaks a tie.
SELECT category_id::bigint FROM account_entry
WHERE member_id = @member_id AND type = @type AND NOT pending AND category_id IS NOT NULL
  AND memo ILIKE @memo_pattern
GROUP BY category_id
ORDER BY count(*) DESC, max(entry_date) DESC, category_id DESC
LIMIT 1;

-- name: FindCancelledEntry :one
-- The latest expense a cancellation undoes: the same won amount (or the same
-- currency and original amount), the same merchant when it has one, the same
-- wallet when one matched, on or before the cancellation's day.
SELECT * FROM account_entry
WHERE member_id = @member_id AND type = 'expense' AND transfer_id IS NULL
  AND entry_date <= @entry_date
  AND ((sqlc.narg(currency)::text IS NULL AND currency IS NULL AND amount = @amount)
       OR (currency = sqlc.narg(currency)::text AND original_amount = sqlc.narg(original_amount)::numeric))
  AND (@merchant::text = '' OR lower(memo) = lower(@merchant::text))
  AND (sqlc.narg(wallet_id)::bigint IS NULL OR wallet_id = sqlc.narg(wallet_id)::bigint)
ORDER BY entry_date DESC, id DESC
LIMIT 1
FOR UPDATE;

-- name: DeleteNotificationKeysBefore :execrows
-- Cancellation keys past the window in which a notification is redelivered
-- (a push retried, the same alert again by SMS).
DELETE FROM notification_key WHERE created_at < @before::timestamptz;
