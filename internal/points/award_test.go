package points_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/dbtest"
	"github.com/nestegg/nestegg/internal/points"
)

var seoul = func() *time.Location {
	loc, err := time.LoadLocation("Asia/Seoul")
	if err != nil {
		panic(err)
	}
	return loc
}()

func newMember(t *testing.T, pool *pgxpool.Pool) int64 {
	t.Helper()
	var id int64
	if err := pool.QueryRow(context.Background(), `INSERT INTO member (name) VALUES ('m') RETURNING id`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func award(t *testing.T, pool *pgxpool.Pool, id int64, delta int, reason string, limit points.Cap, now time.Time) int {
	t.Helper()
	n, err := database.InTxV(context.Background(), pool, func(q *db.Queries) (int, error) {
		return points.AwardTx(context.Background(), q, id, delta, reason, limit, now)
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func state(t *testing.T, pool *pgxpool.Pool, id int64) (balance int64, rows int) {
	t.Helper()
	ctx := context.Background()
	if err := pool.QueryRow(ctx, `SELECT points FROM member WHERE id = $1`, id).Scan(&balance); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM point_history WHERE member_id = $1`, id).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	return balance, rows
}

func TestAwardDailyCapInTheServiceTimeZone(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t)
	id := newMember(t, pool)
	// 08:30 in Seoul is 23:30 UTC of the day before.
	morning := time.Date(2026, 11, 16, 8, 30, 0, 0, seoul)
	want := []int{10, 10, 10, 10, 10, 0}
	for i, w := range want {
		reason := points.ReasonPostWritten
		if i%2 == 1 {
			reason = points.ReasonCommentWritten // posts and comments share the cap
		}
		if got := award(t, pool, id, 10, reason, points.WriteCap, morning); got != w {
			t.Fatalf("award %d: %d, want %d", i, got, w)
		}
	}
	// 09:30 in Seoul is a new UTC day but the same service day: still capped.
	if got := award(t, pool, id, 10, points.ReasonPostWritten, points.WriteCap, morning.Add(time.Hour)); got != 0 {
		t.Fatalf("after UTC midnight: %d, want 0", got)
	}
	// Seoul's midnight starts a new day.
	if got := award(t, pool, id, 10, points.ReasonPostWritten, points.WriteCap, time.Date(2026, 11, 17, 0, 0, 0, 0, seoul)); got != 10 {
		t.Fatalf("next day: %d, want 10", got)
	}
	// Another reason's cap is separate; no cap is no limit.
	if got := award(t, pool, id, 1, points.ReasonUpvoteGiven, points.UpvoteGivenCap, morning); got != 1 {
		t.Fatalf("another cap: %d", got)
	}
	if got := award(t, pool, id, 77, "MONTH_COMPLETE_202611", points.Cap{}, morning); got != 77 {
		t.Fatalf("uncapped: %d", got)
	}
	if balance, rows := state(t, pool, id); balance != 50+10+1+77 || rows != 8 {
		t.Fatalf("balance %d with %d rows", balance, rows)
	}
}

func TestAwardWithdrawalFreesTheCap(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t)
	id := newMember(t, pool)
	now := time.Date(2026, 11, 16, 10, 0, 0, 0, seoul)
	for range 10 {
		award(t, pool, id, 5, points.ReasonUpvoteReceived, points.UpvoteReceivedCap, now)
	}
	if got := award(t, pool, id, 5, points.ReasonUpvoteReceived, points.UpvoteReceivedCap, now); got != 0 {
		t.Fatalf("over the cap: %d", got)
	}
	award(t, pool, id, -5, points.ReasonUpvoteWithdrawn, points.Cap{}, now)
	if got := award(t, pool, id, 5, points.ReasonUpvoteReceived, points.UpvoteReceivedCap, now); got != 5 {
		t.Fatalf("after a withdrawal: %d, want 5", got)
	}
}

func TestAwardNeverTakesTheBalanceBelowZero(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t)
	id := newMember(t, pool)
	now := time.Date(2026, 11, 16, 10, 0, 0, 0, seoul)
	award(t, pool, id, 3, "TEST", points.Cap{}, now)
	if got := award(t, pool, id, -5, points.ReasonUpvoteWithdrawn, points.Cap{}, now); got != -3 {
		t.Fatalf("took %d, want -3", got)
	}
	if got := award(t, pool, id, -1, points.ReasonDownvoteReceived, points.Cap{}, now); got != 0 {
		t.Fatalf("took %d from 0", got)
	}
	if balance, rows := state(t, pool, id); balance != 0 || rows != 2 {
		t.Fatalf("balance %d with %d rows, want 0 with 2 (no row for no change)", balance, rows)
	}
}

// TestAwardCapIsExactUnderParallelAwards: 50 transactions award at once.
func TestAwardCapIsExactUnderParallelAwards(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t)
	id := newMember(t, pool)
	now := time.Date(2026, 11, 16, 10, 0, 0, 0, seoul)
	errs := make([]error, 50)
	gained := apitest.TogetherV(50, func(i int) int {
		n, err := database.InTxV(context.Background(), pool, func(q *db.Queries) (int, error) {
			return points.AwardTx(context.Background(), q, id, 5, points.ReasonUpvoteReceived, points.UpvoteReceivedCap, now)
		})
		errs[i] = err
		return n
	})
	total, awarded := 0, map[int]int{}
	for i, n := range gained {
		if errs[i] != nil {
			t.Error(errs[i])
		}
		total += n
		awarded[n]++
	}
	// Ten awards of 5 reach the cap of 50; the other forty found it reached.
	if balance, rows := state(t, pool, id); balance != 50 || rows != 10 || total != 50 || awarded[5] != 10 || awarded[0] != 40 {
		t.Fatalf("balance %d, %d rows, %d answered (%v); want 50, 10, 50 (10 × 5, 40 × 0)", balance, rows, total, awarded)
	}
	// And parallel losses stop at 0: sixteen take 3, one the last 2, the
	// rest nothing.
	lost := apitest.TogetherV(50, func(i int) int {
		n, err := database.InTxV(context.Background(), pool, func(q *db.Queries) (int, error) {
			return points.AwardTx(context.Background(), q, id, -3, points.ReasonVoteCancelled, points.Cap{}, now)
		})
		errs[i] = err
		return n
	})
	taken := map[int]int{}
	for i, n := range lost {
		if errs[i] != nil {
			t.Error(errs[i])
		}
		taken[n]++
	}
	if taken[-3] != 16 || taken[-2] != 1 || taken[0] != 33 {
		t.Fatalf("parallel losses took %v, want 16 × -3, 1 × -2, 33 × 0", taken)
	}
	if balance, _ := state(t, pool, id); balance != 0 {
		t.Fatalf("balance %d after parallel losses", balance)
	}
}
