package server_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/app"
)

// A PostgreSQL that cannot be reached answers 503 DEPENDENCY_UNAVAILABLE with
// Retry-After, never 500: a replica whose pool points at a closed port
// serves a member signed in through the healthy one.
func TestUnreachableDatabaseAnswers503(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	broken, err := pgxpool.New(context.Background(), "postgres://postgres@127.0.0.1:1/nestegg?sslmode=disable&connect_timeout=1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(broken.Close)
	down := env.NewReplica(func(o *app.Options) { o.Pool = broken })

	for name, res := range map[string]*apitest.Response{
		"a member's session": down.Client().WithToken(m.Token).Do(http.MethodGet, "/api/auth/session", nil),
		"a public read":      down.Client().Do(http.MethodGet, "/api/auth/signup-enabled", nil),
		"a login":            down.Client().Do(http.MethodPost, "/api/auth/login", api.LoginRequest{Email: m.Email, Password: apitest.DefaultPassword}),
	} {
		p := res.WantProblem(http.StatusServiceUnavailable, "DEPENDENCY_UNAVAILABLE")
		if res.Header.Get("Retry-After") == "" {
			t.Errorf("%s: 503 without Retry-After", name)
		}
		if p.Detail == "" {
			t.Errorf("%s: 503 without detail", name)
		}
	}
	down.Client().Do(http.MethodGet, "/readyz", nil).Want(http.StatusServiceUnavailable)
	// The healthy replica is unaffected.
	m.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
}
