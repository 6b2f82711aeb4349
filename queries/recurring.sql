-- name: ListRecurrings :many
SELECT * FROM recurring WHERE member_id = @member_id ORDER BY day, id;

-- name: CountRecurrings :one
SELECT count(*) FROM recurring WHERE member_id = @member_id;

-- name: CreateRecurring :one
-- next_month is the month of the first occurrence on or after the day of
-- creation (recurrings.go, firstMonth).
INSERT INTO recurring (member_id, name, type, amount, wallet_id, category_id, day, memo, auto_post, next_month)
VALUES (@member_id, @name, @type, @amount, sqlc.narg(wallet_id), sqlc.narg(category_id), @day, @memo, @auto_post, @next_month)
RETURNING *;

-- name: UpdateRecurring :one
UPDATE recurring SET name = @name, type = @type, amount = @amount, wallet_id = sqlc.narg(wallet_id),
    category_id = sqlc.narg(category_id), day = @day, memo = @memo,
    -- NULL keeps auto_post as it is.
    auto_post = COALESCE(sqlc.narg(auto_post)::boolean, auto_post),
    -- Turning auto_post on passes over the months it was off: posting
    -- resumes with @resume_month (the month of the next occurrence on or
    -- after today). next_month never moves back.
    next_month = CASE WHEN sqlc.narg(auto_post)::boolean AND NOT auto_post
        THEN GREATEST(next_month, @resume_month::date) ELSE next_month END
WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]))
RETURNING *;

-- name: DeleteRecurring :execrows
DELETE FROM recurring WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]));

-- name: DeleteMemberRecurrings :exec
DELETE FROM recurring WHERE member_id = @member_id;

-- name: ListDueRecurrings :many
-- The recurring entries, after id @after, with a month to settle by @today:
-- a month before this one, or this one once its day (a shorter month's last
-- day) has come.
SELECT id FROM recurring
WHERE auto_post AND id > @after AND next_month <= @this_month::date
  AND (next_month < @this_month::date OR LEAST(day, @month_days::int) <= @today_day::int)
ORDER BY id
LIMIT @lim;

-- name: GetRecurringForPost :one
SELECT * FROM recurring WHERE id = @id;

-- name: ClaimRecurringPost :execrows
-- Claims a recurring entry's month: 0 rows when it was posted already.
INSERT INTO recurring_post (recurring_id, month, occurs_on) VALUES (@recurring_id, @month, @occurs_on)
ON CONFLICT DO NOTHING;

-- name: AdvanceRecurring :exec
-- Records what the job settled; neither date moves back.
UPDATE recurring SET next_month = GREATEST(next_month, @next_month::date),
    last_posted_on = GREATEST(last_posted_on, sqlc.narg(posted_on)::date)
WHERE id = @id;

-- name: RecurringVersion :one
-- The version a 412 names as current (a write whose If-Match missed).
SELECT version FROM recurring WHERE member_id = @member_id AND id = @id;
