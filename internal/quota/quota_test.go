package quota_test

import (
	"context"
	"testing"

	"github.com/nestegg/nestegg/internal/apitest"
)

func TestCleanupJobDeletesPastDaysOnly(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	// The clock is 2026-11-16 in Seoul.
	for _, day := range []string{"2026-11-13", "2026-11-14", "2026-11-15", "2026-11-16"} {
		env.Exec(`INSERT INTO outside_call_count (member_id, kind, day, calls) VALUES ($1, 'FX', $2, 3)`, m.ID, day)
	}
	ran, err := env.App.Jobs.Run(context.Background(), "outside-call-count-cleanup")
	if err != nil || !ran {
		t.Fatalf("ran %v, %v", ran, err)
	}
	var days []string
	rows, err := env.Pool.Query(context.Background(), `SELECT day::text FROM outside_call_count ORDER BY day`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			t.Fatal(err)
		}
		days = append(days, d)
	}
	if rows.Err() != nil || len(days) != 2 || days[0] != "2026-11-15" || days[1] != "2026-11-16" {
		t.Fatalf("left %v (%v), want yesterday and today", days, rows.Err())
	}
}
