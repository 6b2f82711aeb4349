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

-- Entry and transfer answers name who wrote and who paid them ({memberId,
-- name, former}): a member's new name, and a member joining, leaving or
-- changing role in a book (which also moves who the records no member wrote
-- count for), change those answers, so the changes feed (00007) carries
-- the records again.
-- +goose StatementBegin
CREATE FUNCTION book_attribution_note(p_ledgers bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    PERFORM ledger_change_note('ENTRY', false,
        ARRAY(SELECT e.member_id FROM account_entry e WHERE e.member_id = ANY(p_ledgers) ORDER BY e.id),
        ARRAY(SELECT e.id FROM account_entry e WHERE e.member_id = ANY(p_ledgers) ORDER BY e.id));
    PERFORM ledger_change_note('TRANSFER', false,
        ARRAY(SELECT t.member_id FROM transfer t WHERE t.member_id = ANY(p_ledgers) ORDER BY t.id),
        ARRAY(SELECT t.id FROM transfer t WHERE t.member_id = ANY(p_ledgers) ORDER BY t.id));
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION book_attribution_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- The member's personal ledger and every book they are or were in.
    PERFORM book_attribution_note(ARRAY[NEW.id] || ARRAY(
        SELECT b.ledger_member_id FROM book_member bm JOIN book b ON b.id = bm.book_id WHERE bm.member_id = NEW.id));
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION book_attribution_roster() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v_book bigint := CASE WHEN TG_OP = 'DELETE' THEN OLD.book_id ELSE NEW.book_id END;
BEGIN
    PERFORM book_attribution_note(ARRAY(SELECT b.ledger_member_id FROM book b WHERE b.id = v_book));
    RETURN NULL;
END $$;
-- +goose StatementEnd

CREATE TRIGGER book_attribution_renamed AFTER UPDATE OF name ON member
    FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name AND NEW.kind = 'PERSON')
    EXECUTE FUNCTION book_attribution_renamed();
CREATE TRIGGER book_attribution_roster AFTER INSERT OR DELETE OR UPDATE OF role, left_at ON book_member
    FOR EACH ROW EXECUTE FUNCTION book_attribution_roster();

-- +goose Down
DROP TRIGGER book_attribution_roster ON book_member;
DROP TRIGGER book_attribution_renamed ON member;
DROP FUNCTION book_attribution_roster();
DROP FUNCTION book_attribution_renamed();
DROP FUNCTION book_attribution_note(bigint[]);
DROP TABLE book_settlement;
DROP TABLE book_invitation;
DROP TABLE book_member;
DROP TABLE book;
