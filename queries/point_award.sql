-- name: LockMemberPoints :one
-- The member's balance, locked until the transaction ends: awards to one
-- member take turns, so daily caps and the zero floor are exact. NO KEY
-- UPDATE leaves inserts that reference the member unblocked.
SELECT points FROM member WHERE id = @id FOR NO KEY UPDATE;

-- name: LockMembers :exec
-- Locks several members' balances in id order, so transactions that award
-- two members (a voter and an author) cannot deadlock.
SELECT id FROM member WHERE id = ANY(@ids::bigint[]) ORDER BY id FOR NO KEY UPDATE;

-- name: SumPointsSince :one
-- The net points of a member under the given reasons since a moment (what a
-- daily cap has used today).
SELECT COALESCE(sum(points), 0)::int FROM point_history
WHERE member_id = @member_id AND reason = ANY(@reasons::text[]) AND created_at >= @since;

-- name: SumPointsAt :one
-- The points a member was recorded under a reason at one moment: what an
-- award made together with a row stamped with that moment gave.
SELECT COALESCE(sum(points), 0)::int FROM point_history
WHERE member_id = @member_id AND reason = @reason AND created_at = @at;

-- name: AddMemberPoints :exec
UPDATE member SET points = points + @delta WHERE id = @id;

-- name: InsertPointHistory :exec
INSERT INTO point_history (member_id, points, reason, created_at) VALUES (@member_id, @points, @reason, @now);

-- name: LockMemberIDs :many
-- LockMembers answering the ids it found (a member deleted meanwhile is
-- missing).
SELECT id FROM member WHERE id = ANY(@ids::bigint[]) ORDER BY id FOR NO KEY UPDATE;
