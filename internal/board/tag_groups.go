package board

import (
	"context"
	"fmt"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/problem"
)

const (
	maxTagGroupName = 50
	maxTagGroupTags = 50
)

func toTagGroup(id int64, name string, tags, boards []string) api.TagGroup {
	return api.TagGroup{ID: id, Name: name, Tags: tags, Boards: boardValues(boards)}
}

// boardValues types a group's boards for the answer (nil stays nil).
func boardValues(boards []string) []api.BoardCategoryValue {
	if boards == nil {
		return nil
	}
	out := make([]api.BoardCategoryValue, len(boards))
	for i, b := range boards {
		out[i] = api.BoardCategoryValue(b)
	}
	return out
}

// ListBoardTagGroups answers the groups of a board, or every group.
func (h *BoardHandler) ListBoardTagGroups(ctx context.Context, req api.ListBoardTagGroupsRequestObject) (api.ListBoardTagGroupsResponseObject, error) {
	var board *string
	if req.Params.Category != nil {
		b := string(*req.Params.Category)
		board = &b
	}
	items, err := listTagGroups(ctx, db.New(h.pool), board)
	if err != nil {
		return nil, err
	}
	return api.ListBoardTagGroups200JSONResponse{Items: items}, nil
}

// ListTagGroups answers every group (administrators).
func (h *BoardHandler) ListTagGroups(ctx context.Context, _ api.ListTagGroupsRequestObject) (api.ListTagGroupsResponseObject, error) {
	items, err := listTagGroups(ctx, db.New(h.pool), nil)
	if err != nil {
		return nil, err
	}
	return api.ListTagGroups200JSONResponse{Items: items}, nil
}

func listTagGroups(ctx context.Context, q *db.Queries, board *string) ([]api.TagGroup, error) {
	rows, err := q.ListTagGroups(ctx, board)
	if err != nil {
		return nil, fmt.Errorf("list tag groups: %w", err)
	}
	items := make([]api.TagGroup, len(rows))
	for i, r := range rows {
		items[i] = toTagGroup(r.ID, r.Name, r.Tags, r.Boards)
	}
	return items, nil
}

// tagGroupInput validates a tag group request.
func tagGroupInput(b *api.TagGroupRequest) (name string, tags, boards []string, err error) {
	if name, err = requiredText("/name", b.Name, maxTagGroupName, false); err != nil {
		return
	}
	if tags, err = tagList("/tags", b.Tags, maxTagGroupTags); err != nil {
		return
	}
	seen := map[api.BoardCategory]bool{}
	boards = []string{}
	for i, c := range b.Boards {
		if !c.Valid() {
			return "", nil, nil, problem.Invalid(fmt.Sprintf("/boards/%d", i), "must be community, saving or tips")
		}
		if !seen[c] {
			seen[c] = true
			boards = append(boards, string(c))
		}
	}
	return name, tags, boards, nil
}

// CreateTagGroup creates a tag group.
func (h *BoardHandler) CreateTagGroup(ctx context.Context, req api.CreateTagGroupRequestObject) (api.CreateTagGroupResponseObject, error) {
	name, tags, boards, err := tagGroupInput(req.Body)
	if err != nil {
		return nil, err
	}
	g, err := database.InTxV(ctx, h.pool, func(q *db.Queries) (api.TagGroup, error) {
		id, err := q.CreateTagGroup(ctx, db.CreateTagGroupParams{Name: name, Tags: tags})
		if err != nil {
			return api.TagGroup{}, fmt.Errorf("create tag group: %w", err)
		}
		return setTagGroupBoardsTx(ctx, q, id, boards)
	})
	if err != nil {
		return nil, err
	}
	return api.CreateTagGroup201JSONResponse(g), nil
}

// UpdateTagGroup replaces a tag group.
func (h *BoardHandler) UpdateTagGroup(ctx context.Context, req api.UpdateTagGroupRequestObject) (api.UpdateTagGroupResponseObject, error) {
	name, tags, boards, err := tagGroupInput(req.Body)
	if err != nil {
		return nil, err
	}
	g, err := database.InTxV(ctx, h.pool, func(q *db.Queries) (api.TagGroup, error) {
		n, err := q.UpdateTagGroup(ctx, db.UpdateTagGroupParams{ID: req.ID, Name: name, Tags: tags})
		if err != nil {
			return api.TagGroup{}, fmt.Errorf("update tag group %d: %w", req.ID, err)
		}
		if n == 0 {
			return api.TagGroup{}, errTagGroupNotFound
		}
		return setTagGroupBoardsTx(ctx, q, req.ID, boards)
	})
	if err != nil {
		return nil, err
	}
	return api.UpdateTagGroup200JSONResponse(g), nil
}

func setTagGroupBoardsTx(ctx context.Context, q *db.Queries, id int64, boards []string) (api.TagGroup, error) {
	if err := q.DeleteTagGroupBoards(ctx, id); err != nil {
		return api.TagGroup{}, fmt.Errorf("clear boards of tag group %d: %w", id, err)
	}
	if err := q.AddTagGroupBoards(ctx, db.AddTagGroupBoardsParams{TagGroupID: id, Boards: boards}); err != nil {
		return api.TagGroup{}, fmt.Errorf("map tag group %d: %w", id, err)
	}
	r, err := q.GetTagGroup(ctx, id)
	if err := database.NoRows(err, errTagGroupNotFound, fmt.Sprintf("read tag group %d", id)); err != nil {
		return api.TagGroup{}, err
	}
	return toTagGroup(r.ID, r.Name, r.Tags, r.Boards), nil
}

// DeleteTagGroup deletes a tag group.
func (h *BoardHandler) DeleteTagGroup(ctx context.Context, req api.DeleteTagGroupRequestObject) (api.DeleteTagGroupResponseObject, error) {
	n, err := db.New(h.pool).DeleteTagGroup(ctx, req.ID)
	if err != nil {
		return nil, fmt.Errorf("delete tag group %d: %w", req.ID, err)
	}
	if n == 0 {
		return nil, errTagGroupNotFound
	}
	return api.DeleteTagGroup204Response{}, nil
}
