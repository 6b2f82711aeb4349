package board

import (
	"context"
	"fmt"
	"net/http"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/points"
	"github.com/nestegg/nestegg/internal/problem"
)

// reportsToBlock is the report that blocks a post or comment (SPEC.md 8).
const reportsToBlock = 5

var (
	errSelfReport      = problem.New(http.StatusBadRequest, problem.CodeSelfReport, "you cannot report your own content")
	errAlreadyReported = problem.Conflict(problem.CodeAlreadyReported, "you have already reported this")
)

// ReportPost reports a post; the fifth report blocks it.
func (h *BoardHandler) ReportPost(ctx context.Context, req api.ReportPostRequestObject) (api.ReportPostResponseObject, error) {
	v := h.viewerOf(ctx)
	now := h.now()
	err := database.InTx(ctx, h.pool, func(q *db.Queries) error {
		// database.LockOrder: the reporter's member row before the post
		// (the reporter's deletion goes member, then post).
		if err := points.LockSelfTx(ctx, q, v.memberID); err != nil {
			return err
		}
		post, err := lockPost(ctx, q, v, req.ID)
		if err != nil {
			return err
		}
		if post.MemberID == v.memberID {
			return errSelfReport
		}
		n, err := q.InsertPostReport(ctx, db.InsertPostReportParams{MemberID: v.memberID, PostID: post.ID, Now: now})
		if err != nil {
			return fmt.Errorf("report post %d: %w", post.ID, err)
		}
		if n == 0 {
			return errAlreadyReported
		}
		// The post row is locked, so its count is read back exactly; the
		// trigger of the insert has already added this report.
		if post.BlockReason == nil && post.ReportCount+1 >= reportsToBlock {
			reason := blockedByReports
			if err := q.SetPostBlockReason(ctx, db.SetPostBlockReasonParams{ID: post.ID, BlockReason: &reason}); err != nil {
				return fmt.Errorf("block post %d: %w", post.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return api.ReportPost204Response{}, nil
}

// ReportComment reports a comment; the fifth report blocks it.
func (h *BoardHandler) ReportComment(ctx context.Context, req api.ReportCommentRequestObject) (api.ReportCommentResponseObject, error) {
	v := h.viewerOf(ctx)
	now := h.now()
	err := database.InTx(ctx, h.pool, func(q *db.Queries) error {
		// As ReportPost: the reporter before the comment.
		if err := points.LockSelfTx(ctx, q, v.memberID); err != nil {
			return err
		}
		c, err := lockComment(ctx, q, v, req.ID)
		if err != nil {
			return err
		}
		if c.MemberID == v.memberID {
			return errSelfReport
		}
		n, err := q.InsertCommentReport(ctx, db.InsertCommentReportParams{MemberID: v.memberID, CommentID: c.ID, Now: now})
		if err != nil {
			return fmt.Errorf("report comment %d: %w", c.ID, err)
		}
		if n == 0 {
			return errAlreadyReported
		}
		if c.BlockReason == nil && c.ReportCount+1 >= reportsToBlock {
			reason := blockedByReports
			if err := q.SetCommentBlockReason(ctx, db.SetCommentBlockReasonParams{ID: c.ID, BlockReason: &reason}); err != nil {
				return fmt.Errorf("block comment %d: %w", c.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return api.ReportComment204Response{}, nil
}

// ListReports answers a page of reported or blocked posts and comments, most
// reported first.
func (h *BoardHandler) ListReports(ctx context.Context, req api.ListReportsRequestObject) (api.ListReportsResponseObject, error) {
	p := pagingOf(req.Params.Page, req.Params.Size)
	page, err := ListReports(ctx, db.New(h.pool), h.viewerOf(ctx), p)
	if err != nil {
		return nil, err
	}
	return api.ListReports200JSONResponse(page), nil
}

// ListReports reads a page of the report list: the targets in one query,
// then their posts and comments in one query each.
func ListReports(ctx context.Context, q *db.Queries, v viewer, p paging) (api.ReportedItemPage, error) {
	total, err := q.CountReportedTargets(ctx)
	if err != nil {
		return api.ReportedItemPage{}, fmt.Errorf("count reported targets: %w", err)
	}
	targets, err := q.ListReportedTargets(ctx, db.ListReportedTargetsParams{Lim: p.size, Off: p.offset()})
	if err != nil {
		return api.ReportedItemPage{}, fmt.Errorf("list reported targets: %w", err)
	}
	var postIDs, commentIDs []int64
	for _, t := range targets {
		if t.TargetType == string(api.ReportTargetTypePost) {
			postIDs = append(postIDs, t.TargetID)
		} else {
			commentIDs = append(commentIDs, t.TargetID)
		}
	}
	posts, err := q.ListReportedPosts(ctx, postIDs)
	if err != nil {
		return api.ReportedItemPage{}, fmt.Errorf("read reported posts: %w", err)
	}
	comments, err := q.ListCommentsByIDs(ctx, commentIDs)
	if err != nil {
		return api.ReportedItemPage{}, fmt.Errorf("read reported comments: %w", err)
	}
	byKey := map[string]api.ReportedItem{}
	for _, r := range posts {
		pp := r.Post
		byKey[fmt.Sprint("POST", pp.ID)] = api.ReportedItem{
			TargetType: api.ReportTargetTypeValue(string(api.ReportTargetTypePost)), TargetID: pp.ID, PostID: pp.ID,
			Category: api.BoardCategoryValue(pp.Category), Title: pp.Title, Body: pp.Body,
			Author:      v.author(pp.MemberID, r.AuthorName, r.AuthorAvatar),
			ReportCount: pp.ReportCount, Blocked: pp.BlockReason != nil, BlockReason: (*api.BlockReasonValue)(pp.BlockReason), CreatedAt: pp.CreatedAt,
		}
	}
	for _, r := range comments {
		c := r.Comment
		byKey[fmt.Sprint("COMMENT", c.ID)] = api.ReportedItem{
			TargetType: api.ReportTargetTypeValue(string(api.ReportTargetTypeComment)), TargetID: c.ID, PostID: c.PostID,
			Category: api.BoardCategoryValue(r.PostCategory), Title: r.PostTitle, Body: c.Body,
			Author:      v.author(c.MemberID, r.AuthorName, r.AuthorAvatar),
			ReportCount: c.ReportCount, Blocked: c.BlockReason != nil, BlockReason: (*api.BlockReasonValue)(c.BlockReason), CreatedAt: c.CreatedAt,
		}
	}
	items := make([]api.ReportedItem, 0, len(targets))
	for _, t := range targets {
		// A target deleted between the two reads is left out of this page.
		if item, ok := byKey[fmt.Sprint(t.TargetType, t.TargetID)]; ok {
			items = append(items, item)
		}
	}
	return api.ReportedItemPage{Items: items, Page: p.page, Size: p.size, Total: total}, nil
}

// DismissReports clears a target's reports and lifts its block.
func (h *BoardHandler) DismissReports(ctx context.Context, req api.DismissReportsRequestObject) (api.DismissReportsResponseObject, error) {
	admin := h.viewerOf(ctx)
	err := database.InTx(ctx, h.pool, func(q *db.Queries) error {
		switch req.Body.TargetType {
		case api.ReportTargetTypePost:
			post, err := lockPost(ctx, q, admin, req.Body.TargetID)
			if err != nil {
				return err
			}
			if err := q.DeletePostReports(ctx, post.ID); err != nil {
				return fmt.Errorf("dismiss reports of post %d: %w", post.ID, err)
			}
			return q.SetPostBlockReason(ctx, db.SetPostBlockReasonParams{ID: post.ID})
		case api.ReportTargetTypeComment:
			c, err := lockComment(ctx, q, admin, req.Body.TargetID)
			if err != nil {
				return err
			}
			if err := q.DeleteCommentReports(ctx, c.ID); err != nil {
				return fmt.Errorf("dismiss reports of comment %d: %w", c.ID, err)
			}
			return q.SetCommentBlockReason(ctx, db.SetCommentBlockReasonParams{ID: c.ID})
		}
		return problem.Invalid("/targetType", "must be POST or COMMENT")
	})
	if err != nil {
		return nil, err
	}
	return api.DismissReports204Response{}, nil
}
