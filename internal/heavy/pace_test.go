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
