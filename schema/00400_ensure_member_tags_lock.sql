-- +goose Up
-- ensure_member_tags (00347) key-share locks the tags it answers, so a
-- write that links them (an entry's create or edit, CSV import, restore)
-- holds them until it commits: a parallel deletion of one of those tags
-- waits for the write rather than deleting the tag between the answer and
-- the link, whose foreign key then failed (a 500 in about 1 of 7 creates of
-- a tagged entry racing the tag's deletion, issue 41). A tag whose deletion
-- commits while the SELECT waits on it is left out of the answer; the
-- callers then run again (the tagged create's retry_statement, the second
-- pass of EnsureTagsTx), and the INSERT makes the tag anew.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION ensure_member_tags(p_member bigint, p_names text[])
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
        ORDER BY t.sort_order, t.id
        FOR KEY SHARE;
END
$$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION ensure_member_tags(p_member bigint, p_names text[])
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
