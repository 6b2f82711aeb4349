package board

import (
	"context"
	"fmt"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/idempotency"
	"github.com/nestegg/nestegg/internal/points"
)

// maxComment is the longest comment body.
const maxComment = 2000

// commentRow is a comment with its author, whichever query read it.
type commentRow struct {
	comment      db.Comment
	authorName   string
	authorAvatar string
	// postTitle and postCategory are set for "my comments" only.
	postTitle, postCategory string
}

// toComment maps a comment for a viewer: the body of a blocked comment is
// hidden from all but administrators (and from its author's own list when
// showBlocked is set).
func toComment(r commentRow, v viewer, myVote string, now time.Time, showBlocked bool) api.Comment {
	c := r.comment
	out := api.Comment{
		ID:          c.ID,
		PostID:      c.PostID,
		Blocked:     c.BlockReason != nil,
		BlockReason: shownReason(c.BlockReason, v),
		UpCount:     c.UpCount,
		DownCount:   c.DownCount,
		Hot:         isHot(c.CreatedAt, c.UpCount, now),
		Author:      v.author(c.MemberID, r.authorName, r.authorAvatar),
		CreatedAt:   c.CreatedAt,
		UpdatedAt:   c.UpdatedAt,
	}
	if c.BlockReason == nil || v.admin || showBlocked {
		body := c.Body
		out.Body = &body
	}
	if myVote != "" {
		out.MyVote = (*api.VoteDirectionValue)(&myVote)
	}
	if r.postTitle != "" {
		title, category := r.postTitle, r.postCategory
		out.PostTitle, out.PostCategory = &title, (*api.BoardCategoryValue)(&category)
	}
	return out
}

// commentsFor maps rows for a viewer, with their votes read in one query.
func commentsFor(ctx context.Context, q *db.Queries, v viewer, rows []commentRow, now time.Time, showBlocked bool) ([]api.Comment, error) {
	votes := map[int64]string{}
	if v.memberID != 0 && len(rows) > 0 {
		ids := make([]int64, len(rows))
		for i, r := range rows {
			ids[i] = r.comment.ID
		}
		list, err := q.ListMyCommentVotes(ctx, db.ListMyCommentVotesParams{MemberID: v.memberID, CommentIds: ids})
		if err != nil {
			return nil, fmt.Errorf("comment votes of member %d: %w", v.memberID, err)
		}
		for _, vote := range list {
			votes[vote.CommentID] = vote.Direction
		}
	}
	items := make([]api.Comment, len(rows))
	for i, r := range rows {
		items[i] = toComment(r, v, votes[r.comment.ID], now, showBlocked)
	}
	return items, nil
}

// ListPostComments answers a page of a post's comments: hot ones first, then
// oldest first.
func (h *BoardHandler) ListPostComments(ctx context.Context, req api.ListPostCommentsRequestObject) (api.ListPostCommentsResponseObject, error) {
	v := h.viewerOf(ctx)
	p := pagingOf(req.Params.Page, req.Params.Size)
	now := h.now()
	q := db.New(h.pool)
	if _, err := visiblePost(ctx, q, v, req.ID, now); err != nil {
		return nil, err
	}
	total, err := q.CountPostComments(ctx, req.ID)
	if err != nil {
		return nil, fmt.Errorf("count comments of post %d: %w", req.ID, err)
	}
	list, err := q.ListPostComments(ctx, db.ListPostCommentsParams{
		PostID: req.ID, HotSince: hotSince(now), MinUp: hotMinUp, Lim: p.size, Off: p.offset(),
	})
	if err != nil {
		return nil, fmt.Errorf("list comments of post %d: %w", req.ID, err)
	}
	rows := make([]commentRow, len(list))
	for i, r := range list {
		rows[i] = commentRow{comment: r.Comment, authorName: r.AuthorName, authorAvatar: r.AuthorAvatar}
	}
	items, err := commentsFor(ctx, q, v, rows, now, false)
	if err != nil {
		return nil, err
	}
	return api.ListPostComments200JSONResponse{Items: items, Page: p.page, Size: p.size, Total: total}, nil
}

