-- +goose Up
-- The keys of the card cancellations a member's notification intake has
-- processed. A cancellation that deletes a pending payment leaves its key on
-- no entry (account_entry.notif_key dedupes payments and reversals), so
-- without this a redelivered cancellation would match and delete the next
-- equal payment.
CREATE TABLE notification_key (
    member_id  bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    notif_key  text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (member_id, notif_key)
);

-- +goose Down
DROP TABLE notification_key;
