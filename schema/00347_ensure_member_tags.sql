-- +goose Up
-- ensure_member_tags makes each name one of the member's tags (new ones
-- last, in the given order) and answers all of them, in tag order.
--
-- It is a function so that its two steps take two snapshots. Members' apps
-- send creates in parallel, and two of them can name the same new tag: the
-- second INSERT ... ON CONFLICT waits for the first transaction and then
-- skips the name, but the tag that transaction committed is not in the
-- snapshot of the statement that waited, which can neither answer nor link
-- it. Inside a VOLATILE PL/pgSQL function each statement takes a snapshot
-- of its own (READ COMMITTED), so the SELECT after the INSERT sees every tag
-- committed while the INSERT waited, however many of the names were made
-- meanwhile. Before this, the statement creating an entry with tags failed
-- as a serialization failure and ran again whole (00344); a second new tag
-- made in parallel during the retry answered 503 (seen in
-- BenchmarkEntryCreate: 32 parallel clients whose tags were all new).
--
-- The names are inserted in one order (by name), whatever order they were
-- given in: two requests naming the same new tags in different orders wait
-- on each other rather than deadlock.
--
-- A NULL names array (STRICT) answers no rows and writes nothing: the
-- create passes NULL when its checks fail.
-- +goose StatementBegin
CREATE FUNCTION ensure_member_tags(p_member bigint, p_names text[])
RETURNS SETOF account_tag LANGUAGE plpgsql STRICT VOLATILE AS $$
BEGIN
    INSERT INTO account_tag (member_id, name, sort_order)
    SELECT p_member, x.name,
        (SELECT COALESCE(MAX(t.sort_order), 0) FROM account_tag t WHERE t.member_id = p_member) + x.ord
    FROM unnest(p_names) WITH ORDINALITY AS x (name, ord)
    ORDER BY x.name
    ON CONFLICT (member_id, name) DO NOTHING;
    RETURN QUERY SELECT t.* FROM account_tag t
        WHERE t.member_id = p_member AND t.name = ANY (p_names)
        ORDER BY t.sort_order, t.id;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION ensure_member_tags(bigint, text[]);
