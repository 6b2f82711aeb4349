package backup_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
)

// BenchmarkNeighbourReadWhileHeavy is issue 42's figure "another member's
// read p99 while 8 heavy operations run (target ≤ 2× idle)": eight members
// of 20,000 entries each back up their ledgers over and over (the service
// admits HEAVY_PER_REPLICA of them at once, default 4, and answers the rest
// 503 with Retry-After; each such member waits 100 ms and asks again),
// while another member reads their wallet list one request after the
// other. The read's p99 is taken idle first, then under the heavy load,
// for the same time each; neighbour-p99-ratio is the second over the first.
//
// BENCH_HEAVY_PER_REPLICA sets the replica's cap for a run, to compare caps
// side by side. A backup rests between its pages (heavy.Pacer).
//
//	go test -run '^$' -bench NeighbourReadWhileHeavy -benchtime 1x ./internal/backup
func BenchmarkNeighbourReadWhileHeavy(b *testing.B) {
	const heavy, entries, window = 8, 20_000, 5 * time.Second
	var opts []apitest.Option
	if v, err := strconv.Atoi(os.Getenv("BENCH_HEAVY_PER_REPLICA")); err == nil {
		opts = append(opts, apitest.WithConfig(func(c *config.Config) { c.HeavyPerReplica = v }))
	}
	env := apitest.New(b, opts...)
	members := make([]*apitest.Member, heavy)
	for i := range members {
		members[i] = env.NewMember(apitest.AsPremium())
		seedEntries(b, env, members[i], entries)
	}
	env.Exec(`ANALYZE account_entry`)
	neighbour := env.NewMember(apitest.AsPremium())
	seedEntries(b, env, neighbour, 100)
	client := env.Server.Client()
	get := func(ctx context.Context, m *apitest.Member, path string) (int, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, env.Server.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+m.Token)
		res, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		_, err = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode, err
	}
	// reads answers the neighbour's read latencies over one window.
	reads := func() []time.Duration {
		var out []time.Duration
		for end := time.Now().Add(window); time.Now().Before(end); {
			start := time.Now()
			if st, err := get(context.Background(), neighbour, "/api/account/wallets"); err != nil || st != http.StatusOK {
				b.Fatalf("neighbour read: %d %v", st, err)
			}
			out = append(out, time.Since(start))
		}
		return out
	}
	p99 := func(d []time.Duration) time.Duration {
		slices.Sort(d)
		return d[(len(d)*99)/100]
	}
	b.ResetTimer()
	for range b.N {
		idle := reads()
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		var mu sync.Mutex
		done, refused := 0, 0
		for _, m := range members {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					st, err := get(ctx, m, "/api/account/backup")
					mu.Lock()
					switch {
					case err != nil:
					case st == http.StatusOK:
						done++
					default:
						refused++
					}
					mu.Unlock()
					if st != http.StatusOK {
						time.Sleep(100 * time.Millisecond)
					}
				}
			}()
		}
		time.Sleep(500 * time.Millisecond) // the heavy ones under way
		loaded := reads()
		cancel()
		wg.Wait()
		pi, pl := p99(idle), p99(loaded)
		b.ReportMetric(float64(pi.Microseconds())/1000, "idle-p99-ms")
		b.ReportMetric(float64(pl.Microseconds())/1000, "heavy-p99-ms")
		b.ReportMetric(float64(pl)/float64(pi), "neighbour-p99-ratio")
		b.ReportMetric(float64(done), "backups-done")
		b.ReportMetric(float64(refused), "backups-refused")
		b.Logf("neighbour wallet list p99: idle %v (%d reads), with %d members backing up %v (%d reads): %.2fx; backups done %d, refused %d",
			pi, len(idle), heavy, pl, len(loaded), float64(pl)/float64(pi), done, refused)
	}
}
