package backup_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/apitest"
)

// maxLivePerDoc bounds what a restore holds, over what was in use before,
// against its document's size. The body the contract layer reads is 1; the
// entries are decoded one at a time and written a batch at a time, and what
// grows with them is a few words an entry; the sampling adds what is
// allocated while a collection runs (a few MiB here, 1.7 in all measured).
// Before (issue 42) the strict handler's decoder held the document a second
// time and decoded it whole, with every row on top: over 3.
const maxLivePerDoc = 2.2

// A restore of a large-ish document (8 MiB, 20,000 entries) holds little
// beyond the document: its live heap, sampled after a collection every few
// milliseconds, grows by at most maxLivePerDoc times the body. Live, not
// peak: how much garbage piles up between collections is the runtime's
// pacing (GOGC) and depends on the rest of the heap, not on the restore.
func TestRestoreHoldsLittleBeyondItsDocument(t *testing.T) {
	if testing.Short() {
		t.Skip("an 8 MiB document")
	}
	// Not parallel: the heap measured is the process's, and the package's
	// parallel tests wait until this one has ended.
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	body, _ := json.Marshal(bigBackup(8 << 20))
	// Sent as it is (the test client's checks would copy the body).
	req, _ := http.NewRequest(http.MethodPost, env.Server.URL+"/api/account/restore", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+m.Token)

	// Two collections: the first leaves what sync.Pool keeps (the
	// encoder's buffer of the body) in its victim cache, the second frees it.
	runtime.GC()
	base := liveNow()
	stop := sampleLive(5 * time.Millisecond)
	res, err := env.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(res.Body)
	res.Body.Close()
	peak := stop()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %.300s", res.StatusCode, answer)
	}
	grew := float64(peak) - float64(base)
	t.Logf("document %.1f MiB, live heap grew by %.1f MiB at most: %.2f× the document",
		float64(len(body))/(1<<20), grew/(1<<20), grew/float64(len(body)))
	if grew > maxLivePerDoc*float64(len(body)) {
		t.Fatalf("the restore held %.2f× its document, over %.1f×", grew/float64(len(body)), maxLivePerDoc)
	}
}

// liveNow collects garbage and answers the bytes of heap objects left.
func liveNow() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// sampleLive collects garbage every interval and reads what is left (live,
// plus what was allocated since the collection ended) until the returned
// function is called, which answers the largest figure seen.
func sampleLive(interval time.Duration) func() uint64 {
	var (
		peak uint64
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			peak = max(peak, liveNow())
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