// ListMyComments answers a page of the caller's comments with their posts'
// titles and boards.
func (h *BoardHandler) ListMyComments(ctx context.Context, req api.ListMyCommentsRequestObject) (api.ListMyCommentsResponseObject, error) {
	v := h.viewerOf(ctx)
	p := pagingOf(req.Params.Page, req.Params.Size)
	q := db.New(h.pool)
	total, err := q.CountMemberComments(ctx, v.memberID)
	if err != nil {
		return nil, fmt.Errorf("count comments of member %d: %w", v.memberID, err)
	}
	list, err := q.ListMemberComments(ctx, db.ListMemberCommentsParams{MemberID: v.memberID, Lim: p.size, Off: p.offset()})
	if err != nil {
		return nil, fmt.Errorf("list comments of member %d: %w", v.memberID, err)
	}
	rows := make([]commentRow, len(list))
	for i, r := range list {
		rows[i] = commentRow{r.Comment, r.AuthorName, r.AuthorAvatar, r.PostTitle, r.PostCategory}
	}
	items, err := commentsFor(ctx, q, v, rows, h.now(), true)
	if err != nil {
		return nil, err
	}
	return api.ListMyComments200JSONResponse{Items: items, Page: p.page, Size: p.size, Total: total}, nil
}

// CreateComment writes a comment under a post.
func (h *BoardHandler) CreateComment(ctx context.Context, req api.CreateCommentRequestObject) (api.CreateCommentResponseObject, error) {
	v := h.viewerOf(ctx)
	now := h.now()
	body, err := requiredText("/body", req.Body.Body, maxComment, true)
	if err != nil {
		return nil, err
	}
	out, replayed, err := idempotency.Create(ctx, h.keys, "createComment", req.Params.IdempotencyKey, req, func(q *db.Queries) (etag.Tagged[api.Comment], error) {
		// database.LockOrder: the writer's member row (its points change)
		// before the post. A share lock on the post would do; FOR UPDATE
		// keeps one locking order with votes.
		if err := points.LockSelfTx(ctx, q, v.memberID); err != nil {
			return etag.Tagged[api.Comment]{}, err
		}
		post, err := lockPost(ctx, q, v, req.ID)
		if err != nil {
			return etag.Tagged[api.Comment]{}, err
		}
		spam, err := spamReasonTx(ctx, q, body)
		if err != nil {
			return etag.Tagged[api.Comment]{}, err
		}
		id, err := q.CreateComment(ctx, db.CreateCommentParams{PostID: post.ID, MemberID: v.memberID, Body: body, BlockReason: spam, Now: now})
		if err != nil {
			return etag.Tagged[api.Comment]{}, fmt.Errorf("create comment: %w", err)
		}
		if spam == nil {
			if _, err := points.AwardTx(ctx, q, v.memberID, pointsForWriting, points.ReasonCommentWritten, points.WriteCap, now); err != nil {
				return etag.Tagged[api.Comment]{}, err
			}
		}
		return readCommentTagged(ctx, q, v, id, now)
	})
	if err != nil {
		return nil, err
	}
	return api.CreateComment201JSONResponse{Body: out.Body, Headers: api.CreateComment201ResponseHeaders{
		ETag: etag.Ptr(out.ETag), IdempotentReplayed: replayed,
	}}, nil
}

// readCommentTagged reads a comment for its author's own answer (the body
// shown even when blocked), with the ETag of its version as the write's
// transaction leaves it (no GET answers a comment: its version alone).
func readCommentTagged(ctx context.Context, q *db.Queries, v viewer, id int64, now time.Time) (etag.Tagged[api.Comment], error) {
	r, err := q.GetComment(ctx, id)
	if err := database.NoRows(err, errCommentNotFound, fmt.Sprintf("read comment %d", id)); err != nil {
		return etag.Tagged[api.Comment]{}, err
	}
	items, err := commentsFor(ctx, q, v, []commentRow{{comment: r.Comment, authorName: r.AuthorName, authorAvatar: r.AuthorAvatar}}, now, true)
	if err != nil {
		return etag.Tagged[api.Comment]{}, err
	}
	return etag.Versioned(r.Comment.Version, items[0]), nil
}

