-- name: ReserveOutsideCall :one
-- Counts one call of the member's day unless the day's count has reached the
-- limit: no row comes back over the limit. One statement, so parallel
-- requests cannot outrun the limit.
INSERT INTO outside_call_count (member_id, kind, day, calls)
VALUES (@member_id, @kind, @day, 1)
ON CONFLICT (member_id, kind, day) DO UPDATE SET calls = outside_call_count.calls + 1
WHERE outside_call_count.calls < @daily_limit::integer
RETURNING calls;

-- name: DeleteOutsideCallCountsBefore :execrows
DELETE FROM outside_call_count WHERE day < @day;
