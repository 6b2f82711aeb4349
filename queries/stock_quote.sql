-- name: UpsertStockQuote :exec
-- The latest answer of a day wins; an older answer arriving late does not.
INSERT INTO stock_quote (code, quote_day, price, currency, quoted_at)
VALUES (@code, @quote_day, @price, @currency, @quoted_at)
ON CONFLICT (code, quote_day) DO UPDATE
SET price = EXCLUDED.price, currency = EXCLUDED.currency, quoted_at = EXCLUDED.quoted_at
WHERE stock_quote.quoted_at <= EXCLUDED.quoted_at;

-- name: LatestQuotes :many
SELECT DISTINCT ON (code) code, price, currency, quoted_at
FROM stock_quote
WHERE code = ANY(@codes::text[])
ORDER BY code, quote_day DESC;
