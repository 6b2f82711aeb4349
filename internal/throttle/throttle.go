// Package throttle slows down password guessing: it counts failed password
// checks per key (an e-mail and client address, an e-mail, a client address,
// a member) over a window and refuses further checks of a key that reached
// its limit until the window has moved on. Counts live in PostgreSQL, so they
// hold across replicas and through a Redis outage.
package throttle

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/jobs"
	"github.com/nestegg/nestegg/internal/problem"
)

// Window is how long a failure counts.
const Window = 15 * time.Minute

// Limit is the most failures a key may have within the window.
type Limit struct {
	Key string
	Max int64
}

// Throttle counts failures and refuses keys over their limit.
type Throttle struct {
	pool  *pgxpool.Pool
	clock clock.Clock
}

// New returns a throttle.
func New(pool *pgxpool.Pool, c clock.Clock) *Throttle {
	return &Throttle{pool: pool, clock: c}
}

// Attempt is a password check reserved against its keys' limits: it counts as
// a failure from the moment it is reserved, so parallel guesses cannot all
// pass a limit before any of them is recorded.
type Attempt struct {
	t   *Throttle
	ids []int64
}

// Reserve takes one attempt against every limit, or answers 429
// RATE_LIMITED with Retry-After when any key has used up its window. The
// keys are locked, counted and charged in one transaction, before the slow
// password check runs.
func (t *Throttle) Reserve(ctx context.Context, limits ...Limit) (*Attempt, error) {
	now := t.clock.Now()
	// A fixed lock order, so two reservations of overlapping keys cannot
	// deadlock.
	sorted := slices.Clone(limits)
	slices.SortFunc(sorted, func(a, b Limit) int { return strings.Compare(a.Key, b.Key) })
	ids, err := database.InTxV(ctx, t.pool, func(q *db.Queries) ([]int64, error) {
		keys := make([]string, len(sorted))
		for i, l := range sorted {
			keys[i] = l.Key
			if err := q.LockAuthFailureKey(ctx, l.Key); err != nil {
				return nil, fmt.Errorf("lock failures of %s: %w", l.Key, err)
			}
			row, err := q.CountAuthFailures(ctx, db.CountAuthFailuresParams{Key: l.Key, Since: now.Add(-Window)})
			if err != nil {
				return nil, fmt.Errorf("count failures: %w", err)
			}
			if row.Failures >= l.Max {
				return nil, Limited(row.Oldest.Add(Window).Sub(now), "too many failed attempts; try again later")
			}
		}
		ids, err := q.ReserveAuthFailures(ctx, db.ReserveAuthFailuresParams{Keys: keys, FailedAt: now})
		if err != nil {
			return nil, fmt.Errorf("reserve attempt: %w", err)
		}
		return ids, nil
	})
	if err != nil {
		return nil, err
	}
	return &Attempt{t: t, ids: ids}, nil
}

// Release takes the attempt back: a right password, or a check that never
// ran (the server was too busy), is not a failure.
func (a *Attempt) Release(ctx context.Context) error {
	if err := db.New(a.t.pool).DeleteAuthFailures(ctx, a.ids); err != nil {
		return fmt.Errorf("release attempt: %w", err)
	}
	return nil
}

// Limited is the 429 answer of a limit that frees up after retry.
func Limited(retry time.Duration, detail string) *problem.Error {
	secs := int(math.Ceil(retry.Seconds()))
	return &problem.Error{
		Status:  http.StatusTooManyRequests,
		Code:    problem.CodeRateLimited,
		Detail:  detail,
		Headers: map[string]string{"Retry-After": strconv.Itoa(max(secs, 1))},
	}
}

// Clear forgets a key's failures (after a success).
func (t *Throttle) Clear(ctx context.Context, key string) error {
	if err := db.New(t.pool).ClearAuthFailures(ctx, key); err != nil {
		return fmt.Errorf("clear failures: %w", err)
	}
	return nil
}

// CleanupJob deletes failures that no longer count.
func (t *Throttle) CleanupJob() jobs.Job {
	return jobs.Job{
		Name:  "auth-failure-cleanup",
		Every: time.Hour,
		Run: func(ctx context.Context, now time.Time) error {
			if _, err := db.New(t.pool).DeleteAuthFailuresBefore(ctx, now.Add(-Window)); err != nil {
				return fmt.Errorf("delete old failures: %w", err)
			}
			return nil
		},
	}
}

// The keys a failure counts against.
func EmailKey(email string) string              { return "email:" + email }
func AddressKey(addr string) string             { return "addr:" + addr }
func EmailAddressKey(email, addr string) string { return "email+addr:" + email + "|" + addr }
func MemberKey(id int64) string                 { return "member:" + strconv.FormatInt(id, 10) }
