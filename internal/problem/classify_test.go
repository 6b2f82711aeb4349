package problem

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nestegg/nestegg/internal/database"
)

func TestClassify(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		name   string
		err    error
		status int
	}{
		{"NUL in text", fmt.Errorf("insert: %w", &pgconn.PgError{Code: "22021"}), http.StatusBadRequest},
		{"untranslatable character", &pgconn.PgError{Code: "22P05"}, http.StatusBadRequest},
		{"connection lost", &pgconn.PgError{Code: "08006"}, http.StatusServiceUnavailable},
		{"server shutting down", &pgconn.PgError{Code: "57P01"}, http.StatusServiceUnavailable},
		{"deadline", fmt.Errorf("query: %w", context.DeadlineExceeded), http.StatusServiceUnavailable},
		// What database.InTx returns when its second attempt also collided.
		{"deadlock again", fmt.Errorf("vote: %w", &pgconn.PgError{Code: "40P01"}), http.StatusServiceUnavailable},
		{"serialization failure again", &pgconn.PgError{Code: "40001"}, http.StatusServiceUnavailable},
		// The pool's breaker refused or cut the statement (PostgreSQL hung).
		{"database not answering", fmt.Errorf("begin: %w", database.ErrUnavailable), http.StatusServiceUnavailable},
	}
	for _, c := range cases {
		pe, ok := classify(ctx, c.err)
		if !ok || pe.Status != c.status {
			t.Errorf("%s: %v %v, want %d", c.name, pe, ok, c.status)
		}
		if c.status == http.StatusServiceUnavailable && pe.Headers["Retry-After"] == "" {
			t.Errorf("%s: 503 without Retry-After", c.name)
		}
	}
	// Issue 42: a request that ran past its own deadline with its database
	// reachable is a TIMEOUT, not an outage; a connection that could not be
	// made by then is still an outage.
	expired, cancel := context.WithDeadline(ctx, time.Now().Add(-time.Second))
	defer cancel()
	for _, c := range []struct {
		name string
		err  error
		code string
	}{
		{"statement past the deadline", fmt.Errorf("list: %w", context.DeadlineExceeded), CodeTimeout},
		{"connect past the deadline", &pgconn.ConnectError{}, CodeDependencyUnavailable},
	} {
		pe, ok := classify(expired, c.err)
		if !ok || pe.Code != c.code || pe.Status != http.StatusServiceUnavailable || pe.Headers["Retry-After"] == "" {
			t.Errorf("%s: %+v %v, want 503 %s with Retry-After", c.name, pe, ok, c.code)
		}
	}
	if pe, _ := classify(ctx, fmt.Errorf("list: %w", context.DeadlineExceeded)); pe.Code != CodeDependencyUnavailable {
		t.Errorf("a deadline that is not the request's own: %s, want %s", pe.Code, CodeDependencyUnavailable)
	}
	if _, ok := classify(ctx, &pgconn.PgError{Code: "23505"}); ok {
		t.Error("a unique violation is a bug to report, not an outage")
	}
}

// An outage is logged once, not once per failed request.
func TestOutageLogGateLetsOneLinePerInterval(t *testing.T) {
	t.Parallel()
	g := &logGate{every: time.Hour}
	if !g.due() {
		t.Fatal("the first failure of an outage was not logged")
	}
	for range 100 {
		if g.due() {
			t.Fatal("a later failure in the same outage was logged again")
		}
	}
	g.last = time.Now().Add(-2 * time.Hour)
	if !g.due() {
		t.Fatal("a failure after the interval was not logged")
	}
}
