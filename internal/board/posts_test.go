package board_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

func TestPostLifecycle(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	author := env.NewMember(apitest.WithName("Minji"))
	other := env.NewMember()
	admin := env.NewMember(apitest.AsAdmin())

	tags := []string{" budget ", "food", "budget"}
	notice := true
	var p api.Post
	author.Do(http.MethodPost, "/api/board/posts", api.CreatePostJSONRequestBody{
		Category: api.BoardCategorySaving, Title: "  Saved a lot ", Body: "line one\nline two", Tags: &tags, Notice: &notice,
	}).Want(http.StatusCreated).JSON(&p)
	if p.Title != "Saved a lot" || p.Category != "saving" || p.Notice || p.Blocked || p.Author.Name != "Minji" ||
		p.Author.ID != author.ID || strings.Join(p.Tags, ",") != "budget,food" || p.MyVote != nil || p.BlockReason != nil {
		t.Fatalf("created %+v", p)
	}
	if got := balance(t, author); got != 10 {
		t.Fatalf("points after writing: %d, want 10", got)
	}

	// Public read without a session, with recommenders.
	var got api.Post
	env.Client().Do(http.MethodGet, fmt.Sprintf("/api/board/posts/%d", p.ID), nil).Want(http.StatusOK).JSON(&got)
	if got.ID != p.ID || got.Recommenders == nil || len(*got.Recommenders) != 0 {
		t.Fatalf("read %+v", got)
	}
	vote(t, other, fmt.Sprintf("/api/board/posts/%d/vote", p.ID), api.VoteDirectionUp)
	other.Do(http.MethodGet, fmt.Sprintf("/api/board/posts/%d", p.ID), nil).Want(http.StatusOK).JSON(&got)
	if got.UpCount != 1 || deref(got.MyVote) != "UP" || len(*got.Recommenders) != 1 || (*got.Recommenders)[0].ID != other.ID {
		t.Fatalf("after an up-vote: %+v", got)
	}
	var voters api.AuthorPage
	env.Client().Do(http.MethodGet, fmt.Sprintf("/api/board/posts/%d/recommenders", p.ID), nil).Want(http.StatusOK).JSON(&voters)
	if voters.Total != 1 || voters.Items[0].ID != other.ID {
		t.Fatalf("recommenders %+v", voters)
	}

	// Only the author edits; another member's post is a 404.
	edit := api.UpdatePostJSONRequestBody{Category: api.BoardCategoryTips, Title: "Edited", Body: "new body"}
	other.Do(http.MethodPut, fmt.Sprintf("/api/board/posts/%d", p.ID), edit).WantProblem(http.StatusNotFound, "NOT_FOUND")
	author.Do(http.MethodPut, fmt.Sprintf("/api/board/posts/%d", p.ID), edit).Want(http.StatusOK).JSON(&got)
	if got.Title != "Edited" || got.Category != "tips" || len(got.Tags) != 0 {
		t.Fatalf("edited %+v", got)
	}
	if balance(t, author) != 15 {
		t.Fatalf("editing changed points: %d", balance(t, author))
	}

	// The author and administrators delete; others get 404.
	other.Do(http.MethodDelete, fmt.Sprintf("/api/board/posts/%d", p.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	author.Do(http.MethodDelete, fmt.Sprintf("/api/board/posts/%d", p.ID), nil).Want(http.StatusNoContent)
	env.Client().Do(http.MethodGet, fmt.Sprintf("/api/board/posts/%d", p.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	p2 := post(t, author, api.BoardCategoryCommunity, "second")
	admin.Do(http.MethodDelete, fmt.Sprintf("/api/board/posts/%d", p2.ID), nil).Want(http.StatusNoContent)

	// A notice flag at creation counts for administrators only.
	admin.Do(http.MethodPost, "/api/board/posts", api.CreatePostJSONRequestBody{
		Category: api.BoardCategoryCommunity, Title: "Rules", Body: "Be kind", Notice: &notice,
	}).Want(http.StatusCreated).JSON(&got)
	if !got.Notice {
		t.Fatal("an administrator's notice flag was ignored")
	}
}

func TestPostNoticeToggle(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	admin := env.NewMember(apitest.AsAdmin())
	p := post(t, m, api.BoardCategoryCommunity, "to be a notice")
	var got api.Post
	admin.Do(http.MethodPost, fmt.Sprintf("/api/board/posts/%d/notice", p.ID), nil).Want(http.StatusOK).JSON(&got)
	if !got.Notice {
		t.Fatal("notice not set")
	}
	page := listPosts(t, m.Client, "")
	if len(page.Items) != 1 || !page.Items[0].Notice {
		t.Fatalf("list %+v", page)
	}
	admin.Do(http.MethodPost, fmt.Sprintf("/api/board/posts/%d/unnotice", p.ID), nil).Want(http.StatusOK).JSON(&got)
	if got.Notice {
		t.Fatal("notice not cleared")
	}
	m.Do(http.MethodPost, fmt.Sprintf("/api/board/posts/%d/notice", p.ID), nil).WantProblem(http.StatusForbidden, "FORBIDDEN")
	admin.Do(http.MethodPost, "/api/board/posts/999999/notice", nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
}

func TestPostBadInput(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	long := func(n int) string { return strings.Repeat("가", n) }
	tooManyTags := make([]string, 11)
	for i := range tooManyTags {
		tooManyTags[i] = fmt.Sprint("t", i)
	}
	foreign := []string{"https://evil.example/x.png"}
	notMine := []string{env.Config.PublicBaseURL + "/api/images/0b5c8c0e-6f5e-4a57-9f0e-0d5d0a3e9f11"}
	cases := []struct {
		name  string
		body  api.PostRequest
		field string
	}{
		{"empty title", api.PostRequest{Category: "saving", Title: "", Body: "b"}, "/title"},
		{"blank title", api.PostRequest{Category: "saving", Title: "   ", Body: "b"}, "/title"},
		{"long title", api.PostRequest{Category: "saving", Title: long(101), Body: "b"}, "/title"},
		{"NUL title", api.PostRequest{Category: "saving", Title: "a\x00b", Body: "b"}, "/title"},
		{"control title", api.PostRequest{Category: "saving", Title: "a\x1bb", Body: "b"}, "/title"},
		{"empty body", api.PostRequest{Category: "saving", Title: "t", Body: ""}, "/body"},
		{"long body", api.PostRequest{Category: "saving", Title: "t", Body: long(20001)}, "/body"},
		{"NUL body", api.PostRequest{Category: "saving", Title: "t", Body: "a\x00"}, "/body"},
		{"bad category", api.PostRequest{Category: "news", Title: "t", Body: "b"}, "/category"},
		{"too many tags", api.PostRequest{Category: "saving", Title: "t", Body: "b", Tags: &tooManyTags}, "/tags"},
		{"foreign image", api.PostRequest{Category: "saving", Title: "t", Body: "b", ImageUrls: &foreign}, "/imageUrls/0"},
		{"someone else's image", api.PostRequest{Category: "saving", Title: "t", Body: "b", ImageUrls: &notMine}, "/imageUrls"},
	}
	for _, c := range cases {
		p := m.Raw().Do(http.MethodPost, "/api/board/posts", c.body).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		if len(p.Errors) == 0 || !strings.HasPrefix(p.Errors[0].Field, c.field) {
			t.Errorf("%s: errors %+v, want field %s", c.name, p.Errors, c.field)
		}
	}
	// 100 characters of a multi-byte script are fine.
	m.Do(http.MethodPost, "/api/board/posts", api.PostRequest{Category: "saving", Title: long(100), Body: long(20000)}).Want(http.StatusCreated)
	if balance(t, m) != 10 {
		t.Fatal("refused posts earned points")
	}
}
