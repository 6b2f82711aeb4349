package server_test

import (
	"io"
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
