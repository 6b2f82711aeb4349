package heavy

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestPacerRestsAsLongAsTheWorkAndStopsWithItsContext: with Share one half a
// rest is as long as the work before it (the clock only moves forward, so
// this holds however loaded the machine is), and a request that ends stops
// its rest at once with the context's error.
func TestPacerRestsAsLongAsTheWorkAndStopsWithItsContext(t *testing.T) {
	p := NewPacer()
	p.since = time.Now().Add(-20 * time.Millisecond) // 20 ms of work
	start := time.Now()
	if err := p.Rest(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rested := time.Since(start); rested < 20*time.Millisecond {
		t.Fatalf("rested %v after 20ms of work", rested)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p.since = time.Now().Add(-time.Hour)
	if err := p.Rest(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("rest of an ended request: %v", err)
	}
}

// TestPacerStopsRestingPastHalfItsDeadline: an operation with a deadline
// rests while more than half of the time it started with is left, and not
// after, so pacing never makes it miss the deadline it would have met.
func TestPacerStopsRestingPastHalfItsDeadline(t *testing.T) {
	start := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	ctx, cancel := context.WithDeadline(context.Background(), start.Add(60*time.Second))
	defer cancel()
	p := &Pacer{start: start, budget: Share, running: func() int64 { return 1 }}
	for _, c := range []struct {
		at   time.Duration // since the start
		want time.Duration // after a second of work
	}{{1 * time.Second, time.Second}, {29 * time.Second, time.Second}, {31 * time.Second, 0}, {59 * time.Second, 0}} {
		now := start.Add(c.at)
		p.since = now.Add(-time.Second)
		if got := p.restFor(ctx, now); got != c.want {
			t.Errorf("%v into a 60 s deadline, after 1 s of work: rest %v, want %v", c.at, got, c.want)
		}
	}
	p.since = start
	if got := p.restFor(context.Background(), start.Add(time.Hour)); got != time.Hour {
		t.Errorf("without a deadline, after an hour of work: rest %v, want an hour", got)
	}
}

// TestPacerSharesTheBudgetAmongTheOperationsRunning: the operations running
// at once share one budget, so each rests longer the more there are (on a
// 2-core replica, half a core in all: one alone rests as long as it worked,
// four rest seven times as long), and one operation never gets more than a
// whole core however large the budget.
func TestPacerSharesTheBudgetAmongTheOperationsRunning(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		budget  float64
		running int64
		want    time.Duration // after a second of work
	}{
		{0.5, 0, time.Second}, // counted before its admission: as one
		{0.5, 1, time.Second},
		{0.5, 2, 3 * time.Second},
		{0.5, 4, 7 * time.Second},
		{2, 1, 0},
		{2, 4, 1 * time.Second},
	} {
		p := &Pacer{start: now, since: now.Add(-time.Second), budget: c.budget, running: func() int64 { return c.running }}
		if got := p.restFor(context.Background(), now); got != c.want {
			t.Errorf("budget %.1f cores, %d running: rest %v after 1 s of work, want %v", c.budget, c.running, got, c.want)
		}
	}
}

// TestGateCountsTheOperationsRunning: an admitted operation counts for the
// pacers of the process until it is released.
func TestGateCountsTheOperationsRunning(t *testing.T) {
	before := running.Load()
	g := &Gate{slots: make(chan struct{}, 2)}
	release := g.admitSlot()
	if got := running.Load() - before; got != 1 {
		t.Fatalf("after one admission %d more running, want 1", got)
	}
	release()
	if got := running.Load() - before; got != 0 {
		t.Fatalf("after its release %d more running, want 0", got)
	}
}
