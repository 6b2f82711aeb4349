package board_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

// TestPostListOrderAndPaging checks the list's sequence (notices, at most 3
// hot posts, the rest newest first) across pages, and that the hot posts
// drop back to their place by date once a day has passed.
func TestPostListOrderAndPaging(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	admin := env.NewMember(apitest.AsAdmin())

	var p [9]api.Post // p[1]..p[8], oldest first
	for i := 1; i <= 8; i++ {
		env.Clock.Advance(time.Minute)
		p[i] = post(t, m, api.BoardCategoryCommunity, fmt.Sprint("post ", i))
	}
	env.Clock.Advance(time.Minute)
	notice := true
	var n api.Post
	admin.Do(http.MethodPost, "/api/board/posts", api.CreatePostJSONRequestBody{
		Category: api.BoardCategoryCommunity, Title: "notice", Body: "rules", Notice: &notice,
	}).Want(http.StatusCreated).JSON(&n)
	other := post(t, m, api.BoardCategoryTips, "another board")

	// Up-votes arranged directly: 50 voters through the API are the vote tests' business.
	for i, up := range map[int]int{2: 50, 3: 60, 5: 70, 6: 55, 7: 49} {
		env.Exec(`UPDATE post SET up_count = $2 WHERE id = $1`, p[i].ID, up)
	}
	// Hot posts by most up-votes (5, 3, 6); post 2 is hot too but the fourth,
	// so it keeps its place by date; post 7 is one vote short.
	want := []int64{n.ID, p[5].ID, p[3].ID, p[6].ID, p[8].ID, p[7].ID, p[4].ID, p[2].ID, p[1].ID}
	var got []int64
	for page := 1; page <= 5; page++ {
		res := listPosts(t, m.Client, fmt.Sprintf("?category=community&size=2&page=%d", page))
		if res.Total != 9 || res.Page != int32(page) || res.Size != 2 {
			t.Fatalf("page %d: total %d page %d size %d", page, res.Total, res.Page, res.Size)
		}
		for _, item := range res.Items {
			wantHot := item.ID == p[2].ID || item.ID == p[3].ID || item.ID == p[5].ID || item.ID == p[6].ID
			if item.Hot != wantHot {
				t.Errorf("post %d: hot %v, want %v", item.ID, item.Hot, wantHot)
			}
		}
		got = append(got, ids(res.Items)...)
	}
	if res := listPosts(t, m.Client, "?category=community&size=2&page=6"); len(res.Items) != 0 {
		t.Fatalf("page 6 has %d posts", len(res.Items))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("pages walk %v, want %v", got, want)
	}
	// Another page size cuts the same sequence.
	var bySeven []int64
	for page := 1; page <= 2; page++ {
		bySeven = append(bySeven, ids(listPosts(t, env.Client(), fmt.Sprintf("?category=community&size=7&page=%d", page)).Items)...)
	}
	if !slices.Equal(bySeven, want) {
		t.Fatalf("pages of 7 walk %v, want %v", bySeven, want)
	}

	// Without a category every board is listed.
	if all := listPosts(t, env.Client(), "?size=100"); all.Total != 10 || !slices.Contains(ids(all.Items), other.ID) {
		t.Fatalf("all boards: %v", ids(all.Items))
	}

	// A day after post 6 was written no post is hot any more.
	env.Clock.Advance(24*time.Hour - 4*time.Minute)
	want = []int64{n.ID, p[6].ID, p[8].ID, p[7].ID, p[5].ID, p[4].ID, p[3].ID, p[2].ID, p[1].ID}
	if got := ids(listPosts(t, m.Client, "?category=community&size=20").Items); !slices.Equal(got, want) {
		t.Fatalf("a day later: %v, want %v", got, want)
	}
	env.Clock.Advance(time.Minute)
	want = []int64{n.ID, p[8].ID, p[7].ID, p[6].ID, p[5].ID, p[4].ID, p[3].ID, p[2].ID, p[1].ID}
	res := listPosts(t, m.Client, "?category=community&size=20")
	if got := ids(res.Items); !slices.Equal(got, want) {
		t.Fatalf("later still: %v, want %v", got, want)
	}
	for _, item := range res.Items {
		if item.Hot {
			t.Fatalf("post %d is still hot", item.ID)
		}
	}
}

func TestPostListFiltersByTag(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	tags := []string{"food"}
	var tagged api.Post
	m.Do(http.MethodPost, "/api/board/posts", api.CreatePostJSONRequestBody{Category: "saving", Title: "t", Body: "b", Tags: &tags}).
		Want(http.StatusCreated).JSON(&tagged)
	post(t, m, api.BoardCategorySaving, "untagged")
	res := listPosts(t, env.Client(), "?tag=food")
	if res.Total != 1 || len(res.Items) != 1 || res.Items[0].ID != tagged.ID {
		t.Fatalf("tag filter: %+v", res)
	}
	env.Client().Raw().Do(http.MethodGet, "/api/board/posts?category=news", nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	env.Client().Raw().Do(http.MethodGet, "/api/board/posts?size=101", nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
}

// The whole board's first pages come from ListRecentPostsTop and the pages
// past its 100 rows from ListRecentPosts: walked by pages of several sizes,
// the list is one sequence (the notice, the hot posts, the rest newest
// first) with every post once, whichever query cut each page.
func TestWholeBoardPagesAcrossBothQueries(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	admin := env.NewMember(apitest.AsAdmin())
	rows, err := env.Pool.Query(context.Background(), `
		INSERT INTO post (member_id, category, title, body, up_count, created_at, updated_at)
		SELECT $1, (ARRAY['community', 'saving', 'tips'])[1 + g % 3], 'post ' || g, 'body',
		       CASE g WHEN 10 THEN 60 WHEN 50 THEN 70 ELSE 0 END,
		       $2::timestamptz - make_interval(mins => g), $2::timestamptz - make_interval(mins => g)
		FROM generate_series(1, 130) g
		RETURNING id`, m.ID, env.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	newest, err := pgx.CollectRows(rows, pgx.RowTo[int64]) // g = 1, 2, ...: newest first
	if err != nil || len(newest) != 130 {
		t.Fatalf("seeded %d posts (%v)", len(newest), err)
	}
	notice := true
	var n api.Post
	admin.Do(http.MethodPost, "/api/board/posts", api.CreatePostJSONRequestBody{
		Category: api.BoardCategoryTips, Title: "notice", Body: "rules", Notice: &notice,
	}).Want(http.StatusCreated).JSON(&n)
	want := []int64{n.ID, newest[49], newest[9]}
	for i, id := range newest {
		if i != 9 && i != 49 {
			want = append(want, id)
		}
	}
	for _, size := range []int{7, 30, 100} {
		var got []int64
		for page := 1; len(got) < len(want)+size; page++ {
			res := listPosts(t, m.Client, fmt.Sprintf("?size=%d&page=%d", size, page))
			if res.Total != int64(len(want)) {
				t.Fatalf("size %d page %d: total %d, want %d", size, page, res.Total, len(want))
			}
			if len(res.Items) == 0 {
				break
			}
			got = append(got, ids(res.Items)...)
		}
		if !slices.Equal(got, want) {
			t.Errorf("pages of %d walk %v,\nwant %v", size, got, want)
		}
	}
}
