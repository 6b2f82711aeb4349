-- name: CreateTagGroup :one
INSERT INTO tag_group (name, tags) VALUES (@name, @tags) RETURNING id;

-- name: UpdateTagGroup :execrows
UPDATE tag_group SET name = @name, tags = @tags WHERE id = @id;

-- name: DeleteTagGroup :execrows
DELETE FROM tag_group WHERE id = @id;

-- name: DeleteTagGroupBoards :exec
DELETE FROM tag_group_board WHERE tag_group_id = @tag_group_id;

-- name: AddTagGroupBoards :exec
INSERT INTO tag_group_board (tag_group_id, board) SELECT @tag_group_id, unnest(@boards::text[]);

-- name: ListTagGroups :many
-- Every group, or the groups of one board (mapped to it, or to no board).
SELECT g.id, g.name, g.tags,
       COALESCE(array_agg(b.board ORDER BY b.board) FILTER (WHERE b.board IS NOT NULL), '{}')::text[] AS boards
FROM tag_group g LEFT JOIN tag_group_board b ON b.tag_group_id = g.id
GROUP BY g.id
HAVING sqlc.narg(board)::text IS NULL
    OR count(b.board) = 0
    OR bool_or(b.board = sqlc.narg(board))
ORDER BY g.id;

-- name: GetTagGroup :one
SELECT g.id, g.name, g.tags,
       COALESCE(array_agg(b.board ORDER BY b.board) FILTER (WHERE b.board IS NOT NULL), '{}')::text[] AS boards
FROM tag_group g LEFT JOIN tag_group_board b ON b.tag_group_id = g.id
WHERE g.id = @id
GROUP BY g.id;
