package board_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/board"
)

// TestHotMarkMatchesTheSchema: the post list's hot posts are read by
// post_hot_idx, which keys the generated column hot_votes (schema/00004_board.sql);
// its mark must be the hot rule's.
func TestHotMarkMatchesTheSchema(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	var expr string
	err := env.Pool.QueryRow(context.Background(), `
		SELECT pg_get_expr(d.adbin, d.adrelid) FROM pg_attrdef d
		JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
		WHERE d.adrelid = 'post'::regclass AND a.attname = 'hot_votes'`).Scan(&expr)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("(up_count >= %d)", board.HotMinUp); expr != want {
		t.Fatalf("post.hot_votes is %s; the hot rule (hot.go) says %s: write a migration", expr, want)
	}
}

// TestHotPostsAreReadByTheirIndex: among thousands of posts of the last day
// without the votes, the hot posts' query reads post_hot_idx (the posts that
// have the votes), in the custom and in the generic plan, never the day's
// posts one by one.
func TestHotPostsAreReadByTheirIndex(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	env.Exec(`INSERT INTO post (member_id, category, title, body, up_count, created_at, updated_at)
		SELECT $1, 'community', 'post ' || g, 'body', CASE WHEN g % 500 = 0 THEN 60 ELSE g % 10 END,
		       $2::timestamptz - make_interval(secs => g * 20), $2::timestamptz - make_interval(secs => g * 20)
		FROM generate_series(1, 20000) g`, m.ID, env.Clock.Now())
	env.Exec(`ANALYZE post`)
	ctx := context.Background()
	conn, err := env.Pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	x := &apitest.ExplainingDB{DBTX: conn}
	_, err = db.New(x).ListHotPosts(ctx, db.ListHotPostsParams{HotSince: env.Clock.Now().Add(-24 * time.Hour), Lim: 3})
	custom, generic, ok := strings.Cut(x.Plan, "generic plan:")
	if !ok {
		t.Fatalf("no plans (%v):\n%s", err, x.Plan)
	}
	for name, plan := range map[string]string{"custom": custom, "generic": generic} {
		if !strings.Contains(plan, "post_hot_idx") || strings.Contains(plan, "Seq Scan on post") {
			t.Errorf("%s plan does not read the hot posts by post_hot_idx:\n%s", name, plan)
		}
	}
	t.Logf("hot posts' plans:\n%s", x.Plan)
}
