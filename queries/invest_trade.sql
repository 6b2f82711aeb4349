-- name: ListTrades :many
SELECT * FROM invest_trade
WHERE member_id = @member_id AND (sqlc.narg(stock_id)::bigint IS NULL OR stock_id = sqlc.narg(stock_id))
ORDER BY trade_date DESC, id DESC
LIMIT @size OFFSET @skip;

-- name: CountTrades :one
SELECT count(*) FROM invest_trade
WHERE member_id = @member_id AND (sqlc.narg(stock_id)::bigint IS NULL OR stock_id = sqlc.narg(stock_id));

-- name: CreateTrade :one
INSERT INTO invest_trade (member_id, stock_id, side, trade_date, quantity, price, fee)
VALUES (@member_id, @stock_id, @side, @trade_date, @quantity, @price, @fee)
RETURNING *;

-- name: UpdateTrade :one
UPDATE invest_trade SET stock_id = @stock_id, side = @side, trade_date = @trade_date,
    quantity = @quantity, price = @price, fee = @fee
WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]))
RETURNING *;

-- name: DeleteTrade :execrows
DELETE FROM invest_trade WHERE member_id = @member_id AND id = @id
    AND (sqlc.narg(if_versions)::bigint[] IS NULL OR version = ANY(sqlc.narg(if_versions)::bigint[]));

-- name: ListStockTradesInOrder :many
-- Replay order: trade date, then creation order.
SELECT * FROM invest_trade
WHERE member_id = @member_id AND stock_id = ANY(@stock_ids::bigint[])
ORDER BY stock_id, trade_date, id;

-- name: ListMemberTradesUpTo :many
SELECT * FROM invest_trade
WHERE member_id = @member_id AND trade_date <= @up_to
ORDER BY stock_id, trade_date, id;

-- name: GetTradeForUpdate :one
-- Held while the trade's stock is locked and replayed, so a parallel edit
-- cannot move the trade to another stock in between.
SELECT * FROM invest_trade WHERE member_id = @member_id AND id = @id FOR UPDATE;

-- name: GetTrade :one
-- A trade read without a lock, to learn its stock: edits lock the stock
-- before the trade (database.LockOrder), as a stock's deletion does.
SELECT * FROM invest_trade WHERE member_id = @member_id AND id = @id;

-- name: ListTradesByIDs :many
SELECT * FROM invest_trade WHERE member_id = @member_id AND id = ANY(@ids::bigint[]);
