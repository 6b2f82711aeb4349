// Package loadtest drives a running nestegg server with a bounded load and
// reports throughput and latency. It runs only when NESTEGG_LOAD_URL names a
// server (make bench starts one on loopback); it is never a timed assertion,
// but any failed request fails the run.
package loadtest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"
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
	for _, sc := range scenarios {
		res := run(client, base+sc.path, sc.token, workers, duration)
		t.Logf("%-40s %7.0f req/s  p50 %6.2fms  p99 %6.2fms  %d requests, %d failed",
			sc.name, res.rate, ms(res.p50), ms(res.p99), res.n, res.failed)
		if res.failed > 0 {
			t.Errorf("%s: %d requests failed (first: %s)", sc.name, res.failed, res.firstFailure)
		}
	}
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
