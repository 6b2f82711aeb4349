package apitest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
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
	"github.com/nestegg/nestegg/internal/session"
)

// BenchParallelism × GOMAXPROCS goroutines send a benchmark's requests:
// "under load".
const BenchParallelism = 16

// Statement is one SQL statement as sqlc sent it.
type Statement struct {
	SQL  string
	Args []any
}

// RecordingDB passes statements through and records them: a benchmark's
// floor runs exactly the SQL the service runs, and a test counts the
// statements a domain function sends (len(Sent)) and the round trips they
// went in (Trips: one per statement, one per batch of them).
type RecordingDB struct {
	db.DBTX
	Sent  []Statement
	Trips int
}

func (r *RecordingDB) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	r.Sent, r.Trips = append(r.Sent, Statement{sql, args}), r.Trips+1
	return r.DBTX.Exec(ctx, sql, args...)
}

func (r *RecordingDB) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	r.Sent, r.Trips = append(r.Sent, Statement{sql, args}), r.Trips+1
	return r.DBTX.Query(ctx, sql, args...)
}

func (r *RecordingDB) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	r.Sent, r.Trips = append(r.Sent, Statement{sql, args}), r.Trips+1
	return r.DBTX.QueryRow(ctx, sql, args...)
}

func (r *RecordingDB) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	for _, q := range b.QueuedQueries {
		r.Sent = append(r.Sent, Statement{q.SQL, q.Arguments})
	}
	r.Trips++
	return r.DBTX.SendBatch(ctx, b)
}

// ExplainingDB answers no rows to a Query (a batch it sends on: SendBatch)
// but records the plans of the first query sent through it, with the very SQL and arguments sqlc generated: a test asserts
// how a domain function's query reads its tables. Plan holds two plans, the
// custom plan (for these arguments) and then the generic plan, because pgx
// prepares its statements and PostgreSQL runs a prepared statement by a
// generic plan after five runs when that looks no dearer: an assertion on
// Plan holds for both.
type ExplainingDB struct {
	db.DBTX
	Plan string
}

func (e *ExplainingDB) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if e.Plan == "" {
		custom, err := e.explain(ctx, "EXPLAIN "+sql, args)
		if err != nil {
			return nil, err
		}
		generic, err := e.explainGeneric(ctx, sql, args)
		if err != nil {
			return nil, err
		}
		e.Plan = "custom plan:\n" + custom + "\ngeneric plan:\n" + generic
	}
	return nil, errors.New("explained only")
}

// SendBatch records the plans of the batch's first query when none is
// recorded yet (a :batchmany query's, sent through a database.Pipeline),
// then sends the batch as it is: its answers are real.
func (e *ExplainingDB) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if e.Plan == "" && len(b.QueuedQueries) > 0 {
		first := b.QueuedQueries[0]
		custom, err := e.explain(ctx, "EXPLAIN "+first.SQL, first.Arguments)
		if err == nil {
			var generic string
			if generic, err = e.explainGeneric(ctx, first.SQL, first.Arguments); err == nil {
				e.Plan = "custom plan:\n" + custom + "\ngeneric plan:\n" + generic
			}
		}
		if err != nil {
			e.Plan = "not explained: " + err.Error()
		}
	}
	return e.DBTX.SendBatch(ctx, b)
}

// explainGeneric explains sql as a prepared statement planned generically
// (EXPLAIN (GENERIC_PLAN) is PostgreSQL 16's; this is 15): PREPARE it, read
// its parameters' types, EXPLAIN EXECUTE it with plan_cache_mode
// force_generic_plan and the arguments, and DEALLOCATE it.
func (e *ExplainingDB) explainGeneric(ctx context.Context, sql string, args []any) (plan string, err error) {
	const name = "nestegg_explained"
	c, ok := e.DBTX.(interface{ Conn() *pgx.Conn })
	if !ok {
		return "", fmt.Errorf("explain a generic plan over a connection or a transaction, not a %T", e.DBTX)
	}
	// The simple protocol: pgx would take PREPARE's $1 for its own.
	if err := c.Conn().PgConn().Exec(ctx, "PREPARE "+name+" AS "+sql).Close(); err != nil {
		return "", fmt.Errorf("prepare: %w", err)
	}
	defer func() {
		_, derr := e.DBTX.Exec(ctx, "DEALLOCATE "+name+"; RESET plan_cache_mode")
		err = errors.Join(err, derr)
	}()
	var types []string
	if err := e.DBTX.QueryRow(ctx, "SELECT parameter_types::text[] FROM pg_prepared_statements WHERE name = $1", name).Scan(&types); err != nil {
		return "", fmt.Errorf("parameter types: %w", err)
	}
	params := make([]string, len(types))
	for i, t := range types {
		params[i] = fmt.Sprintf("$%d::%s", i+1, t)
	}
	if _, err := e.DBTX.Exec(ctx, "SET plan_cache_mode = force_generic_plan"); err != nil {
		return "", err
	}
	// EXECUTE's arguments go as literals (a utility statement takes no
	// parameters): pgx's simple protocol writes them.
	return e.explain(ctx, "EXPLAIN EXECUTE "+name+"("+strings.Join(params, ", ")+")", append([]any{pgx.QueryExecModeSimpleProtocol}, args...))
}

