// Package quotetest is a fake stock quote provider speaking the wire format
// of package quote. Codes are good unless set otherwise: unknown (404),
// failing (500), garbage, or slow (answering only after the client gave up).
package quotetest

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/external/fake"
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

// Server is a running fake provider. Besides its own methods it counts calls
// (Calls, MaxInFlight) and can be slowed (SetDelay): see package fake.
type Server struct {
	*fake.Server
	mu     sync.Mutex
	prices map[string]string
	modes  map[string]Mode
	at     time.Time
}

// New starts a fake; a code it has no price for answers 404.
func New(t testing.TB) *Server {
	s := &Server{prices: map[string]string{}, modes: map[string]Mode{},
		at: time.Date(2026, 11, 16, 15, 30, 0, 0, time.FixedZone("KST", 9*3600))}
	s.Server = fake.Start(t, s.serve)
	return s
}

// SetPrice sets the price a code answers with (a decimal string).
func (s *Server) SetPrice(code, price string) { s.mu.Lock(); s.prices[code] = price; s.mu.Unlock() }

// SetMode sets how a code is answered.
func (s *Server) SetMode(code string, m Mode) { s.mu.Lock(); s.modes[code] = m; s.mu.Unlock() }

// SetTime sets the time every quote carries.
func (s *Server) SetTime(at time.Time) { s.mu.Lock(); s.at = at; s.mu.Unlock() }

// Asked is how many times a code was asked for.
func (s *Server) Asked(code string) int {
	n := 0
	for _, r := range s.Requests() {
		if r.Query.Get("symbol") == code {
			n++
		}
	}
	return n
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	code := r.URL.Query().Get("symbol")
	s.mu.Lock()
	price, ok := s.prices[code]
	mode, at := s.modes[code], s.at
	s.mu.Unlock()
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
		fake.Hang(r)
		return
	case mode == Unknown || !ok:
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"error":"unknown symbol"}`))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]string{"symbol": code, "price": price, "currency": "KRW", "time": at.Format(time.RFC3339)})
}
