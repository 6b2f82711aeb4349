-- name: DeletePostImages :exec
DELETE FROM post_image WHERE post_id = @post_id;

-- name: AddPostImages :exec
INSERT INTO post_image (post_id, image_id)
SELECT @post_id, unnest(@image_ids::uuid[])
ON CONFLICT DO NOTHING;
