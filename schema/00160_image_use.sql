-- +goose Up
-- Images are used by posts and profiles; an image neither uses a day after its
-- upload is deleted by the image-cleanup job.

-- post_image says which images a post shows, so "is this image used" is an
-- index lookup rather than a scan of every post's image_urls. Written with
-- the post; a post's deletion takes its rows with it.
CREATE TABLE post_image (
    post_id  bigint NOT NULL REFERENCES post (id) ON DELETE CASCADE,
    image_id uuid   NOT NULL REFERENCES board_image (id) ON DELETE CASCADE,
    PRIMARY KEY (post_id, image_id)
);
CREATE INDEX post_image_image_idx ON post_image (image_id);

INSERT INTO post_image (post_id, image_id)
SELECT DISTINCT p.id, i.id
FROM post p
CROSS JOIN LATERAL unnest(p.image_urls) AS u(url)
JOIN board_image i ON i.id::text = substring(u.url from '/api/images/([0-9a-f-]{36})$');

-- The member's avatar as an image the service serves (GET /api/images/{id}),
-- so board answers carry its address instead of the data URL.
-- member.profile_image keeps the data URL for the owner's own profile.
ALTER TABLE member ADD COLUMN profile_image_id uuid REFERENCES board_image (id) ON DELETE SET NULL;
CREATE INDEX member_profile_image_idx ON member (profile_image_id) WHERE profile_image_id IS NOT NULL;

-- Existing avatars move into images. Their bytes are copied as they are (SQL
-- cannot rewrite image containers); every avatar set from now on is stripped
-- of metadata first.
WITH moved AS (
    INSERT INTO board_image (member_id, content_type, data, sha256, created_at)
    SELECT id, 'image/' || substring(profile_image from '^data:image/([a-z]+);base64,'),
           decode(substring(profile_image from ';base64,(.*)$'), 'base64'),
           encode(sha256(decode(substring(profile_image from ';base64,(.*)$'), 'base64')), 'hex'),
           now()
    FROM member
    WHERE profile_image ~ '^data:image/(png|jpeg|gif|webp);base64,'
    RETURNING id, member_id
)
UPDATE member SET profile_image_id = moved.id FROM moved WHERE member.id = moved.member_id;

-- Uploads per member and day (in the service time zone), for the daily limit.
-- A counter rather than a count of board_image rows: deleting an unused image
-- must not give an upload back.
CREATE TABLE image_upload_day (
    member_id bigint  NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    day       date    NOT NULL,
    uploads   integer NOT NULL,
    PRIMARY KEY (member_id, day)
);

-- The cleanup job finds old images by upload time.
CREATE INDEX board_image_created_idx ON board_image (created_at);

-- +goose Down
DROP INDEX board_image_created_idx;
DROP TABLE image_upload_day;
ALTER TABLE member DROP COLUMN profile_image_id;
DROP TABLE post_image;
