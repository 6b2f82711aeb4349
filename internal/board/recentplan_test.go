package board_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
)

// The whole board's first page reads its posts by post_list_all_idx, 20
// rows for 20, in the custom and the generic plan, and PostgreSQL keeps the
// generic plan: after the five custom plans it tries first, a prepared
// ListRecentPostsTop is no longer planned per request (its plan shows the
// parameters, not their values).
func TestBoardFirstPageKeepsOnePlan(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	env.Exec(`INSERT INTO post (member_id, category, title, body, created_at, updated_at)
		SELECT $1, (ARRAY['community', 'saving', 'tips'])[1 + g % 3], 'post ' || g, 'body',
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
	arg := db.ListRecentPostsTopParams{ExcludeIds: []int64{}, Lim: 20, Off: 0}
	_, err = db.New(x).ListRecentPostsTop(ctx, arg)
	custom, generic, ok := strings.Cut(x.Plan, "generic plan:")
	if !ok {
		t.Fatalf("no plans (%v):\n%s", err, x.Plan)
	}
	for name, plan := range map[string]string{"custom": custom, "generic": generic} {
		if !strings.Contains(plan, "post_list_all_idx") || strings.Contains(plan, "Seq Scan on post") || strings.Contains(plan, "Sort") {
			t.Errorf("%s plan does not read the page in order by post_list_all_idx:\n%s", name, plan)
		}
	}

	// What PostgreSQL does on its own with the prepared statement.
	seen := &apitest.RecordingDB{DBTX: conn}
	if list, err := db.New(seen).ListRecentPostsTop(ctx, arg); err != nil || len(list) != 20 {
		t.Fatalf("first page: %d posts (%v)", len(list), err)
	}
	if _, err := conn.Exec(ctx, `PREPARE top(bigint[], int, int) AS `+seen.Sent[0].SQL); err != nil {
		t.Fatal(err)
	}
	for range 6 {
		if _, err := conn.Exec(ctx, `EXECUTE top('{}', 20, 0)`); err != nil {
			t.Fatal(err)
		}
	}
	var lines []string
	rows, err := conn.Query(ctx, `EXPLAIN EXECUTE top('{}', 20, 0)`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var l string
		if err := rows.Scan(&l); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	plan := strings.Join(lines, "\n")
	if !strings.Contains(plan, "$1") {
		t.Errorf("the seventh run was planned for its values, not by the cached generic plan:\n%s", plan)
	}
	t.Logf("plans:\n%s\nkept:\n%s", x.Plan, plan)
}
