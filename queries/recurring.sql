-- name: ListRecurrings :many
SELECT * FROM recurring WHERE member_id = @member_id ORDER BY day, id;

-- name: CountRecurrings :one
SELECT count(*) FROM recurring WHERE member_id = @member_id;

-- name: CreateRecurring :one
INSERT INTO recurring (member_id, name, type, amount, wallet_id, category_id, day, memo)
VALUES (@member_id, @name, @type, @amount, sqlc.narg(wallet_id), sqlc.narg(category_id), @day, @memo)
RETURNING *;

-- name: UpdateRecurring :one
UPDATE recurring SET name = @name, type = @type, amount = @amount, wallet_id = sqlc.narg(wallet_id),
    category_id = sqlc.narg(category_id), day = @day, memo = @memo
WHERE member_id = @member_id AND id = @id
RETURNING *;

-- name: DeleteRecurring :execrows
DELETE FROM recurring WHERE member_id = @member_id AND id = @id;

-- name: DeleteMemberRecurrings :exec
DELETE FROM recurring WHERE member_id = @member_id;
