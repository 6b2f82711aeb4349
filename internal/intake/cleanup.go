package intake

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/jobs"
)

// CleanupJobName is the daily cleanup of cancellation keys.
const CleanupJobName = "notification-key-cleanup"

// KeyWindow is how long a cancellation's key is kept. A phone redelivers a
// notification within minutes to days (a retried push, the same alert again
// by SMS); a cancellation delivered again after a month is not a
// redelivery the service can tell from a new one, and keeping every key
// forever would grow the table with every card cancellation.
const KeyWindow = 30 * 24 * time.Hour

// CleanupJob deletes, daily, the cancellation keys older than KeyWindow.
func CleanupJob(pool *pgxpool.Pool) jobs.Job {
	return jobs.Job{
		Name:  CleanupJobName,
		Every: 24 * time.Hour,
		Run: func(ctx context.Context, now time.Time) error {
			n, err := db.New(pool).DeleteNotificationKeysBefore(ctx, now.Add(-KeyWindow))
			if err != nil {
				return fmt.Errorf("delete old notification keys: %w", err)
			}
			if n > 0 {
				slog.InfoContext(ctx, "old notification keys deleted", "keys", n)
			}
			return nil
		},
	}
}
