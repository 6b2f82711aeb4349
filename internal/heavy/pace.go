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
// between pages.
type Pacer struct {
	since time.Time
	share float64
}

// NewPacer starts counting the work from now.
func NewPacer() *Pacer { return &Pacer{since: time.Now(), share: Share} }

// Rest sleeps so that the work since the last Rest takes Share of the time,
// and answers ctx's error if it ends first.
func (p *Pacer) Rest(ctx context.Context) error {
	worked := time.Since(p.since)
	rest := time.Duration(float64(worked) * (1 - p.share) / p.share)
	t := time.NewTimer(rest)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
	}
	p.since = time.Now()
	return nil
}
