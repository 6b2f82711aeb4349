-- name: TakeHeavyWork :one
-- Takes the member's heavy-work lease, or takes over one that ended without
-- being given back; no row when another is under way. One statement, so two
-- requests racing for it cannot both get it.
INSERT INTO heavy_work AS h (member_id, operation, token, started_at, until)
VALUES (@member_id, @operation, @token, now(), now() + make_interval(secs => @lease_seconds::float8))
ON CONFLICT (member_id) DO UPDATE
    SET operation = excluded.operation, token = excluded.token, started_at = excluded.started_at, until = excluded.until
    WHERE h.until < now()
RETURNING true AS taken;

-- name: HeavyWorkEndsIn :one
-- Seconds until the member's current lease ends (at least 1): the Retry-After
-- of a request turned away.
SELECT GREATEST(1, ceil(extract(epoch FROM until - now())))::int AS seconds, operation
FROM heavy_work WHERE member_id = @member_id;

-- name: GiveBackHeavyWork :exec
DELETE FROM heavy_work WHERE member_id = @member_id AND token = @token;
