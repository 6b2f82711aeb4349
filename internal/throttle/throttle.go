// Package throttle slows down password guessing: it counts failed password
// checks per key (an e-mail, a client address, a member) over a window and
// refuses further checks of a key that reached its limit until the window
// has moved on. Counts live in PostgreSQL, so they hold across replicas and
// through a Redis outage.
package throttle

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/clock"
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

// Check answers 429 RATE_LIMITED, with Retry-After, when any key has reached
// its limit. The check and the later Fail are not one transaction: parallel
// guesses may pass a limit by a few, which a throttle can afford.
func (t *Throttle) Check(ctx context.Context, limits ...Limit) error {
	now := t.clock.Now()
	q := db.New(t.pool)
	for _, l := range limits {
		row, err := q.CountAuthFailures(ctx, db.CountAuthFailuresParams{Key: l.Key, Since: now.Add(-Window)})
		if err != nil {
			return fmt.Errorf("count failures: %w", err)
		}
		if row.Failures >= l.Max {
			retry := int(math.Ceil(row.Oldest.Add(Window).Sub(now).Seconds()))
			return &problem.Error{
				Status:  http.StatusTooManyRequests,
				Code:    problem.CodeRateLimited,
				Detail:  "too many failed attempts; try again later",
				Headers: map[string]string{"Retry-After": strconv.Itoa(max(retry, 1))},
			}
		}
	}
	return nil
}

// Fail records one failure against each key.
func (t *Throttle) Fail(ctx context.Context, keys ...string) error {
	err := db.New(t.pool).RecordAuthFailures(ctx, db.RecordAuthFailuresParams{Keys: keys, FailedAt: t.clock.Now()})
	if err != nil {
		return fmt.Errorf("record failure: %w", err)
	}
	return nil
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

// EmailKey, AddressKey and MemberKey name what a failure counts against.
func EmailKey(email string) string  { return "email:" + email }
func AddressKey(addr string) string { return "addr:" + addr }
func MemberKey(id int64) string     { return "member:" + strconv.FormatInt(id, 10) }
