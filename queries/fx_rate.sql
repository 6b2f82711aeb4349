-- name: GetFXRate :one
SELECT rate, rate_date FROM fx_rate
WHERE from_currency = @from_currency AND to_currency = @to_currency AND day = @day;

-- name: LatestFXRateBefore :one
-- The newest rate cached on or before a day: the answer when the provider is down.
SELECT rate, rate_date, day FROM fx_rate
WHERE from_currency = @from_currency AND to_currency = @to_currency AND day <= @day
ORDER BY day DESC
LIMIT 1;

-- name: SaveFXRate :exec
INSERT INTO fx_rate (from_currency, to_currency, day, rate, rate_date, fetched_at)
VALUES (@from_currency, @to_currency, @day, @rate, @rate_date, @fetched_at)
ON CONFLICT (from_currency, to_currency, day) DO NOTHING;

