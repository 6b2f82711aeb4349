package auth_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/nestegg/nestegg/internal/apitest"
)

// BenchmarkAuthenticatedRequest measures the cost every signed-in request
// pays: the session from Redis, the member read, the sliding commit.
func BenchmarkAuthenticatedRequest(b *testing.B) {
	env := apitest.New(b)
	m := env.NewMember()
	client := env.Server.Client()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, _ := http.NewRequest(http.MethodGet, env.Server.URL+"/api/auth/session", nil)
			req.Header.Set("Authorization", "Bearer "+m.Token)
			res, err := client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				b.Fatalf("status %d", res.StatusCode)
			}
		}
	})
}

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
