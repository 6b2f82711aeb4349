-- name: CreateMember :one
INSERT INTO member (email, email_verified, password_hash, name, role, provider, idp_a_id, idp_b_id, idp_a_picture)
VALUES (@email, @email_verified, @password_hash, @name, @role, @provider, @idp_a_id, @idp_b_id, @idp_a_picture)
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

-- name: GetMemberCredentials :one
-- What a password sign-in needs, and nothing else (no profile image). The
-- epoch read with the hash goes into the new session: a password change that
-- commits after this read revokes it.
SELECT id, email, name, role, plan, plan_expires_at, status, password_hash, session_epoch
FROM member WHERE lower(email) = lower(@email);

-- name: GetMemberPasswordHash :one
SELECT password_hash FROM member WHERE id = @id;

-- name: RevokeMemberSessions :one
-- Ends every session of the member: each holds an older epoch from now on.
UPDATE member SET session_epoch = session_epoch + 1 WHERE id = @id RETURNING session_epoch;

-- name: LinkIdpA :one
-- Links a provider identity to the member with its verified e-mail. An
-- account whose e-mail was never proven (a LOCAL sign-up) may have been made
-- by someone else with the victim's address: its password is cleared and its
-- sessions revoked, so only the provider identity signs in from now on.
UPDATE member
SET idp_a_id = @subject, idp_a_picture = COALESCE(@picture, idp_a_picture),
    password_hash = CASE WHEN email_verified THEN password_hash END,
    session_epoch = CASE WHEN email_verified THEN session_epoch ELSE session_epoch + 1 END,
    email_verified = true, updated_at = now()
WHERE id = @id RETURNING *;

-- name: LinkIdpB :one
-- As LinkIdpA.
UPDATE member
SET idp_b_id = @subject,
    password_hash = CASE WHEN email_verified THEN password_hash END,
    session_epoch = CASE WHEN email_verified THEN session_epoch ELSE session_epoch + 1 END,
    email_verified = true, updated_at = now()
WHERE id = @id RETURNING *;

-- name: UpdateMemberName :one
UPDATE member SET name = @name, updated_at = now() WHERE id = @id RETURNING *;

-- name: UpdateMemberEmailName :one
UPDATE member SET email = @email, name = @name, updated_at = now() WHERE id = @id AND kind = 'PERSON' RETURNING *;

-- name: UpdateMemberProfileImage :one
UPDATE member SET profile_image = @profile_image, profile_image_id = @profile_image_id, updated_at = now()
WHERE id = @id RETURNING *;

-- name: ReplaceMemberPassword :one
-- Replaces the password the caller checked (@old_hash), revoking every
-- session; no row when the password changed meanwhile.
UPDATE member SET password_hash = @new_hash, session_epoch = session_epoch + 1, updated_at = now()
WHERE id = @id AND password_hash = @old_hash
RETURNING session_epoch;

-- name: SetMemberRole :one
UPDATE member SET role = @role, updated_at = now() WHERE id = @id AND kind = 'PERSON' RETURNING *;

-- name: SetMemberStatus :one
UPDATE member SET status = @status, updated_at = now() WHERE id = @id AND kind = 'PERSON' RETURNING *;

-- name: SetMemberPlanPermanent :one
-- An administrator's plan has no expiry and no subscription behind it.
UPDATE member
SET plan = @plan, plan_expires_at = NULL, plan_product = NULL, plan_auto_renew = false, updated_at = now()
WHERE id = @id AND kind = 'PERSON' RETURNING *;

-- name: CountMembers :one
-- People only: a household book's ledger owner (kind BOOK) is no member.
SELECT count(*) FROM member
WHERE kind = 'PERSON' AND (sqlc.narg(q)::text IS NULL
   OR email ILIKE '%' || sqlc.narg(q) || '%'
   OR name ILIKE '%' || sqlc.narg(q) || '%');

-- name: DeleteMember :execrows
-- A person; a household book's ledger owner goes with DeleteBookLedgerMember.
DELETE FROM member WHERE id = @id AND kind = 'PERSON';

-- name: DeleteBookLedgerMember :execrows
-- A household book's ledger owner, and through the cascades the book and
-- every record in it.
DELETE FROM member WHERE id = @id AND kind = 'BOOK';

-- name: CreateAdminIfAbsent :one
-- Start-up bootstrap of the first administrator; no row when the e-mail
-- already has an account.
INSERT INTO member (email, password_hash, name, role)
VALUES (@email, @password_hash, @name, 'ADMIN')
ON CONFLICT (lower(email)) WHERE email IS NOT NULL DO NOTHING
RETURNING id;

-- name: ResetAdminAccount :exec
-- The bootstrap administrator's account did not hold ADMIN_PASSWORD: it gets
-- that password and loses every session. Its status stays: a suspended
-- account is not the bootstrap's to reactivate.
UPDATE member SET role = 'ADMIN', password_hash = @password_hash,
    session_epoch = session_epoch + 1, updated_at = now()
WHERE id = @id;

-- name: SetMonthStartDay :one
UPDATE member SET month_start_day = @month_start_day, updated_at = now() WHERE id = @id RETURNING *;

-- name: ListAdminMembers :many
-- The member list of the administration: newest first, without the columns
-- it never shows (a profile image can be megabytes, the hash is secret), each
-- row carrying the number of members that match, so a page and its total
-- come from one statement. A page past the end has no row to carry it: the
-- caller counts with CountMembers then.
SELECT id, email, name, role, status, provider, plan, plan_expires_at, plan_product, plan_auto_renew, points, created_at,
       count(*) OVER () AS total
FROM member
WHERE kind = 'PERSON' AND (sqlc.narg(q)::text IS NULL
   OR email ILIKE '%' || sqlc.narg(q) || '%'
   OR name ILIKE '%' || sqlc.narg(q) || '%')
ORDER BY id DESC
LIMIT sqlc.arg(lim)::int OFFSET sqlc.arg(off)::bigint;

-- name: CreateBookLedgerMember :one
-- The ledger owner of a household book (internal/book): a row of kind BOOK
-- that never signs in, whose ledger is the book's.
INSERT INTO member (name, kind, month_start_day)
VALUES ('household book', 'BOOK', @month_start_day)
RETURNING id;

