package backup_test

import (
	"encoding/json"
	"net/http"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/apitest"
)

// BenchmarkRestoreLargest restores the largest document the contract takes
// (64 MiB: 162,000 entries with memos and tags) and reports the heap it
// took at its peak over what was in use before, against the document's
// size. The server runs in the test process, so the heap is the service's
// (the test holds only the document's bytes, counted in the baseline).
//
//	go test -run '^$' -bench RestoreLargest -benchtime 1x ./internal/backup
func BenchmarkRestoreLargest(b *testing.B) {
	benchRestore(b, false)
}

// BenchmarkRestoreLargestInvalid is the same document with its last 30
// entries missing a nullable key: the case that took 4.4 GB.
func BenchmarkRestoreLargestInvalid(b *testing.B) {
	benchRestore(b, true)
}

func benchRestore(b *testing.B, invalid bool) {
	env := apitest.New(b)
	m := env.NewMember(apitest.AsPremium())
	body, _ := json.Marshal(bigBackup(maxRestoreBody - 4096))
	want := http.StatusOK
	if invalid {
		body = dropKeys(body, `"currency":null,`, 30)
		want = http.StatusBadRequest
	}
	var peak, alloc float64
	b.ResetTimer()
	for range b.N {
		base, total := heapNow()
		stop := samplePeak()
		res := m.Raw().Send(http.MethodPost, "/api/account/restore", "application/json", body)
		top := stop()
		_, after := heapNow()
		if res.Status != want {
			b.Fatalf("status %d, want %d: %.300s", res.Status, want, res.Body)
		}
		peak = max(peak, float64(top-base))
		alloc = max(alloc, float64(after-total))
	}
	// One more restore outside the timing: the live heap at its peak,
	// sampled after a collection every 20 ms (the garbage in peak-heap is
	// the runtime's pacing, which the rest of the heap sets).
	b.StopTimer()
	runtime.GC()
	base := liveNow()
	stop := sampleLive(20 * time.Millisecond)
	res := m.Raw().Send(http.MethodPost, "/api/account/restore", "application/json", body)
	live := float64(stop()) - float64(base)
	if res.Status != want {
		b.Fatalf("status %d, want %d", res.Status, want)
	}
	b.ReportMetric(live/float64(len(body)), "live/doc")
	b.ReportMetric(float64(len(body))/(1<<20), "doc-MiB")
	b.ReportMetric(peak/(1<<20), "peak-heap-MiB")
	b.ReportMetric(peak/float64(len(body)), "peak/doc")
	b.ReportMetric(alloc/(1<<20), "alloc-MiB")
}

// heapNow collects garbage and answers the bytes of heap objects in use and
// allocated so far.
func heapNow() (inUse, allocated uint64) {
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// samplePeak watches the heap's objects (live and not yet collected, what
// the process must hold) until the returned function is called, which
// answers the largest figure seen.
func samplePeak() func() uint64 {
	var (
		mu   sync.Mutex
		peak uint64
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			mu.Lock()
			peak = max(peak, s[0].Value.Uint64())
			mu.Unlock()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak
	}
}
