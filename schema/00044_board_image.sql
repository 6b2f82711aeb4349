-- +goose Up
-- Uploaded board images live in PostgreSQL so that every replica serves them.
-- The id is random: an image is public, but its address cannot be guessed.
CREATE TABLE board_image (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    member_id    bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    content_type text        NOT NULL,
    data         bytea       NOT NULL,
    -- Hex SHA-256 of data: the ETag.
    sha256       text        NOT NULL,
    created_at   timestamptz NOT NULL
);
CREATE INDEX board_image_member_idx ON board_image (member_id);

-- +goose Down
DROP TABLE board_image;
