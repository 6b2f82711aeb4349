package database_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nestegg/nestegg/generated/db"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/dbtest"
)

// Replicas start together: migrating concurrently and again must both succeed
// and leave one copy of the schema.
func TestMigrateIsIdempotentAndSafeConcurrently(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t) // already migrated from the template
	ctx := context.Background()
	errs := apitest.TogetherV(3, func(int) error { return database.Migrate(ctx, pool) })
	for _, err := range errs {
		if err != nil {
			t.Fatalf("migrate: %v", err)
		}
	}
	var n int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM information_schema.tables WHERE table_name = 'app_setting'").Scan(&n); err != nil || n != 1 {
		t.Fatalf("app_setting tables: %d (%v)", n, err)
	}
}

func TestOpenCreatesAMissingDatabase(t *testing.T) {
	t.Parallel()
	url := dbtest.NewDatabase(t)
	ctx := context.Background()
	// A database name nobody made yet.
	missing := url[:len(url)-len("?sslmode=disable")] + "_fresh?sslmode=disable"
	fresh, err := database.Open(ctx, missing)
	if err != nil {
		t.Fatalf("open a missing database: %v", err)
	}
	defer func() {
		fresh.Close()
		admin, err := database.Open(ctx, dbtest.AdminURL())
		if err == nil {
			_, _ = admin.Exec(ctx, "DROP DATABASE IF EXISTS "+dbNameOf(missing)+" WITH (FORCE)")
			admin.Close()
		}
	}()
	if err := database.Migrate(ctx, fresh); err != nil {
		t.Fatalf("migrate the new database: %v", err)
	}
	var n int
	if err := fresh.QueryRow(ctx, "SELECT count(*) FROM member").Scan(&n); err != nil {
		t.Fatalf("schema missing after migrate: %v", err)
	}
}

func dbNameOf(url string) string {
	s := url[:len(url)-len("?sslmode=disable")]
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return s[i+1:]
		}
	}
	return s
}

// A transaction PostgreSQL picks as a deadlock victim runs again: two
// transactions that lock two rows in opposite orders both commit, and one
// of them ran twice.
func TestInTxRunsADeadlockVictimAgain(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, "CREATE TABLE pair (id int PRIMARY KEY, n int NOT NULL DEFAULT 0); INSERT INTO pair (id) VALUES (1), (2)"); err != nil {
		t.Fatal(err)
	}
	var attempts atomic.Int32
	locked := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
	done := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
	bump := func(tx pgx.Tx, id int) error {
		_, err := tx.Exec(ctx, "UPDATE pair SET n = n + 1 WHERE id = $1", id)
		return err
	}
	// Each side locks its own row, waits until the other holds its row,
	// then asks for the other's: a deadlock on the first attempt. The
	// victim's second attempt waits for the other side to finish (left to
	// itself it could grab a released row first and deadlock again).
	side := func(me int) error {
		first := true
		return database.InTxRaw(ctx, pool, func(tx pgx.Tx) error {
			attempts.Add(1)
			if !first {
				<-done[1-me]
			}
			if err := bump(tx, me+1); err != nil {
				return err
			}
			if first {
				first = false
				close(locked[me])
				<-locked[1-me]
			}
			return bump(tx, 2-me)
		})
	}
	errs := apitest.TogetherV(2, func(i int) error {
		defer close(done[i])
		return side(i)
	})
	for i, err := range errs {
		if err != nil {
			t.Errorf("side %d: %v", i, err)
		}
	}
	if n := attempts.Load(); n != 3 {
		t.Errorf("%d attempts, want 3 (one side run again)", n)
	}
	if n := database.Retried(pool); n != 1 {
		t.Errorf("Retried %d, want 1", n)
	}
	var n1, n2 int
	if err := pool.QueryRow(ctx, "SELECT (SELECT n FROM pair WHERE id = 1), (SELECT n FROM pair WHERE id = 2)").Scan(&n1, &n2); err != nil {
		t.Fatal(err)
	}
	// The victim's first attempt was rolled back: each side counted once.
	if n1 != 2 || n2 != 2 {
		t.Errorf("counts %d and %d, want 2 and 2", n1, n2)
	}
}

