package session

import (
	"sync/atomic"
	"time"
)

// breaker keeps requests off a Redis that is failing. Closed, every request
// uses Redis. After a failure it opens for the back-off: requests go straight
// to PostgreSQL. When the back-off has passed, exactly one request probes
// Redis (half-open) while the others keep to PostgreSQL; its success closes
// the breaker, its failure opens it for another back-off. So a dead or frozen
// Redis costs one request a timeout per back-off, not every request.
type breaker struct {
	backoff time.Duration
	// openUntil is 0 while closed, else the Unix nanoseconds the back-off ends.
	openUntil atomic.Int64
	probing   atomic.Bool
}

func newBreaker(backoff time.Duration) *breaker { return &breaker{backoff: backoff} }

// allow reports whether this request may use Redis.
func (b *breaker) allow() bool {
	until := b.openUntil.Load()
	if until == 0 {
		return true
	}
	if time.Now().UnixNano() < until {
		return false
	}
	// Half-open: one probe at a time.
	return b.probing.CompareAndSwap(false, true)
}

func (b *breaker) succeeded() {
	b.openUntil.Store(0)
	b.probing.Store(false)
}

// failed opens the breaker and reports whether it was closed before (the
// start of an outage, worth one log line).
func (b *breaker) failed() bool {
	wasClosed := b.openUntil.Swap(time.Now().Add(b.backoff).UnixNano()) == 0
	b.probing.Store(false)
	return wasClosed
}

// abandoned gives back a probe whose caller went away before Redis answered.
func (b *breaker) abandoned() { b.probing.Store(false) }
