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
	"github.com/jackc/pgx/v5/pgconn"

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

// recordingDB passes statements through and records them, so a benchmark's
// floor runs exactly the SQL the service runs.
type recordingDB struct {
	db.DBTX
	sent []statement
}

func (r *recordingDB) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	r.sent = append(r.sent, statement{sql, args})
	return r.DBTX.Exec(ctx, sql, args...)
}

func (r *recordingDB) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	r.sent = append(r.sent, statement{sql, args})
	return r.DBTX.Query(ctx, sql, args...)
}

func (r *recordingDB) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	r.sent = append(r.sent, statement{sql, args})
	return r.DBTX.QueryRow(ctx, sql, args...)
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

// BenchmarkBudgetStatus: a month's status over a seeded year, against the
// one statement a request sends (the start day comes with the session).
func BenchmarkBudgetStatus(b *testing.B) {
	env := apitest.New(b)
	m := env.NewMember(apitest.AsPremium())
	seedBudgetYear(b, env, m)
	rec := &recordingDB{DBTX: env.Pool}
	if _, err := budget.Status(asRequest(m, 1), db.New(rec), m.ID, 2026, 3); err != nil {
		b.Fatal(err)
	}
	benchAgainstFloor(b, env, m, "/api/account/budgets/status?year=2026&month=3", rec.sent)
}

// BenchmarkMonthlyStats: a month's statistics over a seeded year, against
// the one statement a request sends (sums by category, by day and the
// transfers per wallet).
func BenchmarkMonthlyStats(b *testing.B) {
	env := apitest.New(b)
	m := env.NewMember(apitest.AsPremium())
	seedBudgetYear(b, env, m)
	rec := &recordingDB{DBTX: env.Pool}
	if _, err := budget.MonthlyStats(asRequest(m, 1), db.New(rec), m.ID, 2026, 3); err != nil {
		b.Fatal(err)
	}
	benchAgainstFloor(b, env, m, "/api/account/stats/monthly?year=2026&month=3", rec.sent)
}
