// Package fxtest is a fake exchange rate provider speaking the wire format of
// package fx, with switchable failures and a call counter.
package fxtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Mode is how the fake answers.
type Mode int

// Modes of the fake.
const (
	Good    Mode = iota
	Fail         // 500
	Garbage      // 200 with a body that is not the format
	Hang         // answers after the client gave up
)

// Server is a running fake provider.
type Server struct {
	*httptest.Server
	calls atomic.Int64
	// inFlight counts the requests being answered right now.
	inFlight atomic.Int64
	// gate, when set, holds every request until it is closed.
	gate  chan struct{}
	paths []string
	mu    sync.Mutex
	mode  Mode
	rates map[string]float64 // "USD/KRW" → rate
	// delay is waited before answering (to widen race windows).
	delay time.Duration
}

// New starts a fake answering USD/KRW 1391.25, JPY/KRW 9.1234, EUR/KRW 1502.5.
func New(t testing.TB) *Server {
	s := &Server{rates: map[string]float64{"USD/KRW": 1391.25, "JPY/KRW": 9.1234, "EUR/KRW": 1502.5}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// SetMode switches how the fake answers.
func (s *Server) SetMode(m Mode) { s.mu.Lock(); s.mode = m; s.mu.Unlock() }

// SetDelay makes every answer wait d.
func (s *Server) SetDelay(d time.Duration) { s.mu.Lock(); s.delay = d; s.mu.Unlock() }

// Block holds every request from now on until Unblock (or until the client
// gives up), so a test can look at the service while calls are in flight.
func (s *Server) Block() { s.mu.Lock(); s.gate = make(chan struct{}); s.mu.Unlock() }

// Unblock lets the held requests and later ones through.
func (s *Server) Unblock() {
	s.mu.Lock()
	if s.gate != nil {
		close(s.gate)
		s.gate = nil
	}
	s.mu.Unlock()
}

// InFlight is how many requests the fake is answering right now.
func (s *Server) InFlight() int64 { return s.inFlight.Load() }

// SetRate sets the rate of a pair.
func (s *Server) SetRate(from, to string, rate float64) {
	s.mu.Lock()
	s.rates[from+"/"+to] = rate
	s.mu.Unlock()
}

// Paths are the paths asked for, in order.
func (s *Server) Paths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.paths...)
}

// Calls is how many requests the fake received.
func (s *Server) Calls() int64 { return s.calls.Load() }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.calls.Add(1)
	s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	s.mu.Lock()
	s.paths = append(s.paths, r.URL.Path)
	mode, delay, gate := s.mode, s.delay, s.gate
	base, symbol := r.URL.Query().Get("base"), r.URL.Query().Get("symbols")
	rate, ok := s.rates[base+"/"+symbol]
	s.mu.Unlock()
	if delay > 0 {
		time.Sleep(delay)
	}
	if gate != nil {
		select {
		case <-gate:
		case <-r.Context().Done():
			return
		}
	}
	switch mode {
	case Fail:
		http.Error(w, `{"message":"internal error"}`, http.StatusInternalServerError)
		return
	case Garbage:
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`<html>rate limit exceeded</html>`))
		return
	case Hang:
		select {
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
		return
	}
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"message":"not found"}`))
		return
	}
	date := strings.TrimPrefix(r.URL.Path, "/")
	if date == "latest" {
		date = time.Now().Format(time.DateOnly)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"base": base, "date": date, "rates": map[string]float64{symbol: rate}})
}
