package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Each request's context carries its operation's deadline: a minute for a
// restore, 8 s for anything else, and 8 s for a path no operation serves.
func TestRequestsCarryTheirOperationsDeadline(t *testing.T) {
	t.Parallel()
	c := testContract(t)
	var left time.Duration
	h := withRequestInfo(c, nil, http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		d, ok := r.Context().Deadline()
		if !ok {
			t.Fatal("no deadline")
		}
		left = time.Until(d)
	}))
	for _, tc := range []struct {
		method, path string
		want         time.Duration
	}{
		{http.MethodPost, "/api/account/restore", time.Minute},
		{http.MethodGet, "/api/account/backup", time.Minute},
		{http.MethodGet, "/api/account/wallets", requestDeadline},
		{http.MethodGet, "/api/no/such/operation", requestDeadline},
	} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(tc.method, tc.path, nil))
		// Only an upper bound and a side of 8 s are asserted: the time
		// between setting the deadline and reading it is not.
		long := tc.want > requestDeadline
		if left > tc.want || long != (left > requestDeadline) {
			t.Errorf("%s %s: %s left, want %s", tc.method, tc.path, left, tc.want)
		}
	}
}

// A request that outlives its deadline is a failure of ours and counted as
// its 503; one whose client hung up is counted as 499. Both end the
// request's context, which carries the deadline: they differ by its error.
func TestDeadlineIsNotCountedAsAClientThatHungUp(t *testing.T) {
	t.Parallel()
	c := testContract(t)
	m := newMetrics(nil)
	h := withRequestInfo(c, nil, withAccessLog(m, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
		w.WriteHeader(http.StatusServiceUnavailable)
	})))
	for _, tc := range []struct {
		name  string
		end   func(context.Context) (context.Context, context.CancelFunc)
		count string
	}{
		{"deadline", func(ctx context.Context) (context.Context, context.CancelFunc) {
			return context.WithTimeout(ctx, 20*time.Millisecond)
		}, "503"},
		{"hang-up", func(ctx context.Context) (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(ctx)
			time.AfterFunc(20*time.Millisecond, cancel)
			return ctx, cancel
		}, "499"},
	} {
		ctx, cancel := tc.end(context.Background())
		req := httptest.NewRequestWithContext(ctx, http.MethodGet, "/api/auth/session", nil)
		h.ServeHTTP(httptest.NewRecorder(), req)
		cancel()
	}
	scrape := httptest.NewRecorder()
	m.handler().ServeHTTP(scrape, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	for _, want := range []string{
		`nestegg_http_requests_total{operation="getSession",status="503"} 1`,
		`nestegg_http_requests_total{operation="getSession",status="499"} 1`,
		`nestegg_http_request_timeouts_total{operation="getSession"} 1`,
	} {
		if !strings.Contains(scrape.Body.String(), want+"\n") {
			t.Errorf("the metrics lack %s:\n%s", want, scrape.Body)
		}
	}
}
