package ledger_test

import (
	"context"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/ledger"
)

// benchParallelism × GOMAXPROCS goroutines send requests: "under load".
const benchParallelism = 16

// statement is one SQL statement as sqlc sent it.
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

// floorNsPerOp runs op n times from as many goroutines as the benchmark uses
// and answers the wall time per operation.
func floorNsPerOp(b *testing.B, n int, op func() error) float64 {
	b.Helper()
	workers := benchParallelism * max(1, testingProcs())
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				if err := op(); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	return float64(time.Since(start).Nanoseconds()) / float64(n)
}

// redisAndSQL is the raw floor of a request: one Redis GET (the session)
// plus the statements over pgx, rows read and dropped.
func redisAndSQL(env *apitest.Env, key string, stmts []statement) func() error {
	return func() error {
		ctx := context.Background()
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
}

// benchRequests measures method path with body (a JSON string or "") under
// load and reports its speed as a percentage of the floor's.
func benchRequests(b *testing.B, env *apitest.Env, m *apitest.Member, method, path, body string, want int, floor func() error) {
	b.Helper()
	floorNs := floorNsPerOp(b, 400, floor)
	client := env.Server.Client()
	b.SetParallelism(benchParallelism)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			var r io.Reader
			if body != "" {
				r = strings.NewReader(body)
			}
			req, _ := http.NewRequest(method, env.Server.URL+path, r)
			req.Header.Set("Authorization", "Bearer "+m.Token)
			if body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			res, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != want {
				b.Errorf("status %d", res.StatusCode)
				return
			}
		}
	})
	apiNs := float64(time.Since(start).Nanoseconds()) / float64(b.N)
	b.StopTimer()
	b.ReportMetric(100*floorNs/apiNs, "%floor")
}

// BenchmarkMonthList lists a month of a member with a seeded year (about
// 1,500 entries, a third tagged), against one Redis GET plus the same three
// statements over pgx. Target: at least 70 %floor.
func BenchmarkMonthList(b *testing.B) {
	env := apitest.New(b)
	m := env.NewMember(apitest.AsPremium())
	seedYear(b, env, m)
	from, to := ledger.MonthRange(2026, time.March, 1)
	rec := &recordingDB{DBTX: env.Pool}
	if _, err := ledger.ListEntriesTx(context.Background(), db.New(rec), m.ID, ledger.EntryFilter{From: from, To: to, Page: 1, Size: 100}); err != nil {
		b.Fatal(err)
	}
	benchRequests(b, env, m, http.MethodGet, "/api/account/entries?year=2026&month=3&size=100", "", http.StatusOK,
		redisAndSQL(env, env.RedisKey(m.Token), rec.sent))
}

// BenchmarkEntryCreate creates entries, against one Redis GET plus a raw
// single-row INSERT. Target: at least 60 %floor.
func BenchmarkEntryCreate(b *testing.B) {
	env := apitest.New(b)
	m := env.NewMember()
	insert := statement{
		sql:  `INSERT INTO account_entry (member_id, type, amount, entry_date, memo) VALUES ($1, 'EXPENSE', 4500, DATE '2026-11-16', 'Coffee') RETURNING id`,
		args: []any{m.ID},
	}
	benchRequests(b, env, m, http.MethodPost, "/api/account/entries",
		`{"date":"2026-11-16","type":"EXPENSE","amount":4500,"memo":"Coffee"}`, http.StatusCreated,
		redisAndSQL(env, env.RedisKey(m.Token), []statement{insert}))
}

// BenchmarkWalletList lists six wallets with balances over a seeded year,
// against one Redis GET plus the same statement over pgx.
func BenchmarkWalletList(b *testing.B) {
	env := apitest.New(b)
	m := env.NewMember(apitest.AsPremium())
	seedYear(b, env, m)
	for _, typ := range []string{"CASH", "BANK", "CARD", "SAVINGS", "POINT"} {
		env.Exec(`INSERT INTO wallet (member_id, name, type, sort_order) VALUES ($1, $2, $2, 1)`, m.ID, typ)
	}
	rec := &recordingDB{DBTX: env.Pool}
	if _, err := db.New(rec).ListWalletsWithBalance(context.Background(), m.ID); err != nil {
		b.Fatal(err)
	}
	benchRequests(b, env, m, http.MethodGet, "/api/account/wallets", "", http.StatusOK,
		redisAndSQL(env, env.RedisKey(m.Token), rec.sent))
}

func testingProcs() int { return runtime.GOMAXPROCS(0) }
