// Package database opens the PostgreSQL pool, applies the migrations and runs
// work in transactions.
package database

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	pgxdecimal "github.com/jackc/pgx-shopspring-decimal"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/schema"
)

// Open connects to url, creating its database first when it does not exist
// yet, so a fresh machine needs no manual step.
func Open(ctx context.Context, url string) (*pgxpool.Pool, error) {
	return OpenTraced(ctx, url, nil)
}

// OpenTraced is Open with tracer seeing every statement of the pool's
// connections (nil: none, as Open). The pool has no other tracer; one added
// later is chained with this one (pgx's multitracer).
func OpenTraced(ctx context.Context, url string, tracer pgx.QueryTracer) (*pgxpool.Pool, error) {
	return OpenWith(ctx, url, Options{Tracer: tracer})
}

// Options are the choices of OpenWith.
type Options struct {
	// Tracer sees every statement of the pool's connections (nil: none).
	Tracer pgx.QueryTracer
	// HangTimeout is about how long an ordinary statement, or a wait for a
	// connection, lasts on a PostgreSQL that stopped answering before it
	// fails with ErrUnavailable (see hangWatch); 0 is DefaultHangTimeout.
	HangTimeout time.Duration
}

// sessionSettings are the settings every connection of a pool OpenWith opens
// starts with, where its DATABASE_URL does not set them. The benchmarks'
// floors start theirs with the same (a floor must not pay what the service
// does not).
//
// jit off: no JIT compilation, as OLTP services run PostgreSQL: a request's
// statement reads a member's few hundred rows, and one whose cost estimate
// crosses jit_above_cost (100,000) compiles for longer than it runs.
// Measured on a draft of the changes feed's expected-income sums, over a
// set-returning function the planner took for 1,000 rows: 2 ms to run, 210
// to compile.
//
// plan_cache_mode force_generic_plan: a generic plan for every prepared
// statement from its first run. The service's statements keep one shape,
// and PostgreSQL's choice between a generic and a custom plan goes wrong on
// the optional filters (`@x IS NULL OR col = @x`): their custom plan folds
// the absent ones away and so looks cheaper, and the statement is planned
// again on every run. Measured on the month list (make load, its pair
// alone, 3 rounds of 4 s; internal/loadtest/README.md, run 39): 0.54 ms of
// PostgreSQL CPU a request, about half of it planning, against 0.34 ms with
// generic plans, and 0.67x its floor's throughput against 0.89x; entry
// creates for 16 members 1.49 -> 1.19 ms (the triggers' PL/pgSQL statements
// are planned the same way). Every list's generic plan is asserted to use
// its indexes (apitest.ExplainingDB).
var sessionSettings = map[string]string{"jit": "off", "plan_cache_mode": "force_generic_plan"}

// WithSessionSettings gives cfg's connections the session settings that cfg
// does not set itself (from its DATABASE_URL).
func WithSessionSettings(cfg *pgx.ConnConfig) {
	for name, value := range sessionSettings {
		if _, set := cfg.RuntimeParams[name]; !set {
			cfg.RuntimeParams[name] = value
		}
	}
}

// OpenWith is Open with opts.
func OpenWith(ctx context.Context, url string, opts Options) (*pgxpool.Pool, error) {
	tracer := opts.Tracer
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("parse DATABASE_URL: %w", err)
	}
	WithSessionSettings(cfg.ConnConfig)
	if cfg.MaxConns < 16 {
		// The default (4) halves write throughput on two cores; see STACK-NOTES.
		cfg.MaxConns = 16
	}
	cfg.AfterConnect = func(_ context.Context, conn *pgx.Conn) error {
		pgxdecimal.Register(conn.TypeMap())
		return nil
	}
	if err := ensureDatabase(ctx, cfg.ConnConfig); err != nil {
		return nil, err
	}
	if tracer != nil {
		cfg.ConnConfig.Tracer = tracer
	}
	watchHangs(cfg, opts.HangTimeout)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open pool: %w", err)
	}
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := pool.Ping(pingCtx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("ping %s: %w", cfg.ConnConfig.Host, err)
	}
	return pool, nil
}

// ensureDatabase creates the target database through the maintenance database
// "postgres" when connecting to it reports that it does not exist.
func ensureDatabase(ctx context.Context, target *pgx.ConnConfig) error {
	conn, err := pgx.ConnectConfig(ctx, target)
	if err == nil {
		return conn.Close(ctx)
	}
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "3D000" { // invalid_catalog_name
		return fmt.Errorf("connect to %s: %w", target.Database, err)
	}
	admin := target.Copy()
	admin.Database = "postgres"
	conn, err = pgx.ConnectConfig(ctx, admin)
	if err != nil {
		return fmt.Errorf("connect to maintenance database: %w", err)
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{target.Database}.Sanitize())
	if err != nil && !isDuplicateDatabase(err) {
		return fmt.Errorf("create database %s: %w", target.Database, err)
	}
	slog.Info("created database", "database", target.Database)
	return nil
}

func isDuplicateDatabase(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "42P04" // duplicate_database
}

// Migrate applies every pending migration. A PostgreSQL session lock makes
// replicas that start together take turns; applied migrations are skipped, so
// it is idempotent.
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	sqlDB := stdlib.OpenDBFromPool(pool)
	defer sqlDB.Close()
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return fmt.Errorf("migration lock: %w", err)
	}
	provider, err := goose.NewProvider(goose.DialectPostgres, sqlDB, schema.Migrations, goose.WithSessionLocker(locker))
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	results, err := provider.Up(ctx)
	if err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	for _, r := range results {
		slog.Info("applied migration", "version", r.Source.Version, "file", r.Source.Path, "took_ms", float64(r.Duration.Microseconds())/1000)
	}
	return nil
}

