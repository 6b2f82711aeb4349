-- +goose Up
-- Recurring entries post themselves (issue 24): an hourly job creates each
-- occurrence as a pending entry the member confirms.
--
-- next_month is the first day of the first calendar month (APP_TIMEZONE)
-- whose occurrence is not settled yet: posted, or passed over (before the
-- entry existed, while auto_post was off, or beyond the job's catch-up
-- window). It only moves forward, so an edit of `day` never posts a month
-- twice: a month posts at most once, on the day in force when it comes.
-- Rows that exist before this migration start with the database's current
-- month when today's date has not passed their day, else the next one.
ALTER TABLE recurring
    ADD COLUMN auto_post      boolean NOT NULL DEFAULT true,
    ADD COLUMN last_posted_on date,
    ADD COLUMN next_month     date;
UPDATE recurring SET next_month = CASE
    WHEN LEAST(day, EXTRACT(day FROM date_trunc('month', current_date) + interval '1 month' - interval '1 day')::int)
         >= EXTRACT(day FROM current_date)::int
    THEN date_trunc('month', current_date)::date
    ELSE (date_trunc('month', current_date) + interval '1 month')::date END;
-- The service always names next_month; a row inserted without it starts
-- with the next month, so it never posts a date already past.
ALTER TABLE recurring ALTER COLUMN next_month SET NOT NULL,
    ALTER COLUMN next_month SET DEFAULT (date_trunc('month', current_date) + interval '1 month')::date;
-- The job finds the rows with a month to settle.
CREATE INDEX recurring_due_idx ON recurring (next_month, id) WHERE auto_post;

-- One row per posted occurrence: the key that makes a month post once, whatever
-- runs the job (replicas, a restart halfway, a stale read of the recurring
-- row). A deleted recurring entry takes its rows along (it posts nothing
-- more); the entries it posted stay.
CREATE TABLE recurring_post (
    recurring_id bigint      NOT NULL REFERENCES recurring (id) ON DELETE CASCADE,
    month        date        NOT NULL,
    occurs_on    date        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (recurring_id, month)
);

-- +goose Down
DROP TABLE recurring_post;
DROP INDEX recurring_due_idx;
ALTER TABLE recurring DROP COLUMN next_month, DROP COLUMN last_posted_on, DROP COLUMN auto_post;