// A second collision is not retried again: its error is a contention error,
// which the problem mapper answers 503 with Retry-After, and the first
// attempt's writes are gone.
func TestInTxGivesUpAfterOneRetry(t *testing.T) {
	t.Parallel()
	pool := dbtest.NewPool(t)
	ctx := context.Background()
	if _, err := pool.Exec(ctx, "CREATE TABLE hit (n int)"); err != nil {
		t.Fatal(err)
	}
	runs := 0
	err := database.InTx(ctx, pool, func(q *db.Queries) error {
		runs++
		if _, err := pool.Exec(ctx, "SELECT 1"); err != nil {
			return err
		}
		return fmt.Errorf("vote: %w", &pgconn.PgError{Code: "40P01"})
	})
	if runs != 2 {
		t.Errorf("fn ran %d times, want 2", runs)
	}
	if !database.IsContention(err) {
		t.Fatalf("error %v is not a contention error", err)
	}

	// A serialization failure once, then success: committed.
	runs = 0
	err = database.InTxRaw(ctx, pool, func(tx pgx.Tx) error {
		runs++
		if _, err := tx.Exec(ctx, "INSERT INTO hit (n) VALUES ($1)", runs); err != nil {
			return err
		}
		if runs == 1 {
			return &pgconn.PgError{Code: "40001"}
		}
		return nil
	})
	if err != nil || runs != 2 {
		t.Fatalf("retry: %v after %d runs", err, runs)
	}
	var rows []int
	r, err := pool.Query(ctx, "SELECT n FROM hit")
	if err != nil {
		t.Fatal(err)
	}
	rows, err = pgx.CollectRows(r, pgx.RowTo[int])
	if err != nil || len(rows) != 1 || rows[0] != 2 {
		t.Errorf("rows %v (%v), want only the second attempt's [2]", rows, err)
	}

	// Any other error is not retried.
	runs = 0
	_ = database.InTx(ctx, pool, func(q *db.Queries) error {
		runs++
		return &pgconn.PgError{Code: "23505"}
	})
	if runs != 1 {
		t.Errorf("a unique violation ran fn %d times, want 1", runs)
	}
}

func TestIsForeignKeyViolation(t *testing.T) {
	t.Parallel()
	fk := &pgconn.PgError{Code: "23503", ConstraintName: "entries_wallet_id_fkey"}
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{"foreign key violation", fk, true},
		{"wrapped", fmt.Errorf("create entry: %w", fk), true},
		{"unique violation", &pgconn.PgError{Code: "23505"}, false},
		{"wrapped other code", fmt.Errorf("vote: %w", &pgconn.PgError{Code: "40P01"}), false},
		{"not a PostgreSQL error", errors.New("23503"), false},
		{"nil", nil, false},
	}
	for _, tc := range cases {
		if got := database.IsForeignKeyViolation(tc.err); got != tc.want {
			t.Errorf("%s: IsForeignKeyViolation(%v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
}

// The pool's connections run without JIT compilation and with generic plans
// for prepared statements, unless the URL asks otherwise.
func TestPoolRunsWithoutJITAndWithGenericPlans(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := dbtest.NewDatabase(t)
	for _, c := range []struct{ url, setting, want string }{
		{url, "jit", "off"}, {url + "&jit=on", "jit", "on"},
		{url, "plan_cache_mode", "force_generic_plan"}, {url + "&plan_cache_mode=auto", "plan_cache_mode", "auto"},
	} {
		pool, err := database.Open(ctx, c.url)
		if err != nil {
			t.Fatal(err)
		}
		var got string
		err = pool.QueryRow(ctx, "SELECT current_setting($1)", c.setting).Scan(&got)
		pool.Close()
		if err != nil || got != c.want {
			t.Errorf("%s: %s %q (%v), want %q", c.url, c.setting, got, err, c.want)
		}
	}
}
