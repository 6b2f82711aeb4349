// Package fxtest is a fake exchange rate provider speaking the wire format of
// package fx, with switchable failures and a call counter.
package fxtest

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/external/fake"
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

// Server is a running fake provider. Besides its own methods it counts calls
// (Calls, InFlight), can be slowed or held (SetDelay, Block, Unblock) and
// switched (SetMode): see package fake.
type Server struct {
	*fake.Server
	fake.Switch[Mode]
	mu    sync.Mutex
	rates map[string]float64 // "USD/KRW" → rate
}

// New starts a fake answering USD/KRW 1391.25, JPY/KRW 9.1234, EUR/KRW 1502.5.
func New(t testing.TB) *Server {
	s := &Server{rates: map[string]float64{"USD/KRW": 1391.25, "JPY/KRW": 9.1234, "EUR/KRW": 1502.5}}
	s.Server = fake.Start(t, s.serve)
	return s
}

// SetRate sets the rate of a pair.
func (s *Server) SetRate(from, to string, rate float64) {
	s.mu.Lock()
	s.rates[from+"/"+to] = rate
	s.mu.Unlock()
}

// Paths are the paths asked for, in order.
func (s *Server) Paths() []string {
	var paths []string
	for _, r := range s.Requests() {
		paths = append(paths, r.Path)
	}
	return paths
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	base, symbol := r.URL.Query().Get("base"), r.URL.Query().Get("symbols")
	s.mu.Lock()
	rate, ok := s.rates[base+"/"+symbol]
	s.mu.Unlock()
	switch s.Mode() {
	case Fail:
		http.Error(w, `{"message":"internal error"}`, http.StatusInternalServerError)
		return
	case Garbage:
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`<html>rate limit exceeded</html>`))
		return
	case Hang:
		fake.Hang(r)
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
