-- +goose Up
-- Images stored before every metadata container was stripped (issue 18: PNG
-- text and eXIf chunks, WebP EXIF/XMP, data after a JPEG's end, and the
-- avatars migration 00160 moved as they were) may still carry a position.
-- They are marked here; the image GET strips them on the fly and the
-- image-cleanup job rewrites them, in batches. New uploads are stripped
-- before they are stored, so the column defaults to true from now on.
ALTER TABLE board_image ADD COLUMN meta_stripped boolean NOT NULL DEFAULT false;
ALTER TABLE board_image ALTER COLUMN meta_stripped SET DEFAULT true;
CREATE INDEX board_image_unstripped_idx ON board_image (id) WHERE NOT meta_stripped;

-- +goose Down
DROP INDEX board_image_unstripped_idx;
ALTER TABLE board_image DROP COLUMN meta_stripped;
