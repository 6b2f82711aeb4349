-- +goose Up
-- Tag groups an administrator keeps for the boards (SPEC calls them
-- tag_category); a group with no board rows applies to every board.
CREATE TABLE tag_group (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       text        NOT NULL,
    tags       text[]      NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE tag_group_board (
    tag_group_id bigint NOT NULL REFERENCES tag_group (id) ON DELETE CASCADE,
    board        text   NOT NULL CHECK (board IN ('community', 'saving', 'tips')),
    PRIMARY KEY (tag_group_id, board)
);

-- +goose Down
DROP TABLE tag_group_board;
DROP TABLE tag_group;
