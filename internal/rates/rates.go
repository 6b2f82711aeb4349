// Package rates answers exchange rates: from PostgreSQL when the pair's rate
// of the day is stored, else from the provider (package external/fx), stored
// for everyone after.
//
// One provider call per pair per day, across requests and replicas, and no
// database connection held while the provider is called: a request that
// finds no stored rate claims the pair and day in fx_lookup ("fetching until
// T", one conditional upsert that commits at once), calls the provider with
// no connection held, then stores the rate and drops the claim. A request
// that finds the claim taken polls the stored rate with short reads; when the
// holder stores nothing (the provider failed), the waiter does not call again
// but answers from the newest stored rate, or 503. A failure is remembered in
// fx_lookup for missMemory, so the same miss asked again at once, on any
// replica, costs no call. A claim whose holder died ends by itself at T.
//
// Only a request that calls the provider counts against the member's daily
// FX limit (package quota): stored rates, remembered failures and waiting
// for another request's call are free.
package rates

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/shopspring/decimal"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/external/fx"
	"github.com/nestegg/nestegg/internal/jobs"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/quota"
)

const (
	// claimFor is how long a claim keeps others from calling: one call's
	// deadline plus a margin for storing the answer.
	claimFor = fx.Timeout + 2*time.Second
	// waitFor bounds how long a request waits for another's provider call.
	waitFor = claimFor
	// pollEvery is how often a waiting request reads the stored rate.
	pollEvery = 50 * time.Millisecond
	// missMemory is how long a failed lookup is not asked again.
	missMemory = time.Minute
)

// retryAfter is the Retry-After of a 503: a provider outage is rarely
// shorter, and a remembered miss is not asked again sooner.
var retryAfter = strconv.Itoa(int(missMemory.Seconds()))

// Rate is 1 From in To on Day. Day is the calendar day asked for; it is
// earlier than asked only when the provider failed and an older stored rate
// was answered instead.
type Rate struct {
	From, To string
	Rate     decimal.Decimal
	Day      time.Time
}

// Cache looks rates up, in PostgreSQL first and at the provider for the ones
// it lacks, and keeps them.
type Cache struct {
	pool     *pgxpool.Pool
	provider *fx.Client
	meter    *quota.Meter
	clock    clock.Clock
	loc      *time.Location
}

// New returns the rate cache; loc is APP_TIMEZONE, which decides days.
func New(pool *pgxpool.Pool, provider *fx.Client, meter *quota.Meter, clk clock.Clock, loc *time.Location) *Cache {
	return &Cache{pool: pool, provider: provider, meter: meter, clock: clk, loc: loc}
}

// Today returns today's rate from → to for the member.
func (r *Cache) Today(ctx context.Context, memberID int64, from, to string) (Rate, error) {
	return r.RateOn(ctx, memberID, from, to, r.clock.Now())
}

// RateOn returns the rate from → to of day's calendar day in the app time
// zone (today's for a day in the future), for the member whose request asks
// (a provider call counts against their daily FX limit: 429 over it). Ledger
// code uses it for a foreign entry without a rate. A currency that is not an
// ISO 4217 code is a 400 on /from or /to, without a provider call; a provider
// that fails with nothing stored is a 503.
func (r *Cache) RateOn(ctx context.Context, memberID int64, from, to string, day time.Time) (Rate, error) {
	if !IsCurrency(from) {
		return Rate{}, problem.Invalid("/from", "must be an ISO 4217 currency code such as USD")
	}
	if !IsCurrency(to) {
		return Rate{}, problem.Invalid("/to", "must be an ISO 4217 currency code such as KRW")
	}
	today := calendar.Day(r.clock.Now(), r.loc)
	d := calendar.Day(day, r.loc)
	if d.After(today) {
		d = today
	}
	if from == to {
		return Rate{From: from, To: to, Rate: decimal.NewFromInt(1), Day: d}, nil
	}
	key := db.GetFXRateParams{FromCurrency: from, ToCurrency: to, Day: d}
	if !r.provider.Configured() {
		return r.unconfigured(ctx, key)
	}
	return r.lookup(ctx, memberID, key, d.Equal(today))
}

// ErrNotConfigured answers a rate that only a provider could give when none
// is configured: no retry helps, so no Retry-After (issue 43).
var ErrNotConfigured = problem.Unavailable(problem.CodeFXNotConfigured,
	"exchange rates are not configured on this service (FX_API_URL): give the won amount or the exchange rate", nil)

// unconfigured answers the day's stored rate (or the newest before it) when
// no provider is configured, else ErrNotConfigured.
func (r *Cache) unconfigured(ctx context.Context, key db.GetFXRateParams) (Rate, error) {
	rate, err := r.fallback(ctx, key, fx.ErrNotConfigured)
	if pe, ok := problem.As(err); ok && pe.Code == problem.CodeDependencyUnavailable {
		return Rate{}, ErrNotConfigured
	}
	return rate, err
}

