-- name: CreateMember :one
INSERT INTO member (email, password_hash, name, role, provider, idp_a_id, idp_b_id, idp_a_picture)
VALUES (@email, @password_hash, @name, @role, @provider, @idp_a_id, @idp_b_id, @idp_a_picture)
RETURNING *;

-- name: GetMember :one
SELECT * FROM member WHERE id = @id;

-- name: GetMemberForUpdate :one
SELECT * FROM member WHERE id = @id FOR UPDATE;

-- name: GetMemberByEmail :one
SELECT * FROM member WHERE lower(email) = lower(@email);

-- name: GetMemberByIdpA :one
SELECT * FROM member WHERE idp_a_id = @subject;

-- name: GetMemberByIdpB :one
SELECT * FROM member WHERE idp_b_id = @subject;

-- name: GetMemberPrincipal :one
-- What every authenticated request needs to know about its member.
SELECT id, name, role, plan, status, sessions_revoked_at FROM member WHERE id = @id;

-- name: RevokeMemberSessions :exec
UPDATE member SET sessions_revoked_at = @revoked_at WHERE id = @id;

-- name: LinkIdpA :one
UPDATE member SET idp_a_id = @subject, idp_a_picture = COALESCE(@picture, idp_a_picture), updated_at = now()
WHERE id = @id RETURNING *;

-- name: LinkIdpB :one
UPDATE member SET idp_b_id = @subject, updated_at = now()
WHERE id = @id RETURNING *;

-- name: UpdateMemberName :one
UPDATE member SET name = @name, updated_at = now() WHERE id = @id RETURNING *;

-- name: UpdateMemberEmailName :one
UPDATE member SET email = @email, name = @name, updated_at = now() WHERE id = @id RETURNING *;

-- name: UpdateMemberProfileImage :one
UPDATE member SET profile_image = @profile_image, updated_at = now() WHERE id = @id RETURNING *;

-- name: UpdateMemberPassword :exec
UPDATE member SET password_hash = @password_hash, updated_at = now() WHERE id = @id;

-- name: SetMemberRole :one
UPDATE member SET role = @role, updated_at = now() WHERE id = @id RETURNING *;

-- name: SetMemberStatus :one
UPDATE member SET status = @status, updated_at = now() WHERE id = @id RETURNING *;

-- name: SetMemberPlanPermanent :one
-- An administrator's plan has no expiry and no subscription behind it.
UPDATE member
SET plan = @plan, plan_expires_at = NULL, plan_product = NULL, plan_auto_renew = false, updated_at = now()
WHERE id = @id RETURNING *;

-- name: CountMembers :one
SELECT count(*) FROM member
WHERE sqlc.narg(q)::text IS NULL
   OR email ILIKE '%' || sqlc.narg(q) || '%'
   OR name ILIKE '%' || sqlc.narg(q) || '%';

-- name: DeleteMember :execrows
DELETE FROM member WHERE id = @id;

-- name: PromoteOrCreateAdmin :one
-- Start-up bootstrap of the first administrator: idempotent.
INSERT INTO member (email, password_hash, name, role)
VALUES (@email, @password_hash, @name, 'ADMIN')
ON CONFLICT (lower(email)) WHERE email IS NOT NULL
DO UPDATE SET role = 'ADMIN', updated_at = now()
RETURNING *;
