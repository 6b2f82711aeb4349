package database_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/dbtest"
)

// hangBound is what "about a second" may take on a loaded machine under the
// race detector: far from the 8 s request deadline a hung PostgreSQL used
// to cost, and far enough from a second not to be a timing test.
const hangBound = 4 * time.Second

// Issue 42: a PostgreSQL that stops answering (here a proxy that forwards
// nothing) costs an ordinary statement about a second, not its whole
// deadline, and the error is ErrUnavailable; a patient statement (a heavy
// operation's) already under way waits and completes when PostgreSQL
// answers again; ordinary statements go through again soon after; and a
// statement that is only slow, on a PostgreSQL that answers, is not cut.
func TestHungDatabaseFailsOrdinaryStatementsFast(t *testing.T) {
	t.Parallel()
	proxy := dbtest.NewProxy(t)
	ctx := context.Background()
	pool, err := database.OpenWith(ctx, proxy.URL(dbtest.NewDatabase(t)), database.Options{}) // the production hang timeout
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)

	// Slow is not hung: the probe is answered while the statement runs.
	if _, err := pool.Exec(ctx, "SELECT pg_sleep(1.5)"); err != nil {
		t.Fatalf("a slow statement on a healthy database: %v", err)
	}

	// A heavy operation holds a connection when PostgreSQL stops.
	patientCtx, cancel := context.WithTimeout(database.Patient(ctx), 60*time.Second)
	defer cancel()
	heavy, err := pool.Acquire(patientCtx)
	if err != nil {
		t.Fatal(err)
	}
	defer heavy.Release()

	proxy.Freeze()
	heavyDone := make(chan error, 1)
	go func() {
		var one int
		heavyDone <- heavy.QueryRow(patientCtx, "SELECT 1").Scan(&one)
	}()

	reqCtx, cancelReq := context.WithTimeout(ctx, 8*time.Second) // an ordinary request's deadline
	defer cancelReq()
	start := time.Now()
	_, err = pool.Exec(reqCtx, "SELECT 1")
	if took := time.Since(start); !errors.Is(err, database.ErrUnavailable) || took > hangBound {
		t.Fatalf("an ordinary statement on a hung database: %v after %s, want ErrUnavailable within %s", err, took, hangBound)
	} else {
		t.Logf("an ordinary statement on a hung database failed after %s", took)
	}
	// Known hung: the next one does not wait at all.
	start = time.Now()
	if _, err := pool.Exec(reqCtx, "SELECT 1"); !errors.Is(err, database.ErrUnavailable) || time.Since(start) > hangBound {
		t.Fatalf("a statement while the breaker is open: %v after %s", err, time.Since(start))
	}
	select {
	case err := <-heavyDone:
		t.Fatalf("the heavy operation's statement ended while PostgreSQL was stopped: %v", err)
	default:
	}

	proxy.Thaw()
	thawed := time.Now()
	if err := <-heavyDone; err != nil {
		t.Fatalf("the heavy operation's statement after PostgreSQL answered again: %v", err)
	}
	dbtest.Eventually(t, "ordinary statements go through again", func() bool {
		_, err := pool.Exec(ctx, "SELECT 1")
		return err == nil
	})
	if took := time.Since(thawed); took > hangBound {
		t.Fatalf("ordinary statements went through again %s after PostgreSQL answered, want within %s", took, hangBound)
	} else {
		t.Logf("ordinary statements went through again %s after PostgreSQL answered", took)
	}
}

// A pool whose connections all wait on a hung PostgreSQL: the requests
// waiting for one of them fail about as fast as those holding one.
func TestHungDatabaseFailsWaitsForAConnectionFast(t *testing.T) {
	t.Parallel()
	proxy := dbtest.NewProxy(t)
	ctx := context.Background()
	pool, err := database.OpenWith(ctx, proxy.URL(dbtest.NewDatabase(t)), database.Options{}) // 16 connections
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	proxy.Freeze()
	defer proxy.Thaw()

	const n = 40 // more than the pool's 16 connections
	type result struct {
		err  error
		took time.Duration
	}
	results := make(chan result, n)
	for range n {
		go func() {
			reqCtx, cancel := context.WithTimeout(ctx, 8*time.Second)
			defer cancel()
			start := time.Now()
			_, err := pool.Exec(reqCtx, "SELECT 1")
			results <- result{err, time.Since(start)}
		}()
	}
	for range n {
		r := <-results
		if !errors.Is(r.err, database.ErrUnavailable) || r.took > hangBound {
			t.Errorf("a statement on a hung database: %v after %s, want ErrUnavailable within %s", r.err, r.took, hangBound)
		}
	}
}
