package board_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

func TestTagGroups(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.NewMember(apitest.AsAdmin())
	m := env.NewMember()

	var saving, all api.TagGroup
	admin.Do(http.MethodPost, "/api/admin/tag-groups", api.TagGroupRequest{
		Name: "Saving", Tags: []string{" budget", "budget", "challenge"}, Boards: []api.BoardCategory{"saving", "tips", "saving"},
	}).Want(http.StatusCreated).JSON(&saving)
	if saving.Name != "Saving" || !slices.Equal(saving.Tags, []string{"budget", "challenge"}) || !slices.Equal(saving.Boards, []api.BoardCategoryValue{api.BoardCategoryValueSaving, api.BoardCategoryValueTips}) {
		t.Fatalf("created %+v", saving)
	}
	admin.Do(http.MethodPost, "/api/admin/tag-groups", api.TagGroupRequest{Name: "Everywhere", Tags: []string{"hello"}, Boards: []api.BoardCategory{}}).
		Want(http.StatusCreated).JSON(&all)

	groups := func(query string) []int64 {
		var list api.TagGroupList
		env.Client().Do(http.MethodGet, "/api/board/tag-groups"+query, nil).Want(http.StatusOK).JSON(&list)
		var out []int64
		for _, g := range list.Items {
			out = append(out, g.ID)
		}
		return out
	}
	if got := groups("?category=saving"); !slices.Equal(got, []int64{saving.ID, all.ID}) {
		t.Fatalf("saving board: %v", got)
	}
	if got := groups("?category=community"); !slices.Equal(got, []int64{all.ID}) {
		t.Fatalf("community board: %v", got)
	}
	if got := groups(""); !slices.Equal(got, []int64{saving.ID, all.ID}) {
		t.Fatalf("all: %v", got)
	}

	var updated api.TagGroup
	admin.Do(http.MethodPut, fmt.Sprintf("/api/admin/tag-groups/%d", saving.ID), api.TagGroupRequest{
		Name: "Community", Tags: []string{}, Boards: []api.BoardCategory{"community"},
	}).Want(http.StatusOK).JSON(&updated)
	if updated.Name != "Community" || !slices.Equal(updated.Boards, []api.BoardCategoryValue{api.BoardCategoryValueCommunity}) {
		t.Fatalf("updated %+v", updated)
	}
	if got := groups("?category=saving"); !slices.Equal(got, []int64{all.ID}) {
		t.Fatalf("saving board after the update: %v", got)
	}
	var list api.TagGroupList
	admin.Do(http.MethodGet, "/api/admin/tag-groups", nil).Want(http.StatusOK).JSON(&list)
	if len(list.Items) != 2 {
		t.Fatalf("admin list %+v", list)
	}
	admin.Do(http.MethodDelete, fmt.Sprintf("/api/admin/tag-groups/%d", saving.ID), nil).Want(http.StatusNoContent)
	admin.Do(http.MethodDelete, fmt.Sprintf("/api/admin/tag-groups/%d", saving.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	admin.Do(http.MethodPut, fmt.Sprintf("/api/admin/tag-groups/%d", saving.ID), api.TagGroupRequest{Name: "x", Tags: []string{}, Boards: []api.BoardCategory{}}).
		WantProblem(http.StatusNotFound, "NOT_FOUND")

	m.Do(http.MethodPost, "/api/admin/tag-groups", api.TagGroupRequest{Name: "x", Tags: []string{}, Boards: []api.BoardCategory{}}).
		WantProblem(http.StatusForbidden, "FORBIDDEN")
	for _, bad := range []any{
		api.TagGroupRequest{Name: "", Tags: []string{}, Boards: []api.BoardCategory{}},
		api.TagGroupRequest{Name: "a\x00", Tags: []string{}, Boards: []api.BoardCategory{}},
		api.TagGroupRequest{Name: "n", Tags: []string{"\x07"}, Boards: []api.BoardCategory{}},
		map[string]any{"name": "n", "tags": []string{}, "boards": []string{"news"}},
	} {
		admin.Raw().Do(http.MethodPost, "/api/admin/tag-groups", bad).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	}
}