// lookup answers the stored rate, or calls the provider under a claim, or
// waits for another request's call; see the package comment. Every statement
// is a short one on a pooled connection, released before the next.
func (r *Cache) lookup(ctx context.Context, memberID int64, key db.GetFXRateParams, latest bool) (Rate, error) {
	q := db.New(r.pool)
	lk := db.GetFXLookupParams(key)
	name := fmt.Sprintf("%s/%s %s", key.FromCurrency, key.ToCurrency, key.Day.Format(time.DateOnly))
	deadline := time.Now().Add(waitFor)
	for {
		if row, err := q.GetFXRate(ctx, key); err == nil {
			return Rate{From: key.FromCurrency, To: key.ToCurrency, Rate: row.Rate, Day: key.Day}, nil
		} else if !errors.Is(err, pgx.ErrNoRows) {
			return Rate{}, fmt.Errorf("fx rate %s: %w", name, err)
		}
		now := r.clock.Now()
		_, err := q.ClaimFXLookup(ctx, db.ClaimFXLookupParams{
			FromCurrency: key.FromCurrency, ToCurrency: key.ToCurrency, Day: key.Day, Until: now.Add(claimFor), Now: now,
		})
		if err == nil {
			// The holder before us stores the rate before it drops its
			// claim: a claim won just after that finds the rate stored.
			if row, err := q.GetFXRate(ctx, key); err == nil {
				if err := q.EndFXLookup(context.WithoutCancel(ctx), db.EndFXLookupParams(key)); err != nil {
					return Rate{}, fmt.Errorf("fx: end claim %s: %w", name, err)
				}
				return Rate{From: key.FromCurrency, To: key.ToCurrency, Rate: row.Rate, Day: key.Day}, nil
			}
			return r.fetch(ctx, memberID, key, latest)
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return Rate{}, fmt.Errorf("fx: claim %s: %w", name, err)
		}
		state, err := q.GetFXLookup(ctx, lk)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			// The holder stored the rate and dropped the claim (or gave it
			// back): read again.
			continue
		case err != nil:
			return Rate{}, fmt.Errorf("fx: lookup state %s: %w", name, err)
		case state.Failed:
			return r.fallback(ctx, key, fmt.Errorf("fx: the provider failed for %s a moment ago", name))
		}
		if time.Now().After(deadline) {
			return r.fallback(ctx, key, fmt.Errorf("fx: gave up waiting for another request's call of %s", name))
		}
		t := time.NewTimer(pollEvery)
		select {
		case <-ctx.Done():
			t.Stop()
			return Rate{}, ctx.Err()
		case <-t.C:
		}
	}
}

// fetch calls the provider for a pair and day this request has claimed, and
// stores the answer or remembers the failure. No connection is held during
// the call.
func (r *Cache) fetch(ctx context.Context, memberID int64, key db.GetFXRateParams, latest bool) (Rate, error) {
	q := db.New(r.pool)
	end := db.EndFXLookupParams(key)
	// Others may be waiting for this call: it and what follows are finished
	// (within the client's own deadline) even when this request's caller
	// goes away.
	detached := context.WithoutCancel(ctx)
	if err := r.meter.Reserve(ctx, memberID, quota.FX); err != nil {
		// Give the claim back, so that a waiting request of a member with
		// calls left takes it over.
		if endErr := q.EndFXLookup(detached, end); endErr != nil {
			return Rate{}, errors.Join(err, fmt.Errorf("fx: give back claim: %w", endErr))
		}
		return Rate{}, err
	}
	quote, err := r.provider.Rate(detached, key.FromCurrency, key.ToCurrency, key.Day, latest)
	if err != nil {
		ferr := q.FailFXLookup(detached, db.FailFXLookupParams{
			FromCurrency: key.FromCurrency, ToCurrency: key.ToCurrency, Day: key.Day, Until: r.clock.Now().Add(missMemory),
		})
		if ferr != nil {
			return Rate{}, errors.Join(err, fmt.Errorf("fx: remember failure: %w", ferr))
		}
		return r.fallback(ctx, key, err)
	}
	err = q.SaveFXRate(detached, db.SaveFXRateParams{
		FromCurrency: key.FromCurrency, ToCurrency: key.ToCurrency, Day: key.Day,
		Rate: quote.Rate, RateDate: calendar.Day(quote.Date, time.UTC), FetchedAt: r.clock.Now(),
	})
	if err != nil {
		return Rate{}, fmt.Errorf("fx: store %s/%s: %w", key.FromCurrency, key.ToCurrency, err)
	}
	if err := q.EndFXLookup(detached, end); err != nil {
		return Rate{}, fmt.Errorf("fx: end claim %s/%s: %w", key.FromCurrency, key.ToCurrency, err)
	}
	// Another request may have stored the pair first (a claim that ran out):
	// everyone answers the stored rate.
	if row, err := q.GetFXRate(detached, key); err == nil {
		quote.Rate = row.Rate
	}
	return Rate{From: key.FromCurrency, To: key.ToCurrency, Rate: quote.Rate, Day: key.Day}, nil
}

// fallback answers the newest stored rate on or before the day when the
// provider cannot be asked, else a 503.
func (r *Cache) fallback(ctx context.Context, key db.GetFXRateParams, cause error) (Rate, error) {
	row, err := db.New(r.pool).LatestFXRateBefore(ctx, db.LatestFXRateBeforeParams(key))
	if err == nil {
		return Rate{From: key.FromCurrency, To: key.ToCurrency, Rate: row.Rate, Day: row.Day}, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return Rate{}, fmt.Errorf("fx: stored rate %s/%s: %w", key.FromCurrency, key.ToCurrency, err)
	}
	p := problem.Unavailable(problem.CodeDependencyUnavailable,
		fmt.Sprintf("no %s→%s rate is available now; try again later", key.FromCurrency, key.ToCurrency), cause)
	p.Headers = map[string]string{"Retry-After": retryAfter}
	return Rate{}, p
}

// CleanupJob deletes claims and remembered failures that have ended.
func (r *Cache) CleanupJob() jobs.Job {
	return jobs.Job{
		Name:  "fx-lookup-cleanup",
		Every: 24 * time.Hour,
		Run: func(ctx context.Context, now time.Time) error {
			if _, err := db.New(r.pool).DeleteFXLookupsBefore(ctx, now); err != nil {
				return fmt.Errorf("delete ended fx lookups: %w", err)
			}
			return nil
		},
	}
}
