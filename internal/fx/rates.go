// Package fx answers exchange rates: from PostgreSQL when the pair's rate of
// the day is stored, else from the provider (package external/fx), stored
// for everyone after.
//
// One provider call per pair per day, across requests and replicas: a
// session advisory lock per pair and day, taken on a connection of its own,
// is held around "read the cache, call the provider, store". It is a
// session lock, not a transaction, so no transaction or row lock is open
// while the provider is called. A request that finds the lock taken waits for
// it, then reads the rate the holder stored; when the holder stored nothing
// (the provider failed), the waiter does not call again but answers from the
// newest stored rate, or 503. An outage therefore costs one call per burst,
// not one per waiting request, and nobody waits longer than one call's
// deadline plus a margin. The price: each waiting request holds a pool
// connection for at most that long.
package fx

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/shopspring/decimal"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/clock"
	fxclient "github.com/nestegg/nestegg/internal/external/fx"
	"github.com/nestegg/nestegg/internal/problem"
)

// lockWait bounds how long a request waits for another's provider call.
const lockWait = fxclient.Timeout + 2*time.Second

// retryAfter is the Retry-After of a 503: a provider outage is rarely shorter.
const retryAfter = "60"

var currencyRE = regexp.MustCompile(`^[A-Z]{3}$`)

// Rate is 1 From in To on Day. Day is the calendar day asked for; it is
// earlier than asked only when the provider failed and an older stored rate
// was answered instead.
type Rate struct {
	From, To string
	Rate     decimal.Decimal
	Day      time.Time
}

// Rates looks rates up and keeps them.
type Rates struct {
	pool     *pgxpool.Pool
	provider *fxclient.Client
	clock    clock.Clock
	loc      *time.Location
}

// New returns the rate service; loc is APP_TIMEZONE, which decides days.
func New(pool *pgxpool.Pool, provider *fxclient.Client, clk clock.Clock, loc *time.Location) *Rates {
	return &Rates{pool: pool, provider: provider, clock: clk, loc: loc}
}

// Today returns today's rate from → to.
func (r *Rates) Today(ctx context.Context, from, to string) (Rate, error) {
	return r.RateOn(ctx, from, to, r.clock.Now())
}

// RateOn returns the rate from → to of day's calendar day in the app time
// zone (today's for a day in the future). Ledger code uses it for a foreign
// entry without a rate. A currency that is not three upper-case letters is a
// 400 on /from or /to; a provider that fails with nothing stored is a 503.
func (r *Rates) RateOn(ctx context.Context, from, to string, day time.Time) (Rate, error) {
	if !currencyRE.MatchString(from) {
		return Rate{}, problem.Invalid("/from", "must be an ISO 4217 code such as USD")
	}
	if !currencyRE.MatchString(to) {
		return Rate{}, problem.Invalid("/to", "must be an ISO 4217 code such as KRW")
	}
	today := civilDay(r.clock.Now(), r.loc)
	d := civilDay(day, r.loc)
	if d.After(today) {
		d = today
	}
	if from == to {
		return Rate{From: from, To: to, Rate: decimal.NewFromInt(1), Day: d}, nil
	}
	key := db.GetFXRateParams{FromCurrency: from, ToCurrency: to, Day: d}
	if row, err := db.New(r.pool).GetFXRate(ctx, key); err == nil {
		return Rate{From: from, To: to, Rate: row.Rate, Day: d}, nil
	} else if !errors.Is(err, pgx.ErrNoRows) {
		return Rate{}, fmt.Errorf("fx rate %s/%s %s: %w", from, to, d.Format(time.DateOnly), err)
	}
	return r.fetchOnce(ctx, key, d.Equal(today))
}

