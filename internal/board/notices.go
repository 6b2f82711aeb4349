package board

import (
	"context"
	"fmt"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
)

// NoticePost makes a post a notice (administrators).
func (h *BoardHandler) NoticePost(ctx context.Context, req api.NoticePostRequestObject) (api.NoticePostResponseObject, error) {
	post, err := h.setNotice(ctx, req.ID, true)
	if err != nil {
		return nil, err
	}
	return api.NoticePost200JSONResponse(post), nil
}

// UnnoticePost makes a notice a normal post again (administrators).
func (h *BoardHandler) UnnoticePost(ctx context.Context, req api.UnnoticePostRequestObject) (api.UnnoticePostResponseObject, error) {
	post, err := h.setNotice(ctx, req.ID, false)
	if err != nil {
		return nil, err
	}
	return api.UnnoticePost200JSONResponse(post), nil
}

func (h *BoardHandler) setNotice(ctx context.Context, id int64, notice bool) (api.Post, error) {
	v := h.viewerOf(ctx)
	now := h.now()
	return database.InTxV(ctx, h.pool, func(q *db.Queries) (api.Post, error) {
		if _, err := lockPost(ctx, q, v, id); err != nil {
			return api.Post{}, err
		}
		if err := q.SetPostNotice(ctx, db.SetPostNoticeParams{ID: id, Notice: notice}); err != nil {
			return api.Post{}, fmt.Errorf("set notice of post %d: %w", id, err)
		}
		post, _, err := readPost(ctx, q, v, id, now)
		return post, err
	})
}
