package server_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/nestegg/nestegg/internal/apitest"
)

// BenchmarkAnonymousRequest measures the request path itself (request id,
// log, metrics, routing, validation) around an operation with no I/O.
func BenchmarkAnonymousRequest(b *testing.B) {
	env := apitest.New(b)
	client := env.Server.Client()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			res, err := client.Get(env.Server.URL + "/healthz")
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
	})
}

// BenchmarkRequestInProcess is the request path of an operation with no I/O,
// served in process (no network), with its allocations: the cost of the
// middleware alone, e.g. with tracing off against a build without tracing.
func BenchmarkRequestInProcess(b *testing.B) {
	env := apitest.New(b)
	req := httptest.NewRequest(http.MethodGet, "/healthz", nil)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rec := httptest.NewRecorder()
		env.App.Handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}
