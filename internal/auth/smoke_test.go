package auth_test

import (
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

func TestLoginThenSession(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.WithName("Minji"))
	var user api.User
	m.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK).JSON(&user)
	if user.ID != m.ID || user.Name != "Minji" || user.Role != "USER" {
		t.Fatalf("session user %+v", user)
	}
	env.Client().Do(http.MethodGet, "/api/auth/session", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
}
