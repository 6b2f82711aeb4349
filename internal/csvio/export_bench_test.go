package csvio_test

import (
	"io"
	"net/http"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

// BenchmarkExport100k exports 100,000 entries (memos, categories, a tag on
// every tenth) through the API, reading the answer into io.Discard, and
// reports the heap at its peak over what was in use before and the bytes
// allocated per row. The server runs in the test process, so the heap is
// the service's.
//
//	go test -run '^$' -bench Export -benchtime 3x ./internal/csvio
func BenchmarkExport100k(b *testing.B) { benchExport(b, 100_000) }

// BenchmarkExport10k is the same with a tenth of the rows: the peak heap
// should not move with the row count.
func BenchmarkExport10k(b *testing.B) { benchExport(b, 10_000) }

func benchExport(b *testing.B, rows int) {
	env := apitest.New(b)
	m := env.NewMember(apitest.AsPremium())
	w := lt.Wallet(m.Client, "국민카드", api.WalletTypeCard, 0)
	food := lt.Category(m.Client, "식비", api.EntryTypeExpense, nil)
	lunch := lt.Category(m.Client, "점심", api.EntryTypeExpense, &food.ID)
	m.Do(http.MethodPost, "/api/account/tags", api.TagRequest{Name: "work"}).Want(http.StatusCreated)
	env.Exec(`INSERT INTO account_entry (member_id, wallet_id, category_id, type, amount, entry_date, memo)
		SELECT $1, $2, $3, 'expense', 1000 + i, DATE '2017-01-01' + (i % 3650), '가맹점 ' || i
		FROM generate_series(1, $4::int) AS i`, m.ID, w.ID, lunch.ID, rows)
	env.Exec(`INSERT INTO account_entry_tag (entry_id, tag_id)
		SELECT e.id, t.id FROM account_entry e, account_tag t
		WHERE e.member_id = $1 AND t.member_id = $1 AND e.id % 10 = 0`, m.ID)
	url := env.Server.URL + exportPath + "?from=2017-01-01&to=2026-12-31"
	var peak, alloc float64
	var size int64
	b.ResetTimer()
	for range b.N {
		base, total := heapNow()
		stop := samplePeak()
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header.Set("Authorization", "Bearer "+m.Token)
		res, err := env.Server.Client().Do(req)
		if err != nil {
			b.Fatal(err)
		}
		size, err = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		top := stop()
		_, after := heapNow()
		if err != nil || res.StatusCode != http.StatusOK {
			b.Fatalf("status %d, %v", res.StatusCode, err)
		}
		peak = max(peak, float64(top-base))
		alloc = max(alloc, float64(after-total))
	}
	b.ReportMetric(float64(size)/(1<<20), "file-MiB")
	b.ReportMetric(peak/(1<<20), "peak-heap-MiB")
	b.ReportMetric(alloc/float64(rows), "alloc-B/row")
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/export")
}

// heapNow collects garbage and answers the bytes of heap objects in use and
// allocated so far.
func heapNow() (inUse, allocated uint64) {
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// samplePeak watches the heap's objects until the returned function is
// called, which answers the largest figure seen.
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
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}
