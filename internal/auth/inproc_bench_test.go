package auth_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/nestegg/nestegg/internal/apitest"
)

// BenchmarkSessionInProcess is the authenticated read served in process (no
// HTTP hop), with its allocations: the service's own work around the
// session's Redis GET and member read, which a CPU profile of it shows apart
// from the network's.
func BenchmarkSessionInProcess(b *testing.B) {
	env := apitest.New(b)
	m := env.NewMember()
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodGet, "/api/auth/session", nil)
		req.Header.Set("Authorization", "Bearer "+m.Token)
		rec := httptest.NewRecorder()
		env.App.Handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}
