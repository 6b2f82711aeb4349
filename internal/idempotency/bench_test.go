package idempotency_test

import (
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/idempotency"
)

// BenchmarkEntryCreateIdempotent measures entry creates with a new
// Idempotency-Key each against the same creates without one, driven alike
// (32 parallel clients per core, warm pools) in the same run, and reports the
// idempotent create's throughput as a percentage of the plain one's
// ("%plain"; target at least 80). The key costs one indexed read before the
// handler (the replay check), the lock and a second read in the request's
// transaction (one round trip each), the transaction itself where the plain
// create of one statement has none, and one INSERT of the answer.
func BenchmarkEntryCreateIdempotent(b *testing.B) {
	env := apitest.New(b)
	m := env.NewMember()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1024}}
	var keys atomic.Int64
	const body = `{"date":"2026-11-16","type":"expense","amount":4500,"memo":"Coffee"}`
	send := func(withKey bool) error {
		r, err := http.NewRequest(http.MethodPost, env.Server.URL+"/api/account/entries", strings.NewReader(body))
		if err != nil {
			return err
		}
		r.Header.Set("Authorization", "Bearer "+m.Token)
		r.Header.Set("Content-Type", "application/json")
		if withKey {
			r.Header.Set(idempotency.Header, fmt.Sprintf("bench-%d", keys.Add(1)))
		}
		res, err := client.Do(r)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		_, _ = io.Copy(io.Discard, res.Body)
		if res.StatusCode != http.StatusCreated {
			return fmt.Errorf("status %d", res.StatusCode)
		}
		return nil
	}
	rounds := func(n int64, withKey bool) time.Duration {
		var next atomic.Int64
		var wg sync.WaitGroup
		start := time.Now()
		for range apitest.BenchParallelism * runtime.GOMAXPROCS(0) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for next.Add(1) <= n {
					if err := send(withKey); err != nil {
						b.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		return time.Since(start)
	}
	_ = rounds(1000, false)
	_ = rounds(1000, true)
	n := max(int64(b.N), 500)
	b.ResetTimer()
	// Plain, keyed, plain, keyed: drift of the machine falls on both.
	var plain, keyed time.Duration
	for range 2 {
		plain += rounds(n, false)
		keyed += rounds(n, true)
	}
	b.StopTimer()
	b.ReportMetric(100*float64(plain)/float64(keyed), "%plain")
	b.ReportMetric(float64(2*n)/plain.Seconds(), "plain-req/s")
	b.ReportMetric(float64(2*n)/keyed.Seconds(), "keyed-req/s")
}
