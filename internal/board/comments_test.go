package board_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

func TestCommentsOrderEditDeleteAndMine(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	author := env.NewMember()
	other := env.NewMember()
	admin := env.NewMember(apitest.AsAdmin())
	p := post(t, author, api.BoardCategorySaving, "talk")
	var cs []api.Comment
	for i := range 4 {
		env.Clock.Advance(time.Minute)
		cs = append(cs, comment(t, other, p.ID, fmt.Sprint("comment ", i)))
	}
	env.Exec(`UPDATE comment SET up_count = 50 WHERE id = $1`, cs[2].ID)
	var page api.CommentPage
	env.Client().Do(http.MethodGet, fmt.Sprintf("/api/board/posts/%d/comments?size=3", p.ID), nil).Want(http.StatusOK).JSON(&page)
	var got []int64
	for _, c := range page.Items {
		got = append(got, c.ID)
	}
	if want := []int64{cs[2].ID, cs[0].ID, cs[1].ID}; !slices.Equal(got, want) || page.Total != 4 || !page.Items[0].Hot {
		t.Fatalf("first page %v (total %d), want %v with the hot one first", got, page.Total, want)
	}
	var read api.Post
	env.Client().Do(http.MethodGet, fmt.Sprintf("/api/board/posts/%d", p.ID), nil).Want(http.StatusOK).JSON(&read)
	if read.CommentCount != 4 {
		t.Fatalf("comment count %d", read.CommentCount)
	}
	// A day later the hot comment is back in its place.
	env.Clock.Advance(25 * time.Hour)
	env.Client().Do(http.MethodGet, fmt.Sprintf("/api/board/posts/%d/comments", p.ID), nil).Want(http.StatusOK).JSON(&page)
	if page.Items[2].ID != cs[2].ID || page.Items[2].Hot {
		t.Fatalf("a day later %+v", page.Items)
	}

	// Edit: the author only.
	path := fmt.Sprintf("/api/board/comments/%d", cs[0].ID)
	author.Do(http.MethodPut, path, api.CommentRequest{Body: "hijack"}).WantProblem(http.StatusNotFound, "NOT_FOUND")
	var c api.Comment
	other.Do(http.MethodPut, path, api.CommentRequest{Body: "edited"}).Want(http.StatusOK).JSON(&c)
	if deref(c.Body) != "edited" {
		t.Fatalf("edited %+v", c)
	}
	other.Raw().Do(http.MethodPut, path, api.CommentRequest{Body: strings.Repeat("x", 2001)}).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	other.Raw().Do(http.MethodPut, path, api.CommentRequest{Body: "a\x00"}).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	other.Raw().Do(http.MethodPut, path, api.CommentRequest{Body: " \n "}).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")

	var mine api.CommentPage
	other.Do(http.MethodGet, "/api/board/my/comments", nil).Want(http.StatusOK).JSON(&mine)
	if mine.Total != 4 || deref(mine.Items[0].PostTitle) != "talk" || deref(mine.Items[0].PostCategory) != "saving" {
		t.Fatalf("my comments %+v", mine)
	}

	// Delete: the author or an administrator; the post's count follows.
	author.Do(http.MethodDelete, path, nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	other.Do(http.MethodDelete, path, nil).Want(http.StatusNoContent)
	admin.Do(http.MethodDelete, fmt.Sprintf("/api/board/comments/%d", cs[1].ID), nil).Want(http.StatusNoContent)
	other.Do(http.MethodDelete, path, nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	env.Client().Do(http.MethodGet, fmt.Sprintf("/api/board/posts/%d", p.ID), nil).Want(http.StatusOK).JSON(&read)
	if read.CommentCount != 2 {
		t.Fatalf("comment count after deletions %d", read.CommentCount)
	}
	other.Do(http.MethodPost, "/api/board/posts/987654/comments", api.CommentRequest{Body: "x"}).WantProblem(http.StatusNotFound, "NOT_FOUND")
}

// TestWritingPointsAreCappedUnderParallelWrites: 50 parallel posts and
// comments earn exactly the daily 50.
func TestWritingPointsAreCappedUnderParallelWrites(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	p := post(t, m, api.BoardCategoryCommunity, "first")
	answers := apitest.TogetherV(50, func(i int) *apitest.Response {
		if i%2 == 0 {
			return m.Do(http.MethodPost, "/api/board/posts", api.PostRequest{Category: "tips", Title: "t", Body: "b"})
		}
		return m.Do(http.MethodPost, fmt.Sprintf("/api/board/posts/%d/comments", p.ID), api.CommentRequest{Body: "c"})
	})
	for i, r := range answers {
		if r.Status != http.StatusCreated {
			t.Errorf("write %d answered %d: %s", i, r.Status, r.Body)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	if b := balance(t, m); b != 50 {
		t.Fatalf("balance %d, want 50", b)
	}
	var history api.PointHistory
	m.Do(http.MethodGet, "/api/auth/point-history", nil).Want(http.StatusOK).JSON(&history)
	if len(history.Items) != 5 {
		t.Fatalf("%d history rows, want 5", len(history.Items))
	}
	var read api.Post
	m.Do(http.MethodGet, fmt.Sprintf("/api/board/posts/%d", p.ID), nil).Want(http.StatusOK).JSON(&read)
	if read.CommentCount != 25 {
		t.Fatalf("comment count %d, want 25", read.CommentCount)
	}
}
