package apitest

import "sync"

// Together runs fn(i) for i in [0, n) on n goroutines released at the same
// moment, and waits for all of them. A parallel test that starts goroutines
// one by one in a loop only makes overlap likely (on two cores the first may
// finish before the last starts); a start barrier makes every request
// contend for the same rows at once.
//
// fn runs on a goroutine of its own: it may call Client.Do and Send, and
// t.Errorf, but not t.Fatalf or Response.Want (which stop the goroutine they
// run on, not the test). Collect the answers and check them after Together
// returns.
func Together(n int, fn func(i int)) { together(n, fn, func() {}) }

// together is Together with a hook run once every goroutine waits at the
// barrier and none has been released.
func together(n int, fn func(i int), atBarrier func()) {
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	ready.Add(n)
	done.Add(n)
	for i := range n {
		go func() {
			defer done.Done()
			ready.Done()
			<-start
			fn(i)
		}()
	}
	ready.Wait()
	atBarrier()
	close(start)
	done.Wait()
}

// TogetherV is Together for work that answers a value: the answers in the
// order of i.
func TogetherV[T any](n int, fn func(i int) T) []T {
	out := make([]T, n)
	Together(n, func(i int) { out[i] = fn(i) })
	return out
}