func (e *ExplainingDB) explain(ctx context.Context, sql string, args []any) (string, error) {
	rows, err := e.DBTX.Query(ctx, sql, args...)
	if err != nil {
		return "", err
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return "", err
	}
	return strings.Join(lines, "\n"), nil
}

// BenchRequest is one request a benchmark sends over and over.
type BenchRequest struct {
	Method, Path, Body string
	// Bodies, when set, gives the body of the i-th request (i from 0,
	// called from many goroutines) instead of Body: a mix of the shapes
	// members send.
	Bodies func(i int64) string
	// Want is the status every answer must have.
	Want int
	// OneTrip: the service sends the statements together in one round trip
	// (database.Pipeline), so the floor sends them as one pgx batch too.
	OneTrip bool
}

// BenchAgainstFloor measures req sent by m against its floor, internal/loadtest/README.md's:
// a bare HTTP handler in a process of its own (floorproc.go), as the
// service would be in production, doing only what the request needs
// from the stores (the bearer token's hash, the session's Redis GET, the
// session's PostgreSQL read, then stmts over pgx, rows read and dropped)
// and answering "{}". Both are
// driven alike (same client, same parallelism, warm pools) and the
// benchmark reports the service's throughput as a percentage of the
// floor's, "%floor".
func (e *Env) BenchAgainstFloor(b *testing.B, m *Member, req BenchRequest, stmts []Statement) {
	b.Helper()
	spec := floorSpec{
		DatabaseURL: e.Pool.Config().ConnString(), MaxConns: e.Pool.Config().MaxConns,
		RedisAddr: e.Redis.Options().Addr, RedisDB: e.Redis.Options().DB,
		SessionKeys: session.KeyPrefix(e.options.RedisPrefix), Status: req.Want, OneTrip: req.OneTrip,
	}
	for _, s := range stmts {
		fs := floorStmt{SQL: s.SQL}
		for _, a := range s.Args {
			fa, err := encodeArg(a)
			if err != nil {
				b.Fatal(err)
			}
			fs.Args = append(fs.Args, fa)
		}
		spec.Statements = append(spec.Statements, fs)
	}
	floorURL := startFloor(b, spec)

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1024}}
	var sent atomic.Int64
	send := func(base string) error {
		var body io.Reader
		switch {
		case req.Bodies != nil && base != floorURL:
			body = strings.NewReader(req.Bodies(sent.Add(1) - 1))
		case req.Body != "" || req.Bodies != nil:
			body = strings.NewReader(req.Body)
		}
		r, err := http.NewRequest(req.Method, base+req.Path, body)
		if err != nil {
			return err
		}
		r.Header.Set("Authorization", "Bearer "+m.Token)
		if body != nil {
			r.Header.Set("Content-Type", "application/json")
		}
		res, err := client.Do(r)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		_, _ = io.Copy(io.Discard, res.Body)
		if res.StatusCode != req.Want {
			return fmt.Errorf("status %d, want %d", res.StatusCode, req.Want)
		}
		return nil
	}
	// The first round opens connections and prepares statements; the second,
	// warm as the service is by then and as many requests as the service
	// gets (b.N), counts.
	_ = rounds(b, 2000, func() error { return send(floorURL) })
	n := max(int64(b.N), 200)
	floorNs := float64(rounds(b, n, func() error { return send(floorURL) }).Nanoseconds()) / float64(n)

	// The service logs each request at info, as in production (the lines
	// are formatted, then dropped).
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewJSONHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo})))
	b.SetParallelism(BenchParallelism)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := send(e.Server.URL); err != nil {
				b.Error(err)
				return
			}
		}
	})
	apiNs := float64(time.Since(start).Nanoseconds()) / float64(b.N)
	b.StopTimer()
	// The floor again after the service, and the two averaged: timed only
	// before, the floor ran on the tables as they were, the service on
	// them grown by the floor's writes and its own (and, where autovacuum
	// is off, their dead rows), and on a machine whose speed had moved.
	afterNs := float64(rounds(b, n, func() error { return send(floorURL) }).Nanoseconds()) / float64(n)
	b.ReportMetric(100*(floorNs+afterNs)/2/apiNs, "%floor")
}

// rounds runs op n times from as many goroutines as RunParallel uses and
// answers the wall time.
func rounds(b *testing.B, n int64, op func() error) time.Duration {
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range BenchParallelism * runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= n {
				if err := op(); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	return time.Since(start)
}

// drainBatch is drain for statements sent together, one pgx batch.
func drainBatch(ctx context.Context, pool db.DBTX, stmts []Statement) error {
	var b pgx.Batch
	for _, s := range stmts {
		b.Queue(s.SQL, s.Args...)
	}
	res := pool.SendBatch(ctx, &b)
	for range stmts {
		rows, err := res.Query()
		if err != nil {
			_ = res.Close()
			return err
		}
		for rows.Next() {
			_ = rows.RawValues()
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			_ = res.Close()
			return err
		}
	}
	return res.Close()
}

func drain(ctx context.Context, pool db.DBTX, s Statement) error {
	rows, err := pool.Query(ctx, s.SQL, s.Args...)
	if err != nil {
		return err
	}
	for rows.Next() {
		_ = rows.RawValues()
	}
	rows.Close()
	return rows.Err()
}
