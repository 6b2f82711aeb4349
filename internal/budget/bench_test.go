package budget_test

import (
	"context"
	"io"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/budget"
)

// The floor and the load follow internal/ledger's benchmarks: 16 ×
// GOMAXPROCS goroutines, the floor being one Redis GET plus the very
// statements the service sends, over pgx.
const benchParallelism = 16

type statement struct {
	sql  string
	args []any
}

type recordingDB struct {
	db.DBTX
	sent []statement
}

func (r *recordingDB) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	r.sent = append(r.sent, statement{sql, args})
	return r.DBTX.Query(ctx, sql, args...)
}

func (r *recordingDB) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	r.sent = append(r.sent, statement{sql, args})
	return r.DBTX.QueryRow(ctx, sql, args...)
}

// seedBudgetYear gives the member a year of entries (about 1,500 over 12
// categories, a sub-category each) and a month of budgets.
func seedBudgetYear(b *testing.B, env *apitest.Env, m *apitest.Member) {
	env.Exec(`INSERT INTO account_category (member_id, name, type, sort_order)
		SELECT $1, 'c' || i, 'EXPENSE', i FROM generate_series(1, 12) i`, m.ID)
	env.Exec(`INSERT INTO account_category (member_id, parent_id, name, type, sort_order)
		SELECT member_id, id, name || ' sub', type, sort_order FROM account_category WHERE member_id = $1`, m.ID)
	env.Exec(`INSERT INTO account_entry (member_id, type, amount, entry_date, category_id)
		SELECT $1, CASE WHEN i % 10 = 0 THEN 'INCOME' ELSE 'EXPENSE' END, 1000 + i,
		       DATE '2026-01-01' + (i % 365),
		       (SELECT id FROM account_category WHERE member_id = $1 AND type = 'EXPENSE' ORDER BY id OFFSET (i % 24) LIMIT 1)
		FROM generate_series(1, 1500) i`, m.ID)
	env.Exec(`INSERT INTO budget (member_id, category_id, year, month, amount)
		SELECT member_id, id, 2026, 3, 100000 FROM account_category WHERE member_id = $1 AND parent_id IS NULL`, m.ID)
}

func benchAgainstFloor(b *testing.B, env *apitest.Env, m *apitest.Member, path string, stmts []statement) {
	ctx := context.Background()
	key := env.RedisKey(m.Token)
	floor := func() error {
		if err := env.Redis.Get(ctx, key).Err(); err != nil {
			return err
		}
		for _, s := range stmts {
			rows, err := env.Pool.Query(ctx, s.sql, s.args...)
			if err != nil {
				return err
			}
			for rows.Next() {
				_ = rows.RawValues()
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
		}
		return nil
	}
	const n = 400
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range benchParallelism * runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= n {
				if err := floor(); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	floorNs := float64(time.Since(start).Nanoseconds()) / n

	client := env.Server.Client()
	b.SetParallelism(benchParallelism)
	b.ResetTimer()
	start = time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, _ := http.NewRequest(http.MethodGet, env.Server.URL+path, nil)
			req.Header.Set("Authorization", "Bearer "+m.Token)
			res, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				b.Errorf("status %d", res.StatusCode)
			}
		}
	})
	apiNs := float64(time.Since(start).Nanoseconds()) / float64(b.N)
	b.StopTimer()
	b.ReportMetric(100*floorNs/apiNs, "%floor")
}

// BenchmarkBudgetStatus: a month's status over a seeded year, two statements
// (the start day and the status query).
func BenchmarkBudgetStatus(b *testing.B) {
	env := apitest.New(b)
	m := env.NewMember(apitest.AsPremium())
	seedBudgetYear(b, env, m)
	rec := &recordingDB{DBTX: env.Pool}
	if _, err := budget.Status(context.Background(), db.New(rec), m.ID, 2026, 3); err != nil {
		b.Fatal(err)
	}
	benchAgainstFloor(b, env, m, "/api/account/budgets/status?year=2026&month=3", rec.sent)
}

// BenchmarkMonthlyStats: a month's statistics over a seeded year, against
// the start day and the one grouping-sets statement.
func BenchmarkMonthlyStats(b *testing.B) {
	env := apitest.New(b)
	m := env.NewMember(apitest.AsPremium())
	seedBudgetYear(b, env, m)
	ctx := context.Background()
	stmts := []statement{
		{`SELECT month_start_day::int FROM member WHERE id = $1`, []any{m.ID}},
	}
	rec := &recordingDB{DBTX: env.Pool}
	if _, err := db.New(rec).MonthlyStats(ctx, db.MonthlyStatsParams{MemberID: m.ID,
		FromDate: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), ToDate: time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)}); err != nil {
		b.Fatal(err)
	}
	benchAgainstFloor(b, env, m, "/api/account/stats/monthly?year=2026&month=3", append(stmts, rec.sent...))
}
