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
	p := &Pacer{start: start, share: Share}
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
