-- +goose Up
-- Calls to outside services a member caused today, per kind, so that one
-- member (or one bad client) cannot spend the service's provider quota and
-- the replicas share one count. A request reserves its call with one
-- conditional upsert before calling; the day is in APP_TIMEZONE. A daily job
-- deletes the rows of past days.
CREATE TABLE outside_call_count (
    member_id bigint  NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    kind      text    NOT NULL CHECK (kind IN ('FX', 'AI', 'OCR')),
    day       date    NOT NULL,
    calls     integer NOT NULL CHECK (calls > 0),
    PRIMARY KEY (member_id, kind, day)
);
CREATE INDEX outside_call_count_day ON outside_call_count (day);

-- A provider lookup of an FX pair and day that is under way or has just
-- failed. A request that finds no stored rate claims the pair and day here
-- ("fetching until"), commits, calls the provider with no database
-- connection held, then stores the rate and deletes the claim, or marks the
-- claim failed until a short time later: requests and replicas that find the
-- claim wait for the stored rate, and a miss is not asked again at once. A
-- claim whose holder died ends at "until" by itself.
CREATE TABLE fx_lookup (
    from_currency text        NOT NULL,
    to_currency   text        NOT NULL,
    day           date        NOT NULL,
    failed        boolean     NOT NULL,
    until         timestamptz NOT NULL,
    PRIMARY KEY (from_currency, to_currency, day)
);

-- +goose Down
DROP TABLE fx_lookup;
DROP TABLE outside_call_count;
