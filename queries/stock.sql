-- name: ListStocks :many
SELECT * FROM stock WHERE member_id = @member_id ORDER BY id;

-- name: GetStock :one
SELECT * FROM stock WHERE member_id = @member_id AND id = @id;

-- name: LockStocks :many
-- Serialises the trade replays of these stocks (ascending ids, so two
-- requests locking the same pair cannot deadlock).
SELECT id FROM stock WHERE member_id = @member_id AND id = ANY(@ids::bigint[]) ORDER BY id FOR UPDATE;

-- name: CreateStock :one
INSERT INTO stock (member_id, code, name, market, currency, wallet_id)
VALUES (@member_id, @code, @name, @market, @currency, @wallet_id)
RETURNING *;

-- name: UpdateStock :one
UPDATE stock SET code = @code, name = @name, market = @market, currency = @currency, wallet_id = @wallet_id
WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]))
RETURNING *;

-- name: DeleteStock :execrows
DELETE FROM stock WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]));

-- name: DeleteMemberStocks :exec
DELETE FROM stock WHERE member_id = @member_id;

-- name: ListStockCodes :many
SELECT DISTINCT code FROM stock WHERE member_id = @member_id ORDER BY code;
