-- +goose Up
-- When each scheduled job last ran, so that a job runs once per period however
-- many replicas tick.
CREATE TABLE job_run (
    name        text PRIMARY KEY,
    last_run_at timestamptz NOT NULL
);

-- +goose Down
DROP TABLE job_run;
