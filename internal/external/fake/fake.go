// Package fake is the skeleton the fakes of outside services (fxtest,
// quotetest, aitest, ocrtest, storetest, idptest) share: a test HTTP server
// closed when the test ends, that counts and records the requests it gets,
// can be slowed down or held, and can hang until its client gives up. Each
// fake adds only its wire format and its modes. It is test code, but not in
// a _test file: the fakes are imported by other packages' tests.
package fake

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Server is a running fake.
type Server struct {
	*httptest.Server
	answer http.HandlerFunc

	calls, inFlight, maxInFlight atomic.Int64

	mu       sync.Mutex
	requests []Request
	lastBody []byte
	delay    time.Duration
	gate     chan struct{} // when set, holds every request until it is closed
}

// Request is what the fake keeps of a request it received.
type Request struct {
	Method, Path string
	Query        url.Values
}

// Start starts a fake that answers with answer, closed when t ends. The
// request body answer reads is the one the fake has already recorded.
func Start(t testing.TB, answer http.HandlerFunc) *Server {
	s := &Server{answer: answer}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Calls is how many requests the fake received.
func (s *Server) Calls() int64 { return s.calls.Load() }

// InFlight is how many requests the fake is answering right now.
func (s *Server) InFlight() int64 { return s.inFlight.Load() }

// MaxInFlight is the most requests the fake answered at once.
func (s *Server) MaxInFlight() int64 { return s.maxInFlight.Load() }

// Requests are the requests received, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// LastBody is the body of the last request received.
func (s *Server) LastBody() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastBody
}

// SetDelay makes every answer wait d (to widen race windows or to see
// concurrency).
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

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.calls.Add(1)
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for {
		most := s.maxInFlight.Load()
		if n <= most || s.maxInFlight.CompareAndSwap(most, n) {
			break
		}
	}
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query()})
	s.lastBody = body
	delay, gate := s.delay, s.gate
	s.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}
	if gate != nil {
		select {
		case <-gate:
		case <-r.Context().Done():
			return
		}
	}
	s.answer(w, r)
}

// Hang answers nothing until the client gives up (or a minute passes, so a
// fake whose client never gives up still lets its test end).
func Hang(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(time.Minute):
	}
}

// Switch is a fake's mode: how it answers, switched while it runs.
type Switch[M any] struct {
	mu   sync.Mutex
	mode M
}

// SetMode switches how the fake answers.
func (s *Switch[M]) SetMode(m M) { s.mu.Lock(); s.mode = m; s.mu.Unlock() }

// Mode is how the fake answers now.
func (s *Switch[M]) Mode() M { s.mu.Lock(); defer s.mu.Unlock(); return s.mode }
