// Package quota meters the outside calls a member causes: FX lookups, AI
// parsing and receipt OCR each have a per-member limit per day (APP_TIMEZONE),
// counted in PostgreSQL so every replica shares the count. A call is reserved
// before it is made, by one conditional upsert, so parallel requests cannot
// outrun a limit; a call that then fails still counts (it cost the provider
// a request).
package quota

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/jobs"
	"github.com/nestegg/nestegg/internal/problem"
)

// Kind is a metered outside service.
type Kind string

// The metered kinds (the values of outside_call_count.kind).
const (
	FX  Kind = "FX"
	AI  Kind = "AI"
	OCR Kind = "OCR"
)

// Limits are the calls a member may cause per day, per kind.
type Limits struct {
	FX, AI, OCR int
}

func (l Limits) of(k Kind) int {
	switch k {
	case FX:
		return l.FX
	case AI:
		return l.AI
	case OCR:
		return l.OCR
	}
	panic("quota: unknown kind " + string(k))
}

// Meter reserves calls against the daily limits.
type Meter struct {
	pool   *pgxpool.Pool
	clock  clock.Clock
	loc    *time.Location
	limits Limits
}

// New returns a meter; loc is APP_TIMEZONE, which decides days.
func New(pool *pgxpool.Pool, clk clock.Clock, loc *time.Location, limits Limits) *Meter {
	return &Meter{pool: pool, clock: clk, loc: loc, limits: limits}
}

var names = map[Kind]string{FX: "exchange rate lookups", AI: "AI text parses", OCR: "receipt recognitions"}

// Reserve counts one call of kind for the member today, or answers 429
// RATE_LIMITED with Retry-After (the seconds until the member's next day)
// when today's limit is reached.
func (m *Meter) Reserve(ctx context.Context, memberID int64, kind Kind) error {
	now := m.clock.Now().In(m.loc)
	limit := m.limits.of(kind)
	_, err := db.New(m.pool).ReserveOutsideCall(ctx, db.ReserveOutsideCallParams{
		MemberID: memberID, Kind: string(kind), Day: calendar.Day(now, m.loc), DailyLimit: int32(min(limit, math.MaxInt32)),
	})
	if errors.Is(err, pgx.ErrNoRows) {
		y, mo, d := now.Date()
		next := time.Date(y, mo, d+1, 0, 0, 0, 0, m.loc)
		p := problem.New(http.StatusTooManyRequests, problem.CodeRateLimited,
			fmt.Sprintf("the daily limit of %d %s is used up; it starts again at midnight", limit, names[kind]))
		p.Headers = map[string]string{"Retry-After": strconv.Itoa(int(math.Ceil(next.Sub(now).Seconds())))}
		return p
	}
	if err != nil {
		return fmt.Errorf("reserve %s call of member %d: %w", kind, memberID, err)
	}
	return nil
}

// CleanupJob deletes the counts of days before yesterday, which no request
// counts against any more (yesterday's stays for a replica whose clock is a
// little behind).
func (m *Meter) CleanupJob() jobs.Job {
	return jobs.Job{
		Name:  "outside-call-count-cleanup",
		Every: 24 * time.Hour,
		Run: func(ctx context.Context, now time.Time) error {
			yesterday := calendar.Day(now, m.loc).AddDate(0, 0, -1)
			_, err := db.New(m.pool).DeleteOutsideCallCountsBefore(ctx, yesterday)
			if err != nil {
				return fmt.Errorf("delete old outside call counts: %w", err)
			}
			return nil
		},
	}
}
