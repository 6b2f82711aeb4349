// Package ocrtest is a fake Vision-style images:annotate server for tests of
// package ocr and its callers.
package ocrtest

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/nestegg/nestegg/internal/external/fake"
)

// Mode is how the fake answers.
type Mode int

// Modes of the fake.
const (
	Good            Mode = iota // fullTextAnnotation with the configured text
	OnlyAnnotations             // textAnnotations only (older API answers)
	NoText                      // an empty response: no text in the image
	ImageError                  // 200 with responses[0].error
	Fail                        // 500 with a top-level error object
	Garbage                     // 200 with a body that is not JSON
	Hang                        // no answer before the client gives up
)

// Key is the API key the fake accepts.
const Key = "test-ocr-key"

// Path is where the fake serves images:annotate.
const Path = "/v1/images:annotate"

// Server is a running fake. Besides its own methods it counts calls (Calls)
// and is switched with SetMode: see package fake.
type Server struct {
	*fake.Server
	fake.Switch[Mode]
	mu        sync.Mutex
	text      string
	lastImage []byte
}

// New starts a fake recognising a short Korean receipt.
func New(t testing.TB) *Server {
	s := &Server{text: "스타벅스 역삼점\n사업자 123-45-67890\n2026-11-15 12:34\n아메리카노 2 9,000\n합계 9,000\n"}
	s.Server = fake.Start(t, s.serve)
	return s
}

// URL is the images:annotate address of the fake.
func (s *Server) URL() string { return s.Server.URL + Path }

// SetText sets the recognised text.
func (s *Server) SetText(text string) { s.mu.Lock(); s.text = text; s.mu.Unlock() }

// LastImage is the decoded image of the last request.
func (s *Server) LastImage() []byte { s.mu.Lock(); defer s.mu.Unlock(); return s.lastImage }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.URL.Path != Path || r.Method != http.MethodPost {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	if r.Header.Get("X-Goog-Api-Key") != Key {
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(`{"error":{"code":403,"message":"The request is missing a valid API key.","status":"PERMISSION_DENIED"}}`))
		return
	}
	var req struct {
		Requests []struct {
			Image struct {
				Content string `json:"content"`
			} `json:"image"`
			Features []struct {
				Type string `json:"type"`
			} `json:"features"`
		} `json:"requests"`
	}
	body, _ := io.ReadAll(r.Body)
	if json.Unmarshal(body, &req) != nil || len(req.Requests) != 1 || len(req.Requests[0].Features) != 1 ||
		req.Requests[0].Features[0].Type != "TEXT_DETECTION" {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error":{"code":400,"message":"Invalid JSON payload received.","status":"INVALID_ARGUMENT"}}`))
		return
	}
	image, err := base64.StdEncoding.DecodeString(req.Requests[0].Image.Content)
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error":{"code":400,"message":"Invalid value at 'requests[0].image.content'","status":"INVALID_ARGUMENT"}}`))
		return
	}
	s.mu.Lock()
	s.lastImage = image
	text := s.text
	s.mu.Unlock()
	var answer any
	switch s.Mode() {
	case Hang:
		fake.Hang(r)
		return
	case Fail:
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"error":{"code":500,"message":"Internal error encountered.","status":"INTERNAL"}}`))
		return
	case Garbage:
		_, _ = w.Write([]byte(`<html><body>502 Bad Gateway</body></html>`))
		return
	case ImageError:
		answer = map[string]any{"responses": []any{map[string]any{"error": map[string]any{"code": 3, "message": "Bad image data."}}}}
	case NoText:
		answer = map[string]any{"responses": []any{map[string]any{}}}
	case OnlyAnnotations:
		answer = map[string]any{"responses": []any{map[string]any{"textAnnotations": []any{map[string]any{"locale": "ko", "description": text}}}}}
	default:
		answer = map[string]any{"responses": []any{map[string]any{
			"textAnnotations":    []any{map[string]any{"locale": "ko", "description": text}},
			"fullTextAnnotation": map[string]any{"text": text, "pages": []any{}},
		}}}
	}
	_ = json.NewEncoder(w).Encode(answer)
}
