-- name: CreateBoardImage :one
INSERT INTO board_image (member_id, content_type, data, sha256, created_at)
VALUES (@member_id, @content_type, @data, @sha256, @now)
RETURNING id;

-- name: GetBoardImage :one
SELECT content_type, data, sha256 FROM board_image WHERE id = @id;

-- name: GetBoardImageTag :one
-- Enough to answer a conditional request without reading the bytes.
SELECT sha256 FROM board_image WHERE id = @id;

-- name: CountMemberImages :one
SELECT count(*) FROM board_image WHERE member_id = @member_id AND id = ANY(@ids::uuid[]);
