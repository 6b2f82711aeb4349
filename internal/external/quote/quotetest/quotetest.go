// Package quotetest is a fake stock quote provider speaking the wire format
// of package quote. Codes are good unless set otherwise: unknown (404),
// failing (500), garbage, or slow (answering only after the client gave up).
package quotetest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Mode is how the fake answers for a code.
type Mode int

// Modes of the fake.
const (
	Good    Mode = iota
	Unknown      // 404
	Fail         // 500
	Garbage      // 200 with a body that is not the format
	Slow         // answers after the client gave up
)

// Server is a running fake provider.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	prices   map[string]string
	modes    map[string]Mode
	delay    time.Duration
	at       time.Time
	calls    atomic.Int64
	inFlight atomic.Int64
	maxIn    atomic.Int64
	asked    map[string]int
}

// New starts a fake; a code it has no price for answers 404.
func New(t testing.TB) *Server {
	s := &Server{prices: map[string]string{}, modes: map[string]Mode{}, asked: map[string]int{},
		at: time.Date(2026, 11, 16, 15, 30, 0, 0, time.FixedZone("KST", 9*3600))}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// SetPrice sets the price a code answers with (a decimal string).
func (s *Server) SetPrice(code, price string) { s.mu.Lock(); s.prices[code] = price; s.mu.Unlock() }

// SetMode sets how a code is answered.
func (s *Server) SetMode(code string, m Mode) { s.mu.Lock(); s.modes[code] = m; s.mu.Unlock() }

// SetTime sets the time every quote carries.
func (s *Server) SetTime(at time.Time) { s.mu.Lock(); s.at = at; s.mu.Unlock() }

// SetDelay makes every answer wait d (to see concurrency).
func (s *Server) SetDelay(d time.Duration) { s.mu.Lock(); s.delay = d; s.mu.Unlock() }

// Calls is how many requests the fake received.
func (s *Server) Calls() int64 { return s.calls.Load() }

// MaxInFlight is the most requests the fake served at once.
func (s *Server) MaxInFlight() int64 { return s.maxIn.Load() }

// Asked is how many times a code was asked for.
func (s *Server) Asked(code string) int { s.mu.Lock(); defer s.mu.Unlock(); return s.asked[code] }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.calls.Add(1)
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for {
		m := s.maxIn.Load()
		if n <= m || s.maxIn.CompareAndSwap(m, n) {
			break
		}
	}
	code := r.URL.Query().Get("symbol")
	s.mu.Lock()
	s.asked[code]++
	price, ok := s.prices[code]
	mode, delay, at := s.modes[code], s.delay, s.at
	s.mu.Unlock()
	if delay > 0 {
		select {
		case <-r.Context().Done():
			return
		case <-time.After(delay):
		}
	}
	if r.URL.Path != "/quote" {
		http.NotFound(w, r)
		return
	}
	switch {
	case mode == Fail:
		http.Error(w, `{"error":"internal"}`, http.StatusInternalServerError)
		return
	case mode == Garbage:
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`<html>maintenance</html>`))
		return
	case mode == Slow:
		select {
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
		return
	case mode == Unknown || !ok:
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"error":"unknown symbol"}`))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]string{"symbol": code, "price": price, "currency": "KRW", "time": at.Format(time.RFC3339)})
}
