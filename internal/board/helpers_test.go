package board_test

import (
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

// post writes a post as m and answers it.
func post(t *testing.T, m *apitest.Member, category api.BoardCategory, title string) api.Post {
	t.Helper()
	var p api.Post
	m.Do(http.MethodPost, "/api/board/posts", api.CreatePostJSONRequestBody{Category: category, Title: title, Body: "body of " + title}).
		Want(http.StatusCreated).JSON(&p)
	return p
}

func comment(t *testing.T, m *apitest.Member, postID int64, body string) api.Comment {
	t.Helper()
	var c api.Comment
	m.Do(http.MethodPost, fmt.Sprintf("/api/board/posts/%d/comments", postID), api.CreateCommentJSONRequestBody{Body: body}).
		Want(http.StatusCreated).JSON(&c)
	return c
}

func vote(t *testing.T, m *apitest.Member, path string, d api.VoteDirection) api.VoteResult {
	t.Helper()
	var r api.VoteResult
	m.Do(http.MethodPost, path, api.VotePostJSONRequestBody{Direction: d}).Want(http.StatusOK).JSON(&r)
	return r
}

func listPosts(t *testing.T, c *apitest.Client, query string) api.PostPage {
	t.Helper()
	var page api.PostPage
	c.Do(http.MethodGet, "/api/board/posts"+query, nil).Want(http.StatusOK).JSON(&page)
	return page
}

func balance(t *testing.T, m *apitest.Member) int64 {
	t.Helper()
	var p api.Points
	m.Do(http.MethodGet, "/api/auth/points", nil).Want(http.StatusOK).JSON(&p)
	return p.Points
}

func ids(posts []api.Post) []int64 {
	out := make([]int64, len(posts))
	for i, p := range posts {
		out[i] = p.ID
	}
	return out
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	// An enum (a named string type) compares with a plain string.
	if v := reflect.ValueOf(*p); v.Kind() == reflect.String {
		return v.String()
	}
	return *p
}
