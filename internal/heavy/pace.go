package heavy

import (
	"context"
	"time"
)

// Share is the part of one core a heavy operation's own work may take while
// it streams: after each page it rests for as long as the page took, so on
// a small replica (2 cores) the heavy operations admitted at once leave the
// CPU to other members' requests. BenchmarkNeighbourReadWhileHeavy
// (internal/backup, figures in its README) measures what it buys.
const Share = 0.5

// Pacer keeps a heavy operation's work to Share of a core: call Rest
// between pages. Resting never costs the operation its deadline: once half
// of the time it had at its start has gone, it stops resting and finishes
// at full speed (a loaded machine made a paced 200,000-entry backup miss
// its 60 s).
type Pacer struct {
	start, since time.Time
	share        float64
}

// NewPacer starts counting the work from now.
func NewPacer() *Pacer {
	now := time.Now()
	return &Pacer{start: now, since: now, share: Share}
}

// Rest sleeps so that the work since the last Rest takes Share of the time,
// and answers ctx's error if it ends first.
func (p *Pacer) Rest(ctx context.Context) error {
	t := time.NewTimer(p.restFor(ctx, time.Now()))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
	}
	p.since = time.Now()
	return nil
}

// restFor is how long to rest at now: as long as the work since the last
// rest times (1-share)/share, none past half of ctx's time.
func (p *Pacer) restFor(ctx context.Context, now time.Time) time.Duration {
	if deadline, ok := ctx.Deadline(); ok && deadline.Sub(now) < deadline.Sub(p.start)/2 {
		return 0
	}
	worked := now.Sub(p.since)
	return time.Duration(float64(worked) * (1 - p.share) / p.share)
}
