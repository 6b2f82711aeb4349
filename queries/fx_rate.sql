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


-- name: ClaimFXLookup :one
-- Claims the provider lookup of a pair and day until @until, unless another
-- request holds an unexpired claim or a failure is remembered: then no row
-- comes back.
INSERT INTO fx_lookup (from_currency, to_currency, day, failed, until)
VALUES (@from_currency, @to_currency, @day, false, @until)
ON CONFLICT (from_currency, to_currency, day) DO UPDATE SET failed = false, until = excluded.until
WHERE fx_lookup.until <= @now
RETURNING until;

-- name: GetFXLookup :one
SELECT failed, until FROM fx_lookup
WHERE from_currency = @from_currency AND to_currency = @to_currency AND day = @day;

-- name: EndFXLookup :exec
-- The rate is stored: the claim is no longer needed.
DELETE FROM fx_lookup
WHERE from_currency = @from_currency AND to_currency = @to_currency AND day = @day;

-- name: FailFXLookup :exec
-- Remembers that the provider failed for a pair and day until @until.
UPDATE fx_lookup SET failed = true, until = @until
WHERE from_currency = @from_currency AND to_currency = @to_currency AND day = @day;

-- name: DeleteFXLookupsBefore :execrows
-- Claims and remembered failures that ended before @now.
DELETE FROM fx_lookup WHERE until < @now;