// lockComment locks a comment whose post the viewer may see.
func lockComment(ctx context.Context, q *db.Queries, v viewer, id int64) (db.GetCommentForUpdateRow, error) {
	c, err := q.GetCommentForUpdate(ctx, id)
	if err := database.NoRows(err, errCommentNotFound, fmt.Sprintf("lock comment %d", id)); err != nil {
		return c, err
	}
	if c.PostBlockReason != nil && !v.admin {
		return c, errCommentNotFound
	}
	return c, nil
}

// UpdateComment edits the caller's comment, at the version If-Match names
// (none: any).
func (h *BoardHandler) UpdateComment(ctx context.Context, req api.UpdateCommentRequestObject) (api.UpdateCommentResponseObject, error) {
	v := h.viewerOf(ctx)
	now := h.now()
	match := etag.Parse(req.Params.IfMatch)
	body, err := requiredText("/body", req.Body.Body, maxComment, true)
	if err != nil {
		return nil, err
	}
	out, err := database.InTxV(ctx, h.pool, func(q *db.Queries) (etag.Tagged[api.Comment], error) {
		c, err := lockComment(ctx, q, v, req.ID)
		if err != nil {
			return etag.Tagged[api.Comment]{}, err
		}
		if c.MemberID != v.memberID {
			return etag.Tagged[api.Comment]{}, errCommentNotFound
		}
		// The comment is locked: its version is the one the UPDATE meets.
		if !match.Hits(c.Version) {
			return etag.Tagged[api.Comment]{}, etag.Failed(etag.Version(c.Version))
		}
		reason, err := reasonAfterEdit(ctx, q, c.BlockReason, body)
		if err != nil {
			return etag.Tagged[api.Comment]{}, err
		}
		n, err := q.UpdateComment(ctx, db.UpdateCommentParams{ID: c.ID, Body: body, BlockReason: reason, Now: now, IfVersions: match.Versions()})
		if err != nil {
			return etag.Tagged[api.Comment]{}, fmt.Errorf("update comment %d: %w", c.ID, err)
		}
		if n == 0 {
			return etag.Tagged[api.Comment]{}, etag.Failed(etag.Version(c.Version))
		}
		return readCommentTagged(ctx, q, v, c.ID, now)
	})
	if err != nil {
		return nil, err
	}
	return api.UpdateComment200JSONResponse{Body: out.Body, Headers: api.UpdateComment200ResponseHeaders{ETag: etag.Ptr(out.ETag)}}, nil
}

// DeleteComment deletes a comment (its author's, or any for
// administrators), at the version If-Match names (none: any).
func (h *BoardHandler) DeleteComment(ctx context.Context, req api.DeleteCommentRequestObject) (api.DeleteCommentResponseObject, error) {
	v := h.viewerOf(ctx)
	match := etag.Parse(req.Params.IfMatch)
	err := database.InTx(ctx, h.pool, func(q *db.Queries) error {
		// The post first: deleting the comment updates the post's count, and
		// deleting the post locks its comments, so both take post then comment.
		found, err := q.GetComment(ctx, req.ID)
		if err := database.NoRows(err, errCommentNotFound, fmt.Sprintf("read comment %d", req.ID)); err != nil {
			return err
		}
		if _, err := lockPost(ctx, q, v, found.Comment.PostID); err == errPostNotFound {
			return errCommentNotFound
		} else if err != nil {
			return err
		}
		c, err := lockComment(ctx, q, v, req.ID)
		if err != nil {
			return err
		}
		if c.MemberID != v.memberID && !v.admin {
			return errCommentNotFound
		}
		if !match.Hits(c.Version) {
			return etag.Failed(etag.Version(c.Version))
		}
		n, err := q.DeleteComment(ctx, db.DeleteCommentParams{ID: c.ID, IfVersions: match.Versions()})
		if err != nil {
			return fmt.Errorf("delete comment %d: %w", c.ID, err)
		}
		if n == 0 {
			return etag.Failed(etag.Version(c.Version))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return api.DeleteComment204Response{}, nil
}