// fetchOnce calls the provider under the pair's advisory lock, see the
// package comment.
func (r *Rates) fetchOnce(ctx context.Context, key db.GetFXRateParams, latest bool) (Rate, error) {
	conn, err := r.pool.Acquire(ctx)
	if err != nil {
		return Rate{}, fmt.Errorf("fx: acquire connection: %w", err)
	}
	// A connection whose lock state is uncertain (an error while locking or
	// unlocking) is closed: closing the session releases its locks.
	healthy := false
	defer func() {
		if !healthy {
			_ = conn.Conn().Close(context.Background())
		}
		conn.Release()
	}()
	lockKey := fmt.Sprintf("fx_rate:%s:%s:%s", key.FromCurrency, key.ToCurrency, key.Day.Format(time.DateOnly))
	var got bool
	if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock(hashtextextended($1, 0))", lockKey).Scan(&got); err != nil {
		return Rate{}, fmt.Errorf("fx: lock %s: %w", lockKey, err)
	}
	waited := !got
	if waited {
		waitCtx, cancel := context.WithTimeout(ctx, lockWait)
		_, err := conn.Exec(waitCtx, "SELECT pg_advisory_lock(hashtextextended($1, 0))", lockKey)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return Rate{}, ctx.Err()
			}
			return r.fallback(ctx, key, fmt.Errorf("fx: waiting for %s: %w", lockKey, err))
		}
	}
	unlock := func() {
		_, err := conn.Exec(context.Background(), "SELECT pg_advisory_unlock(hashtextextended($1, 0))", lockKey)
		healthy = err == nil
	}
	q := db.New(conn)
	if row, err := q.GetFXRate(ctx, key); err == nil {
		unlock()
		return Rate{From: key.FromCurrency, To: key.ToCurrency, Rate: row.Rate, Day: key.Day}, nil
	} else if !errors.Is(err, pgx.ErrNoRows) {
		unlock()
		return Rate{}, fmt.Errorf("fx rate %s: %w", lockKey, err)
	}
	if waited {
		// The holder just called the provider and stored nothing: it failed.
		unlock()
		return r.fallback(ctx, key, errors.New("fx: the provider failed for the request this one waited for"))
	}
	// Others may be waiting for this call: it is finished (within the
	// client's own deadline) even when this request's caller goes away.
	detached := context.WithoutCancel(ctx)
	quote, err := r.provider.Rate(detached, key.FromCurrency, key.ToCurrency, key.Day, latest)
	if err != nil {
		unlock()
		return r.fallback(ctx, key, err)
	}
	err = q.SaveFXRate(detached, db.SaveFXRateParams{
		FromCurrency: key.FromCurrency, ToCurrency: key.ToCurrency, Day: key.Day,
		Rate: quote.Rate, RateDate: civilDay(quote.Date, time.UTC), FetchedAt: r.clock.Now(),
	})
	unlock()
	if err != nil {
		return Rate{}, fmt.Errorf("fx: store %s: %w", lockKey, err)
	}
	return Rate{From: key.FromCurrency, To: key.ToCurrency, Rate: quote.Rate, Day: key.Day}, nil
}

// fallback answers the newest stored rate on or before the day when the
// provider cannot be asked, else a 503.
func (r *Rates) fallback(ctx context.Context, key db.GetFXRateParams, cause error) (Rate, error) {
	row, err := db.New(r.pool).LatestFXRateBefore(ctx, db.LatestFXRateBeforeParams(key))
	if err == nil {
		return Rate{From: key.FromCurrency, To: key.ToCurrency, Rate: row.Rate, Day: row.Day}, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return Rate{}, fmt.Errorf("fx: stored rate %s/%s: %w", key.FromCurrency, key.ToCurrency, err)
	}
	p := problem.Unavailable(problem.CodeServiceUnavailable,
		fmt.Sprintf("no %s→%s rate is available now; try again later", key.FromCurrency, key.ToCurrency), cause)
	p.Headers = map[string]string{"Retry-After": retryAfter}
	return Rate{}, p
}

// civilDay is t's calendar day in loc, as a UTC midnight (how dates are
// stored and compared).
func civilDay(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