// CheckMigrated answers an error that says how to migrate when the database
// lacks migrations this binary needs: with SQL_INIT_MODE=never nothing else
// applies them, and every request would fail on a missing table.
func CheckMigrated(ctx context.Context, pool *pgxpool.Pool) error {
	sqlDB := stdlib.OpenDBFromPool(pool)
	defer sqlDB.Close()
	provider, err := goose.NewProvider(goose.DialectPostgres, sqlDB, schema.Migrations)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	current, target, err := provider.GetVersions(ctx)
	switch {
	case err != nil:
		return fmt.Errorf("SQL_INIT_MODE=never, but the database's migrations cannot be read (%w): "+
			"start once with SQL_INIT_MODE=always (the default), which applies them under a lock", err)
	case current <= 0:
		return fmt.Errorf("SQL_INIT_MODE=never, but the database has no migrations applied: " +
			"start once with SQL_INIT_MODE=always (the default), which applies them under a lock")
	case current < target:
		return fmt.Errorf("SQL_INIT_MODE=never, but the database is at migration %d and this build needs %d: "+
			"start once with SQL_INIT_MODE=always (the default), which applies them under a lock", current, target)
	}
	return nil
}

// InTx runs fn in a transaction: committed when fn returns nil, rolled back
// otherwise (and on panic).
func InTx(ctx context.Context, pool *pgxpool.Pool, fn func(q *db.Queries) error) error {
	return InTxRaw(ctx, pool, func(tx pgx.Tx) error { return fn(db.New(tx)) })
}

// InTxV is InTx for work that answers a value: the value of a committed
// transaction, or the zero value and the error.
func InTxV[T any](ctx context.Context, pool *pgxpool.Pool, fn func(q *db.Queries) (T, error)) (T, error) {
	var out T
	err := InTx(ctx, pool, func(q *db.Queries) error {
		var err error
		out, err = fn(q)
		return err
	})
	if err != nil {
		var zero T
		return zero, err
	}
	return out, nil
}

// NoRows maps the error of a query that must find a row: pgx.ErrNoRows
// becomes ifNone (the area's not-found error, a 404), any other error is
// wrapped with what was being done, and nil stays nil.
func NoRows(err error, ifNone error, doing string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, pgx.ErrNoRows):
		return ifNone
	default:
		return fmt.Errorf("%s: %w", doing, err)
	}
}

// InTxRaw is InTx for work that needs the transaction itself (advisory locks,
// COPY).
//
// A transaction that PostgreSQL aborts as a deadlock victim or a
// serialization failure is run again once, from the start: the paths follow
// one lock order (see LockOrder), so a second collision is unlikely, and the
// error of a second one reaches the problem mapper, which answers 503 with
// Retry-After rather than 500. fn may therefore run twice: it must do nothing
// outside the transaction that cannot be done twice (sessions, hooks and
// outside calls belong before or after InTx), and must not accumulate into
// variables declared outside it.
//
// The transaction is fn's argument and nothing else's: no transaction
// travels in a context (issue 41), so a function that writes inside a
// caller's transaction takes it (or its *db.Queries) as a parameter.
func InTxRaw(ctx context.Context, pool *pgxpool.Pool, fn func(tx pgx.Tx) error) error {
	run := func() error { return runTx(ctx, pool, fn) }
	err := run()
	if IsContention(err) && ctx.Err() == nil {
		retriedOn(pool).Add(1)
		err = run()
	}
	return err
}

// retried counts, per pool, the transactions InTx ran again.
var retried sync.Map // *pgxpool.Pool -> *atomic.Int64

func retriedOn(pool *pgxpool.Pool) *atomic.Int64 {
	n, _ := retried.LoadOrStore(pool, new(atomic.Int64))
	return n.(*atomic.Int64)
}

// Retried answers how many transactions on pool were run again after a
// deadlock or a serialization failure. Paths that follow LockOrder do not
// deadlock each other, so a parallel test of two paths expects 0 here: a
// retry that went well hides a lock-order mistake from the answers.
func Retried(pool *pgxpool.Pool) int64 { return retriedOn(pool).Load() }

// NoteRetried counts, for Retried, a write that runs again on pool outside
// InTx after a deadlock or serialization failure (a statement that was its
// own transaction, done again in one).
func NoteRetried(pool *pgxpool.Pool) { retriedOn(pool).Add(1) }

func runTx(ctx context.Context, pool *pgxpool.Pool, fn func(tx pgx.Tx) error) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after Commit
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// IsContention reports whether err is PostgreSQL aborting a transaction for
// a deadlock (40P01) or a serialization failure (40001): nothing is wrong with
// the request, and running it again may well succeed.
func IsContention(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40P01" || pgErr.Code == "40001")
}

// IsUniqueViolation reports whether err is a unique constraint violation,
// optionally of the named constraint.
func IsUniqueViolation(err error, constraint string) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505" && (constraint == "" || pgErr.ConstraintName == constraint)
}

// IsForeignKeyViolation reports whether err is a foreign key violation
// (23503): a write named a row that is gone, or a delete left rows that still
// refer to it.
func IsForeignKeyViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23503"
}
