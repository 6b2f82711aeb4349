package board_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

// TestDeletingAMemberKeepsCountsRight: a deleted member's votes, comments
// and reports leave other members' content with the right counts.
func TestDeletingAMemberKeepsCountsRight(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	author := env.NewMember()
	leaver := env.NewMember()
	stayer := env.NewMember()
	p := post(t, author, api.BoardCategoryCommunity, "stays")
	c := comment(t, author, p.ID, "stays too")
	for _, m := range []*apitest.Member{leaver, stayer} {
		vote(t, m, fmt.Sprintf("/api/board/posts/%d/vote", p.ID), api.VoteDirectionUp)
		vote(t, m, fmt.Sprintf("/api/board/comments/%d/vote", c.ID), api.VoteDirectionDown)
		comment(t, m, p.ID, "by a voter")
		m.Do(http.MethodPost, fmt.Sprintf("/api/board/posts/%d/report", p.ID), nil).Want(http.StatusNoContent)
	}
	own := post(t, leaver, api.BoardCategoryCommunity, "goes")
	comment(t, stayer, own.ID, "under a post that goes")

	leaver.Do(http.MethodDelete, "/api/auth/me", nil).Want(http.StatusNoContent)

	var got api.Post
	env.Client().Do(http.MethodGet, fmt.Sprintf("/api/board/posts/%d", p.ID), nil).Want(http.StatusOK).JSON(&got)
	if got.UpCount != 1 || got.CommentCount != 2 || len(*got.Recommenders) != 1 {
		t.Fatalf("after the deletion: up %d comments %d recommenders %d", got.UpCount, got.CommentCount, len(*got.Recommenders))
	}
	var comments api.CommentPage
	env.Client().Do(http.MethodGet, fmt.Sprintf("/api/board/posts/%d/comments", p.ID), nil).Want(http.StatusOK).JSON(&comments)
	if comments.Total != 2 || comments.Items[0].DownCount != 1 {
		t.Fatalf("comments after the deletion %+v", comments)
	}
	var reports api.ReportedItemPage
	env.NewMember(apitest.AsAdmin()).Do(http.MethodGet, "/api/board/reports", nil).Want(http.StatusOK).JSON(&reports)
	if reports.Total != 1 || reports.Items[0].ReportCount != 1 {
		t.Fatalf("reports after the deletion %+v", reports)
	}
	env.Client().Do(http.MethodGet, fmt.Sprintf("/api/board/posts/%d", own.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	if list := listPosts(t, env.Client(), "?category=community"); list.Total != 1 || len(list.Items) != 1 {
		t.Fatalf("list after the deletion: total %d, %d items", list.Total, len(list.Items))
	}
}
