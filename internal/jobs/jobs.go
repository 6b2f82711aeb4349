// Package jobs runs the service's scheduled work inside the server. Each run
// holds a PostgreSQL advisory lock and records when it ran, so any number of
// replicas can tick and a job still runs once per period.
package jobs

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/clock"
)

// Job is one piece of scheduled work.
type Job struct {
	Name  string
	Every time.Duration
	Run   func(ctx context.Context, now time.Time) error
}

// Runner runs jobs on their schedule.
type Runner struct {
	pool  *pgxpool.Pool
	clock clock.Clock
	jobs  map[string]Job
}

// NewRunner returns a runner of jobs.
func NewRunner(pool *pgxpool.Pool, c clock.Clock, jobs ...Job) *Runner {
	r := &Runner{pool: pool, clock: c, jobs: map[string]Job{}}
	for _, j := range jobs {
		r.jobs[j.Name] = j
	}
	return r
}

// ErrUnknownJob is returned by Run for a name no job has.
var ErrUnknownJob = errors.New("unknown job")

// Run runs the named job now unless another replica holds its lock or it ran
// less than one period ago by the runner's clock. It reports whether it ran.
// Tests call it directly with a set clock.
func (r *Runner) Run(ctx context.Context, name string) (bool, error) {
	job, ok := r.jobs[name]
	if !ok {
		return false, fmt.Errorf("%w: %s", ErrUnknownJob, name)
	}
	conn, err := r.pool.Acquire(ctx)
	if err != nil {
		return false, fmt.Errorf("job %s: acquire: %w", name, err)
	}
	defer conn.Release()
	key := lockKey(name)
	var locked bool
	if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", key).Scan(&locked); err != nil {
		return false, fmt.Errorf("job %s: lock: %w", name, err)
	}
	if !locked {
		return false, nil
	}
	defer func() {
		// A fresh context: the lock must be released even when ctx is done.
		_, _ = conn.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", key)
	}()

	q := db.New(conn)
	now := r.clock.Now()
	last, err := q.GetJobLastRun(ctx, name)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return false, fmt.Errorf("job %s: last run: %w", name, err)
	case now.Sub(last) < job.Every:
		return false, nil
	}
	if err := job.Run(ctx, now); err != nil {
		return false, fmt.Errorf("job %s: %w", name, err)
	}
	if err := q.SetJobLastRun(ctx, db.SetJobLastRunParams{Name: name, LastRunAt: now}); err != nil {
		return true, fmt.Errorf("job %s: record run: %w", name, err)
	}
	return true, nil
}

// Start ticks every job until ctx is done. The tick is a fraction of the
// period so a job that another replica ran is picked up soon after it is due.
func (r *Runner) Start(ctx context.Context) {
	for name, job := range r.jobs {
		go func() {
			tick := time.NewTicker(min(job.Every/12, 5*time.Minute))
			defer tick.Stop()
			for {
				if ran, err := r.Run(ctx, name); err != nil {
					slog.Error("job failed", "job", name, "error", err)
				} else if ran {
					slog.Info("job ran", "job", name)
				}
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
				}
			}
		}()
	}
}

func lockKey(name string) int64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte("nestegg:job:" + name))
	return int64(h.Sum64())
}
