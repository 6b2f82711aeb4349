// Package aitest is a fake OpenAI-compatible chat-completions server for
// tests of package ai and its callers, with the failures a real one has.
package aitest

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/external/fake"
)

// Mode is how the fake answers.
type Mode int

// Modes of the fake.
const (
	Good         Mode = iota // the configured answer, as the schema says
	Garbage                  // a completion whose content is not the schema's JSON
	Hang                     // no answer before the client gives up
	Fail                     // 500
	RateLimited              // 429 with Retry-After
	NothingFound             // found: false
)

// Key is the API key the fake accepts.
const Key = "test-ai-key"

// Server is a running fake. Besides its own methods it counts calls (Calls)
// and is switched with SetMode: see package fake.
type Server struct {
	*fake.Server
	fake.Switch[Mode]
	mu     sync.Mutex
	answer map[string]any
}

// New starts a fake answering an expense of 12000 at "AI 점심" on 2026-11-15.
func New(t testing.TB) *Server {
	s := &Server{answer: map[string]any{"found": true, "type": "expense", "amount": 12000, "merchant": "AI 점심", "date": "2026-11-15"}}
	s.Server = fake.Start(t, s.serve)
	return s
}

// SetAnswer sets the JSON object a good answer carries.
func (s *Server) SetAnswer(a map[string]any) { s.mu.Lock(); s.answer = a; s.mu.Unlock() }

// LastRequest is the last request body, decoded.
func (s *Server) LastRequest() map[string]any {
	var req map[string]any
	_ = json.Unmarshal(s.LastBody(), &req)
	return req
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	answer := s.answer
	s.mu.Unlock()
	if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+Key {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch s.Mode() {
	case Hang:
		fake.Hang(r)
		return
	case Fail:
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"error":{"message":"The server had an error","type":"server_error"}}`))
		return
	case RateLimited:
		w.Header().Set("Retry-After", "20")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`))
		return
	case Garbage:
		writeCompletion(w, "Sure! The amount is twelve thousand won.")
		return
	case NothingFound:
		answer = map[string]any{"found": false, "type": "expense", "amount": 0, "merchant": "", "date": "2026-11-16"}
	}
	content, _ := json.Marshal(answer)
	writeCompletion(w, string(content))
}

func writeCompletion(w http.ResponseWriter, content string) {
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "created": time.Now().Unix(), "model": "test-model",
		"choices": []map[string]any{{
			"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content, "refusal": nil},
		}},
		"usage": map[string]int{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
	})
}
