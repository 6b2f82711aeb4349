-- +goose Up
-- Service-wide key/value settings an administrator can change at run time
-- (sign-up switch, spam keywords). Values are JSON so each key keeps its shape.
CREATE TABLE app_setting (
    key        text PRIMARY KEY,
    value      jsonb       NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE app_setting;
