-- name: ListAdminMembers :many
-- The member list of the administration: newest first, without the columns
-- it never shows (a profile image can be megabytes, the hash is secret), each
-- row carrying the number of members that match, so a page and its total
-- come from one statement. A page past the end has no row to carry it: the
-- caller counts with CountMembers then.
SELECT id, email, name, role, status, provider, plan, plan_expires_at, plan_product, plan_auto_renew, points, created_at,
       count(*) OVER () AS total
FROM member
WHERE sqlc.narg(q)::text IS NULL
   OR email ILIKE '%' || sqlc.narg(q) || '%'
   OR name ILIKE '%' || sqlc.narg(q) || '%'
ORDER BY id DESC
LIMIT sqlc.arg(lim)::int OFFSET sqlc.arg(off)::bigint;
