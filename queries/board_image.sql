-- name: CreateBoardImage :one
INSERT INTO board_image (member_id, content_type, data, sha256, created_at)
VALUES (@member_id, @content_type, @data, @sha256, @now)
RETURNING id;

-- name: GetBoardImage :one
SELECT content_type, data, sha256, meta_stripped FROM board_image WHERE id = @id;

-- name: GetBoardImageTag :one
-- Enough to answer a conditional request without reading the bytes (an
-- image stored before stripping has no tag of its served bytes yet).
SELECT sha256, meta_stripped FROM board_image WHERE id = @id;

-- name: ListUnstrippedImages :many
-- A batch of images stored before metadata was stripped (ids only: each is
-- read alone, so one pass holds one image in memory, not a batch of 5 MB ones).
SELECT id FROM board_image WHERE NOT meta_stripped ORDER BY id LIMIT @lim;

-- name: SaveStrippedImage :execrows
UPDATE board_image SET data = @data, sha256 = @sha256, meta_stripped = true
WHERE id = @id AND NOT meta_stripped;

-- name: DeleteUnstrippableImage :execrows
-- An old image whose container does not hold together: it cannot be shown
-- without what it carries, so it goes (an upload would be refused today).
DELETE FROM board_image WHERE id = @id AND NOT meta_stripped;


-- name: ReserveImageUpload :one
-- Counts one upload against the member's day, in one statement so parallel
-- uploads cannot pass the limit together; no row when the day is used up.
INSERT INTO image_upload_day AS d (member_id, day, uploads)
VALUES (@member_id, @day, 1)
ON CONFLICT (member_id, day) DO UPDATE SET uploads = d.uploads + 1
WHERE d.uploads < @daily_limit::integer
RETURNING uploads;

-- name: DeleteUnusedImages :execrows
-- Images uploaded before @before that no post and no profile uses. SKIP
-- LOCKED leaves alone an image a post being written has just locked.
DELETE FROM board_image WHERE id IN (
    SELECT i.id FROM board_image i
    WHERE i.created_at < @before
      AND NOT EXISTS (SELECT 1 FROM post_image pi WHERE pi.image_id = i.id)
      AND NOT EXISTS (SELECT 1 FROM member m WHERE m.profile_image_id = i.id)
    FOR UPDATE SKIP LOCKED
);

-- name: DeleteImageUploadDaysBefore :exec
DELETE FROM image_upload_day WHERE day < @before;

-- name: LockMemberImages :many
-- The member's images among @ids, locked against the cleanup job until the
-- post that uses them is written.
SELECT id FROM board_image WHERE member_id = @member_id AND id = ANY(@ids::uuid[]) FOR KEY SHARE;
