-- name: ListAdminMembers :many
-- The member list of the administration: newest first, without the columns
-- it never shows (a profile image can be megabytes, the hash is secret). q is
-- matched as CountMembers matches it, so the two agree on the total.
SELECT id, email, name, role, status, provider, plan, plan_expires_at, plan_product, plan_auto_renew, points, created_at
FROM member
WHERE sqlc.narg(q)::text IS NULL
   OR email ILIKE '%' || sqlc.narg(q) || '%'
   OR name ILIKE '%' || sqlc.narg(q) || '%'
ORDER BY id DESC
LIMIT sqlc.arg(lim)::int OFFSET sqlc.arg(off)::bigint;
