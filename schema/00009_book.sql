-- +goose Up
-- Household books (issue 44, DECISIONS section 10): a ledger several members
-- keep. Every ledger table is keyed by member_id, so each book has a ledger
-- owner of its own, a member row of kind BOOK (00001), and its records are
-- that row's records: every ledger query, trigger, rollup, feed, limit,
-- heavy lease and lock works on a book unchanged. Deleting the ledger owner
-- row deletes the book and, through the cascades, everything in it.
-- internal/book/README.md tells the design.
CREATE TABLE book (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- The book's ledger owner; its month_start_day is the book's.
    ledger_member_id bigint      NOT NULL UNIQUE REFERENCES member (id) ON DELETE CASCADE,
    name             text        NOT NULL CHECK (length(name) BETWEEN 1 AND 50),
    created_at       timestamptz NOT NULL DEFAULT now()
);

-- Who keeps a book. A member who left keeps their row with left_at, so the
-- book's records still know them ("former member"); a deleted account's
-- rows go with it. joined_at orders the handover of ownership
-- (longest-standing first).
CREATE TABLE book_member (
    book_id   bigint      NOT NULL REFERENCES book (id) ON DELETE CASCADE,
    member_id bigint      NOT NULL REFERENCES member (id) ON DELETE CASCADE,
    role      text        NOT NULL CHECK (role IN ('OWNER', 'EDITOR', 'VIEWER')),
    -- The member's weight in the book's settlement (shares of its expenses).
    weight    integer     NOT NULL DEFAULT 1 CHECK (weight BETWEEN 1 AND 1000),
    joined_at timestamptz NOT NULL DEFAULT now(),
    left_at   timestamptz,
    PRIMARY KEY (book_id, member_id)
);
-- A member's books (the list of mine, the per-member limit).
CREATE INDEX book_member_member_idx ON book_member (member_id) WHERE left_at IS NULL;

-- Invitations: single-use codes, kept only as their SHA-256.
CREATE TABLE book_invitation (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    book_id    bigint      NOT NULL REFERENCES book (id) ON DELETE CASCADE,
    code_hash  bytea       NOT NULL UNIQUE,
    role       text        NOT NULL CHECK (role IN ('EDITOR', 'VIEWER')),
    created_by bigint      NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at    timestamptz,
    used_by    bigint,
    revoked_at timestamptz
);
CREATE INDEX book_invitation_book_idx ON book_invitation (book_id);

-- A ledger month marked settled (who and when); undoing deletes the row.
CREATE TABLE book_settlement (
    book_id    bigint      NOT NULL REFERENCES book (id) ON DELETE CASCADE,
    year       integer     NOT NULL,
    month      integer     NOT NULL CHECK (month BETWEEN 1 AND 12),
    settled_at timestamptz NOT NULL,
    settled_by bigint      NOT NULL,
    PRIMARY KEY (book_id, year, month)
);

-- +goose Down
DROP TABLE book_settlement;
DROP TABLE book_invitation;
DROP TABLE book_member;
DROP TABLE book;
