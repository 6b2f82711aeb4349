package httpcall_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/external/httpcall"
)

func TestCallSendsHeadersAndBodyAndBoundsTheAnswer(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		_, _ = io.WriteString(w, r.Method+" "+r.URL.RequestURI()+" "+r.Header.Get("X-Key")+" "+string(body))
	}))
	t.Cleanup(srv.Close)
	e := httpcall.Endpoint{URL: srv.URL, Timeout: time.Second, MaxAnswer: 1 << 10}
	got, err := e.Post(context.Background(), "/a?b=c", http.Header{"X-Key": {"k"}}, []byte("hello"))
	if err != nil || string(got) != "POST /a?b=c k hello" {
		t.Fatalf("%q %v", got, err)
	}
	e.MaxAnswer = 3
	if got, err := e.Get(context.Background(), "", nil); err != nil || string(got) != "GET" {
		t.Fatalf("bounded: %q %v", got, err)
	}
}

func TestCallReturnsOtherStatusesWithTheirBody(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "gone fishing", http.StatusTeapot)
	}))
	t.Cleanup(srv.Close)
	_, err := httpcall.Endpoint{URL: srv.URL, Timeout: time.Second, MaxAnswer: 1 << 10}.Get(context.Background(), "/", nil)
	refused, ok := errors.AsType[*httpcall.StatusError](err)
	if !ok || refused.Status != http.StatusTeapot || !strings.Contains(string(refused.Body), "gone fishing") || err.Error() != "status 418" {
		t.Fatalf("%v", err)
	}
}

func TestCallGivesUpAtItsTimeout(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	start := time.Now()
	_, err := httpcall.Endpoint{URL: srv.URL, Timeout: 100 * time.Millisecond, MaxAnswer: 1 << 10}.Get(context.Background(), "/", nil)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("%v after %s", err, time.Since(start))
	}
}
