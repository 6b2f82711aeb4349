package apitest

import (
	"sync/atomic"
	"testing"
)

// No goroutine runs fn before all n wait at the barrier, and all run after.
func TestTogetherReleasesEveryGoroutineAtOnce(t *testing.T) {
	t.Parallel()
	const n = 16
	var ran atomic.Int32
	atBarrier := int32(-1)
	together(n, func(int) { ran.Add(1) }, func() { atBarrier = ran.Load() })
	if atBarrier != 0 || ran.Load() != n {
		t.Fatalf("%d ran before the barrier opened, %d in all; want 0 and %d", atBarrier, ran.Load(), n)
	}
	got := TogetherV(n, func(i int) int { return i * i })
	for i, v := range got {
		if v != i*i {
			t.Fatalf("answer %d is %d: TogetherV keeps the order of i", i, v)
		}
	}
}
