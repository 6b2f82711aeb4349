package problem

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/nestegg/nestegg/internal/database"
)

// retryAfterSeconds is what a 503 for an unreachable dependency tells the
// client to wait: long enough for a restart or a fail-over to finish.
const retryAfterSeconds = "5"

// classify maps failures the service expects from its dependencies to their
// answers: a database that cannot be reached is a 503 DEPENDENCY_UNAVAILABLE,
// a request that ran past its own deadline a 503 TIMEOUT, both with
// Retry-After (never a 500: nothing is wrong with the request or the
// code); a string the database refuses to store (a NUL character the request
// path did not catch) is a 400.
func classify(ctx context.Context, err error) (*Error, bool) {
	if errors.Is(err, database.ErrUnavailable) {
		// The pool's breaker: PostgreSQL stopped answering, and the
		// request was refused or cut short rather than left to wait.
		return unavailable(err), true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case pgErr.Code == "22021" || pgErr.Code == "22P05": // character_not_in_repertoire, untranslatable_character
			return &Error{Status: http.StatusBadRequest, Code: CodeValidationFailed,
				Detail: "the request holds a character that cannot be stored (such as NUL)", Err: err}, true
		case len(pgErr.Code) == 5 && pgErr.Code[:2] == "08", // connection exception
			pgErr.Code == "57P01", pgErr.Code == "57P02", pgErr.Code == "57P03", // shutting down, cannot connect now
			pgErr.Code == "53300": // too many connections
			return unavailable(err), true
		case pgErr.Code == "40P01" || pgErr.Code == "40001": // deadlock_detected, serialization_failure
			// database.InTx has already run the transaction a second time.
			return busy(err), true
		}
		return nil, false
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	switch {
	case errors.As(err, &connectErr):
		return unavailable(err), true
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && (pgconn.Timeout(err) || errors.Is(err, context.DeadlineExceeded)):
		// The request ran out of its own time with its database reachable
		// (a connection that cannot be made is a ConnectError, above): its
		// own problem, not an outage.
		return timedOut(err), true
	case pgconn.Timeout(err), errors.As(err, &netErr), errors.Is(err, context.DeadlineExceeded):
		return unavailable(err), true
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		// The client went away; nobody reads this answer.
		return &Error{Status: http.StatusServiceUnavailable, Code: CodeServiceUnavailable, Detail: "the request was cancelled"}, true
	}
	return nil, false
}

func unavailable(err error) *Error {
	return &Error{
		Status: http.StatusServiceUnavailable, Code: CodeDependencyUnavailable,
		Detail:  "the service cannot reach its database right now; try again shortly",
		Headers: map[string]string{"Retry-After": retryAfterSeconds},
		Err:     err,
	}
}

// timedOutRetryAfter is what a request that ran past its own deadline tells
// its client to wait: longer than an outage's, as running the same heavy
// request again at once most likely runs out of time again.
const timedOutRetryAfter = "30"

// timedOut answers a request that ran past its own deadline.
func timedOut(err error) *Error {
	return &Error{
		Status: http.StatusServiceUnavailable, Code: CodeTimeout,
		Detail:  "the request took longer than this operation's time limit; try again later",
		Headers: map[string]string{"Retry-After": timedOutRetryAfter},
		Err:     err,
	}
}

// Busy answers a request whose rows changed under it twice in a row: 503
// with Retry-After, as a transaction aborted twice for contention is.
func Busy(err error) error { return busy(err) }

// busy answers a transaction PostgreSQL aborted twice for contention (a
// deadlock or a serialization failure): the request was fine, the rows it
// needed were busy, and the next attempt will most likely go through.
func busy(err error) *Error {
	return &Error{
		Status: http.StatusServiceUnavailable, Code: CodeServiceUnavailable,
		Detail:  "the records this request changes were busy; try again",
		Headers: map[string]string{"Retry-After": "1"},
		Err:     err,
	}
}

// outageLog lets one warning through per interval, so an outage is logged
// once, not once per failed request.
var outageLog = &logGate{every: 30 * time.Second}

type logGate struct {
	mu    sync.Mutex
	every time.Duration
	last  time.Time
}

func (g *logGate) due() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if time.Since(g.last) < g.every {
		return false
	}
	g.last = time.Now()
	return true
}
