// Package loadtest drives a running nestegg server with a bounded load and
// reports throughput and latency. It runs only when NESTEGG_LOAD_URL names a
// server (make bench starts one on loopback); it is never a timed assertion,
// but any failed request fails the run.
package loadtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/session"
)

func setting(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func TestLoad(t *testing.T) {
	base := os.Getenv("NESTEGG_LOAD_URL")
	if base == "" {
		t.Skip("NESTEGG_LOAD_URL is not set; `make bench` starts a server and sets it")
	}
	workers := setting("NESTEGG_LOAD_CONNECTIONS", 32)
	duration := time.Duration(setting("NESTEGG_LOAD_SECONDS", 10)) * time.Second
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: workers}}

	token := signUp(t, client, base)
	scenarios := []struct {
		name, path, token string
	}{
		{"healthz (no I/O)", "/healthz", ""},
		{"signup-enabled (one PostgreSQL read)", "/api/auth/signup-enabled", ""},
		{"session (Redis session + member read)", "/api/auth/session", token},
	}
	results := map[string]result{}
	for _, sc := range scenarios {
		res := run(client, base+sc.path, sc.token, workers, duration)
		report(t, sc.name, res)
		results[sc.name] = res
	}

	// The floor: what one Redis GET and the same PostgreSQL read cost when
	// nothing else runs, served over HTTP by a process of its own, as the
	// service is (served from this process, it skipped the hop between
	// processes that the service pays and looked twice as fast).
	floor := startFloor(t, client, token)
	res := run(client, floor+"/floor", token, workers, duration)
	report(t, "floor (same Redis GET + same SELECT)", res)
	session := results["session (Redis session + member read)"]
	t.Logf("authenticated read vs floor: %.2fx throughput (target >= 0.75), %.2fx p99 (target <= 1.5)",
		session.rate/res.rate, float64(session.p99)/float64(res.p99))

	burst(t, client, base, token, workers)
}

func report(t *testing.T, name string, res result) {
	t.Helper()
	t.Logf("%-40s %7.0f req/s  p50 %6.2fms  p99 %6.2fms  %d requests, %d failed",
		name, res.rate, ms(res.p50), ms(res.p99), res.n, res.failed)
	if res.failed > 0 {
		t.Errorf("%s: %d requests failed (first: %s)", name, res.failed, res.firstFailure)
	}
}

// startFloor runs TestFloorServer in a child process (this test binary) on
// a loopback port and answers its address once it serves.
func startFloor(t *testing.T, client *http.Client, token string) string {
	t.Helper()
	addr := envOr("NESTEGG_FLOOR_ADDR", "127.0.0.1:18081")
	cmd := exec.Command(os.Args[0], "-test.run=^TestFloorServer$")
	cmd.Env = append(os.Environ(), "NESTEGG_FLOOR_ADDR="+addr, "NESTEGG_FLOOR_TOKEN="+token)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the floor: %v", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	base := "http://" + addr
	for range 100 {
		req, _ := http.NewRequest(http.MethodGet, base+"/floor", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		if res, err := client.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return base
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the floor did not start serving")
	return ""
}

// TestFloorServer serves /floor until it is killed, when TestLoad starts it
// in a process of its own: the session's Redis GET and the service's
// principal SELECT over pgx, and nothing else (no routing, no contract, no
// logs). Otherwise it does nothing.
func TestFloorServer(t *testing.T) {
	addr, token := os.Getenv("NESTEGG_FLOOR_ADDR"), os.Getenv("NESTEGG_FLOOR_TOKEN")
	if addr == "" || token == "" {
		t.Skip("started by TestLoad only")
	}
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, envOr("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/nestegg_bench?sslmode=disable")+"&pool_max_conns=16")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	opts, err := redis.ParseURL(envOr("REDIS_URL", "redis://127.0.0.1:6379/1"))
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	defer func() { _ = rdb.Close() }()
	hash := session.HashToken(token)
	q := db.New(pool)
	err = http.ListenAndServe(addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := rdb.Get(r.Context(), "nestegg:session:"+hash).Bytes(); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		row, err := q.GetSessionPrincipal(r.Context(), db.GetSessionPrincipalParams{TokenHash: hash, Now: time.Now()})
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": row.ID, "name": row.Name})
	}))
	t.Fatal(err)
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// burst measures what 200 parallel wrong-password logins, each from its own
// address so that every one runs argon2, do to other members' session reads:
// the read latency before, during and after.
func burst(t *testing.T, client *http.Client, base, token string, workers int) {
	t.Helper()
	phase := 3 * time.Second
	report(t, "session reads before the burst", run(client, base+"/api/auth/session", token, workers, phase))
	// The 200 logins are released together, on a goroutine of their own
	// while the reads run.
	done := make(chan []int)
	go func() {
		done <- apitest.TogetherV(200, func(i int) int {
			body, _ := json.Marshal(map[string]string{"email": fmt.Sprintf("burst-%d@nestegg.test", i), "password": "wrong password"})
			req, _ := http.NewRequest(http.MethodPost, base+"/api/auth/login", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			// Each from an address of its own (the server trusts loopback
			// as a proxy here), so no per-address limit cuts the burst
			// short: every login costs a real password check.
			req.Header.Set("X-Forwarded-For", fmt.Sprintf("198.18.%d.%d", time.Now().Unix()%200, i))
			res, err := client.Do(req)
			if err != nil {
				return 0
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			return res.StatusCode
		})
	}()
	during := run(client, base+"/api/auth/session", token, workers, phase)
	statuses := map[int]int{}
	for _, s := range <-done {
		statuses[s]++
	}
	report(t, "session reads during 200 wrong logins", during)
	t.Logf("the burst's logins answered %v", statuses)
	report(t, "session reads after the burst", run(client, base+"/api/auth/session", token, workers, phase))
}

func signUp(t *testing.T, client *http.Client, base string) string {
	suffix := make([]byte, 6)
	_, _ = rand.Read(suffix)
	body, _ := json.Marshal(map[string]string{
		"email": "load-" + hex.EncodeToString(suffix) + "@nestegg.test", "password": "load test password", "name": "Load",
	})
	res, err := client.Post(base+"/api/auth/signup", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("sign up: %v", err)
	}
	defer res.Body.Close()
	var out struct{ Token string }
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("sign up answered %d (%v)", res.StatusCode, err)
	}
	return out.Token
}

type result struct {
	n, failed    int
	rate         float64
	p50, p99     time.Duration
	firstFailure string
}

func run(client *http.Client, url, token string, workers int, d time.Duration) result {
	var mu sync.Mutex
	var lat []time.Duration
	var res result
	stop := time.Now().Add(d)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			failed, first := 0, ""
			for time.Now().Before(stop) {
				req, _ := http.NewRequest(http.MethodGet, url, nil)
				if token != "" {
					req.Header.Set("Authorization", "Bearer "+token)
				}
				start := time.Now()
				r, err := client.Do(req)
				if err == nil {
					_, _ = io.Copy(io.Discard, r.Body)
					r.Body.Close()
					if r.StatusCode != http.StatusOK {
						err = fmt.Errorf("status %d", r.StatusCode)
					}
				}
				mine = append(mine, time.Since(start))
				if err != nil {
					failed++
					if first == "" {
						first = err.Error()
					}
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			res.failed += failed
			if res.firstFailure == "" {
				res.firstFailure = first
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	res.n = len(lat)
	if res.n > 0 {
		res.p50, res.p99 = lat[res.n/2], lat[res.n*99/100]
	}
	res.rate = float64(res.n) / d.Seconds()
	return res
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
