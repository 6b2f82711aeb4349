package heavy

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"
)

// Share is the part of the process's cores that its heavy operations may
// take together while they stream: half of a core for every two
// (GOMAXPROCS/2 × Share, at least Share), divided among the heavy
// operations running. After each page an operation rests for as long as
// its part asks (one alone on 2 cores: as long as the page took; four at
// once: seven times as long), so however many the replica admits
// (HEAVY_PER_REPLICA), together they leave the rest of the CPU to other
// members' requests. BenchmarkNeighbourReadWhileHeavy (internal/backup,
// figures in its README) measures what it buys.
const Share = 0.5

// running counts the heavy operations this process runs (Gate.Admit): the
// CPU they share is the process's, whichever gate admitted them.
var running atomic.Int64

// Pacer keeps a heavy operation's work to its part of Share: call Rest
// between pages. Resting never costs the operation its deadline: once half
// of the time it had at its start has gone, it stops resting and finishes
// at full speed (a loaded machine made a paced 200,000-entry backup miss
// its 60 s).
type Pacer struct {
	start, since time.Time
	// budget is the cores all heavy operations may take together.
	budget float64
	// running answers how many heavy operations run now (at least 1).
	running func() int64
}

// NewPacer starts counting the work from now.
func NewPacer() *Pacer {
	now := time.Now()
	return &Pacer{
		start: now, since: now,
		budget:  max(Share, Share*float64(runtime.GOMAXPROCS(0))/2),
		running: func() int64 { return running.Load() },
	}
}

// Rest sleeps so that the work since the last Rest takes this operation's
// part of the budget, and answers ctx's error if it ends first.
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

// restFor is how long to rest at now: the work since the last rest times
// (1-part)/part, where part is the budget over the operations running (at
// most a whole core: one operation cannot use more), none past half of
// ctx's time.
func (p *Pacer) restFor(ctx context.Context, now time.Time) time.Duration {
	if deadline, ok := ctx.Deadline(); ok && deadline.Sub(now) < deadline.Sub(p.start)/2 {
		return 0
	}
	part := min(1, p.budget/float64(max(1, p.running())))
	worked := now.Sub(p.since)
	return time.Duration(float64(worked) * (1 - part) / part)
}
