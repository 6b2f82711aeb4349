package billing

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/jobs"
	"github.com/nestegg/nestegg/internal/member"
)

// ExpiryJobName is the hourly plan expiry's name in the job runner.
const ExpiryJobName = "plan-expiry"

// ExpiryJob is the hourly demotion of lapsed plans: PREMIUM whose expiry has
// passed with auto-renew off becomes FREE, subscription fields cleared. An
// auto-renewing subscription is left to the store, and a permanent plan an
// administrator set has no expiry to pass. Running it twice changes nothing
// the first run did not; the runner holds the job's advisory lock.
func ExpiryJob(pool *pgxpool.Pool) jobs.Job {
	return jobs.Job{
		Name:  ExpiryJobName,
		Every: time.Hour,
		Run: func(ctx context.Context, now time.Time) error {
			_, err := ExpirePlans(ctx, pool, now)
			return err
		},
	}
}

// ExpirePlans demotes the plans lapsed at now and returns the members'
// ids. Their sessions see FREE from their next request.
func ExpirePlans(ctx context.Context, pool *pgxpool.Pool, now time.Time) ([]int64, error) {
	ids, err := member.DemoteExpired(ctx, db.New(pool), now)
	if err != nil {
		return nil, err
	}
	if len(ids) > 0 {
		slog.InfoContext(ctx, "expired plans demoted to FREE", "members", len(ids))
	}
	return ids, nil
}
