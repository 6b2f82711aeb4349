package board_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

func TestFifthReportBlocksAPostUntilDismissed(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	author := env.NewMember()
	admin := env.NewMember(apitest.AsAdmin())
	p := post(t, author, api.BoardCategoryCommunity, "reported")
	path := fmt.Sprintf("/api/board/posts/%d", p.ID)

	author.Do(http.MethodPost, path+"/report", nil).WantProblem(http.StatusBadRequest, "SELF_REPORT")
	reporters := make([]*apitest.Member, 5)
	for i := range reporters {
		reporters[i] = env.NewMember()
	}
	for i, r := range reporters[:4] {
		r.Do(http.MethodPost, path+"/report", nil).Want(http.StatusNoContent)
		if i == 0 {
			r.Do(http.MethodPost, path+"/report", nil).WantProblem(http.StatusConflict, "ALREADY_REPORTED")
		}
	}
	env.Client().Do(http.MethodGet, path, nil).Want(http.StatusOK)
	reporters[4].Do(http.MethodPost, path+"/report", nil).Want(http.StatusNoContent)

	// Blocked: 404 to members and anonymous readers, out of the list.
	env.Client().Do(http.MethodGet, path, nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	author.Do(http.MethodGet, path, nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	author.Do(http.MethodGet, path+"/comments", nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	if res := listPosts(t, env.Client(), ""); res.Total != 0 {
		t.Fatalf("a blocked post is listed: %+v", res)
	}
	var got api.Post
	admin.Do(http.MethodGet, path, nil).Want(http.StatusOK).JSON(&got)
	if !got.Blocked || deref(got.BlockReason) != "REPORTS" {
		t.Fatalf("administrator reads %+v", got)
	}
	var mine api.PostPage
	author.Do(http.MethodGet, "/api/board/my/posts", nil).Want(http.StatusOK).JSON(&mine)
	if mine.Total != 1 || !mine.Items[0].Blocked || mine.Items[0].BlockReason != nil {
		t.Fatalf("my posts %+v", mine)
	}

	var reports api.ReportedItemPage
	admin.Do(http.MethodGet, "/api/board/reports", nil).Want(http.StatusOK).JSON(&reports)
	if reports.Total != 1 || reports.Items[0].TargetID != p.ID || reports.Items[0].ReportCount != 5 ||
		reports.Items[0].TargetType != "POST" || deref(reports.Items[0].BlockReason) != "REPORTS" {
		t.Fatalf("reports %+v", reports)
	}
	author.Do(http.MethodGet, "/api/board/reports", nil).WantProblem(http.StatusForbidden, "FORBIDDEN")

	admin.Do(http.MethodPost, "/api/board/reports/dismiss", api.DismissRequest{TargetType: api.ReportTargetTypePost, TargetID: p.ID}).
		Want(http.StatusNoContent)
	env.Client().Do(http.MethodGet, path, nil).Want(http.StatusOK).JSON(&got)
	if got.Blocked {
		t.Fatal("still blocked after dismissal")
	}
	admin.Do(http.MethodGet, "/api/board/reports", nil).Want(http.StatusOK).JSON(&reports)
	if reports.Total != 0 {
		t.Fatalf("reports after dismissal %+v", reports)
	}
	// Reports start over after a dismissal.
	reporters[0].Do(http.MethodPost, path+"/report", nil).Want(http.StatusNoContent)
	admin.Do(http.MethodPost, "/api/board/reports/dismiss", api.DismissRequest{TargetType: api.ReportTargetTypePost, TargetID: 987654}).
		WantProblem(http.StatusNotFound, "NOT_FOUND")
}

func TestFifthReportHidesACommentsBody(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	author := env.NewMember()
	admin := env.NewMember(apitest.AsAdmin())
	p := post(t, author, api.BoardCategoryCommunity, "with comments")
	first := comment(t, author, p.ID, "first")
	bad := comment(t, author, p.ID, "bad words")
	path := fmt.Sprintf("/api/board/comments/%d/report", bad.ID)
	author.Do(http.MethodPost, path, nil).WantProblem(http.StatusBadRequest, "SELF_REPORT")
	for range 5 {
		env.NewMember().Do(http.MethodPost, path, nil).Want(http.StatusNoContent)
	}
	var page api.CommentPage
	env.Client().Do(http.MethodGet, fmt.Sprintf("/api/board/posts/%d/comments", p.ID), nil).Want(http.StatusOK).JSON(&page)
	if page.Total != 2 || page.Items[0].ID != first.ID || page.Items[1].ID != bad.ID {
		t.Fatalf("comments %+v", page)
	}
	if c := page.Items[1]; !c.Blocked || c.Body != nil || c.BlockReason != nil {
		t.Fatalf("blocked comment shown as %+v", c)
	}
	admin.Do(http.MethodGet, fmt.Sprintf("/api/board/posts/%d/comments", p.ID), nil).Want(http.StatusOK).JSON(&page)
	if c := page.Items[1]; deref(c.Body) != "bad words" || deref(c.BlockReason) != "REPORTS" {
		t.Fatalf("administrator sees %+v", c)
	}
	var reports api.ReportedItemPage
	admin.Do(http.MethodGet, "/api/board/reports", nil).Want(http.StatusOK).JSON(&reports)
	if reports.Total != 1 || reports.Items[0].TargetType != "COMMENT" || reports.Items[0].PostID != p.ID || reports.Items[0].Title != p.Title {
		t.Fatalf("reports %+v", reports)
	}
	admin.Do(http.MethodPost, "/api/board/reports/dismiss", api.DismissRequest{TargetType: api.ReportTargetTypeComment, TargetID: bad.ID}).
		Want(http.StatusNoContent)
	env.Client().Do(http.MethodGet, fmt.Sprintf("/api/board/posts/%d/comments", p.ID), nil).Want(http.StatusOK).JSON(&page)
	if c := page.Items[1]; c.Blocked || deref(c.Body) != "bad words" {
		t.Fatalf("after dismissal %+v", c)
	}
}

func TestSpamKeywordsBlockAtWritingAndEditing(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	admin := env.NewMember(apitest.AsAdmin())
	var kw api.SpamKeywords
	admin.Do(http.MethodGet, "/api/admin/spam-keywords", nil).Want(http.StatusOK).JSON(&kw)
	if len(kw.Keywords) != 0 {
		t.Fatalf("keywords before any are set: %v", kw.Keywords)
	}
	admin.Do(http.MethodPut, "/api/admin/spam-keywords", api.SpamKeywords{Keywords: []string{" Casino ", "CASINO", "ÄPFEL", "  "}}).
		Want(http.StatusOK).JSON(&kw)
	if len(kw.Keywords) != 2 || kw.Keywords[0] != "Casino" || kw.Keywords[1] != "ÄPFEL" {
		t.Fatalf("stored keywords %v", kw.Keywords)
	}
	m.Do(http.MethodPut, "/api/admin/spam-keywords", api.SpamKeywords{Keywords: []string{}}).WantProblem(http.StatusForbidden, "FORBIDDEN")
	admin.Raw().Do(http.MethodPut, "/api/admin/spam-keywords", api.SpamKeywords{Keywords: []string{"a\x00b"}}).
		WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")

	var p api.Post
	m.Do(http.MethodPost, "/api/board/posts", api.PostRequest{Category: "community", Title: "Best cAsInO in town", Body: "come"}).
		Want(http.StatusCreated).JSON(&p)
	if !p.Blocked || p.BlockReason != nil {
		t.Fatalf("spam post %+v", p)
	}
	if b := balance(t, m); b != 0 {
		t.Fatalf("a spam post earned %d points", b)
	}
	env.Client().Do(http.MethodGet, fmt.Sprintf("/api/board/posts/%d", p.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")

	clean := post(t, m, api.BoardCategoryCommunity, "clean")
	var c api.Comment
	m.Do(http.MethodPost, fmt.Sprintf("/api/board/posts/%d/comments", clean.ID), api.CommentRequest{Body: "I like äpfel"}).
		Want(http.StatusCreated).JSON(&c)
	if !c.Blocked || deref(c.Body) != "I like äpfel" {
		t.Fatalf("spam comment %+v", c)
	}
	if b := balance(t, m); b != 10 {
		t.Fatalf("balance %d, want 10 (the clean post only)", b)
	}

	var reports api.ReportedItemPage
	admin.Do(http.MethodGet, "/api/board/reports", nil).Want(http.StatusOK).JSON(&reports)
	if reports.Total != 2 || deref(reports.Items[0].BlockReason) != "SPAM" || reports.Items[0].ReportCount != 0 {
		t.Fatalf("report list %+v", reports)
	}

	// Editing re-checks: clean text lifts a spam block, spam text blocks.
	m.Do(http.MethodPut, fmt.Sprintf("/api/board/comments/%d", c.ID), api.CommentRequest{Body: "I like pears"}).Want(http.StatusOK).JSON(&c)
	if c.Blocked {
		t.Fatal("a clean edit left the comment blocked")
	}
	m.Do(http.MethodPut, fmt.Sprintf("/api/board/posts/%d", clean.ID), api.PostRequest{Category: "community", Title: "t", Body: "casino!"}).
		Want(http.StatusOK).JSON(&p)
	if !p.Blocked {
		t.Fatal("a spam edit did not block the post")
	}
}

// TestParallelReports: ten members report at once, one of them twice at
// once. Exactly five reports land: the fifth blocks the post, which then
// answers 404 to the later reporters (409 to a repeated click that came
// before the block).
func TestParallelReports(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	author := env.NewMember()
	admin := env.NewMember(apitest.AsAdmin())
	p := post(t, author, api.BoardCategoryCommunity, "contested")
	path := fmt.Sprintf("/api/board/posts/%d/report", p.ID)
	reporters := make([]*apitest.Member, 10)
	for i := range reporters {
		reporters[i] = env.NewMember()
	}
	// The first reporter clicks twice.
	clicks := append([]*apitest.Member{reporters[0]}, reporters...)
	answers := apitest.TogetherV(len(clicks), func(i int) *apitest.Response {
		return clicks[i].Do(http.MethodPost, path, nil)
	})
	counts := map[int]int{}
	for _, r := range answers {
		counts[r.Status]++
	}
	if counts[http.StatusNoContent] != 5 || counts[http.StatusNotFound]+counts[http.StatusConflict] != 6 {
		t.Fatalf("answers %v, want 5 × 204 and 6 × 404 or 409", counts)
	}
	var reports api.ReportedItemPage
	admin.Do(http.MethodGet, "/api/board/reports", nil).Want(http.StatusOK).JSON(&reports)
	if reports.Total != 1 || reports.Items[0].ReportCount != 5 || deref(reports.Items[0].BlockReason) != "REPORTS" {
		t.Fatalf("reports %+v", reports)
	}
}
