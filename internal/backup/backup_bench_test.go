package backup_test

import (
	"io"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/apitest"
)

// BenchmarkBackup10k and BenchmarkBackup200k back up a ledger of 10,000 and
// of 200,000 entries (memos, a tag on every seventh, seeded with SQL),
// reading the answer into io.Discard, and report the heap at its peak over
// what was in use before (peak-heap-MiB: live and not yet collected, what
// the process must hold), and, in one more backup outside the timing, the
// live heap at its peak (live-heap-MiB: sampled after a collection every
// 5 ms). The backup streams, a page of entries at a time: the two peaks
// should be within 1.2× of each other, whatever the ledger. The garbage
// part of peak-heap is the runtime's pacing: a backup of 10,000 entries
// ends before its garbage has reached the collector's goal, one of 200,000
// reaches it many times over.
//
//	go test -run '^$' -bench Backup -benchtime 3x ./internal/backup
func BenchmarkBackup10k(b *testing.B) { benchBackup(b, 10_000) }

func BenchmarkBackup200k(b *testing.B) { benchBackup(b, 200_000) }

func benchBackup(b *testing.B, entries int) {
	env := apitest.New(b)
	m := env.NewMember(apitest.AsPremium())
	seedEntries(b, env, m, entries)
	env.Exec(`ANALYZE account_entry`)
	var peak float64
	var size int64
	b.ResetTimer()
	for range b.N {
		base, _ := heapNow()
		stop := samplePeak()
		req, _ := http.NewRequest(http.MethodGet, env.Server.URL+"/api/account/backup", nil)
		req.Header.Set("Authorization", "Bearer "+m.Token)
		res, err := env.Server.Client().Do(req)
		if err != nil {
			b.Fatal(err)
		}
		size, err = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		top := stop()
		if err != nil || res.StatusCode != http.StatusOK {
			b.Fatalf("status %d, %v", res.StatusCode, err)
		}
		peak = max(peak, float64(top)-float64(base))
	}
	b.StopTimer()
	runtime.GC()
	base := liveNow()
	stop := sampleLive(5 * time.Millisecond)
	req, _ := http.NewRequest(http.MethodGet, env.Server.URL+"/api/account/backup", nil)
	req.Header.Set("Authorization", "Bearer "+m.Token)
	res, err := env.Server.Client().Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	live := float64(stop()) - float64(base)
	b.ReportMetric(live/(1<<20), "live-heap-MiB")
	b.ReportMetric(float64(size)/(1<<20), "doc-MiB")
	b.ReportMetric(peak/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/backup")
}
