package server

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// Each request's context carries its operation's deadline: a minute for a
// restore, 8 s for anything else, and 8 s for a path no operation serves.
func TestRequestsCarryTheirOperationsDeadline(t *testing.T) {
	t.Parallel()
	c, err := LoadContract()
	if err != nil {
		t.Fatal(err)
	}
	var left time.Duration
	h := withDeadline(c, http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
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
