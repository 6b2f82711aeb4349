package profile_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/session"
)

// inRedis reports whether the session of token has a copy in Redis.
func inRedis(t *testing.T, env *apitest.Env, token string) bool {
	t.Helper()
	keys, err := env.Redis.Keys(context.Background(), "*session:"+session.HashToken(token)).Result()
	if err != nil {
		t.Fatalf("redis keys: %v", err)
	}
	return len(keys) > 0
}

// inPostgres reports whether the session of token has a copy in auth_session.
func inPostgres(t *testing.T, env *apitest.Env, token string) bool {
	t.Helper()
	var n int
	err := env.Pool.QueryRow(context.Background(),
		`SELECT count(*) FROM auth_session WHERE token_hash = $1`, session.HashToken(token)).Scan(&n)
	if err != nil {
		t.Fatalf("count auth_session: %v", err)
	}
	return n > 0
}

// wantSignedIn checks that c's session answers as signed in.
func wantSignedIn(t *testing.T, c *apitest.Client) {
	t.Helper()
	c.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
}

// wantSignedOut checks that c's session answers 401.
func wantSignedOut(t *testing.T, c *apitest.Client) {
	t.Helper()
	c.Do(http.MethodGet, "/api/auth/session", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
}

// makeSocial turns a LOCAL member into one that signs in only through
// identity provider A. Their sessions stay valid: sessions reload the member
// on every request.
func makeSocial(t *testing.T, env *apitest.Env, m *apitest.Member) {
	t.Helper()
	env.Exec(`UPDATE member SET password_hash = NULL, provider = 'IDP_A', idp_a_id = 'subject-' || id WHERE id = $1`, m.ID)
}

func TestAccountOperationsNeedASession(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	anon := env.Client()
	for _, op := range []struct {
		method, path string
		body         any
	}{
		{http.MethodPut, "/api/auth/password", api.ChangePasswordJSONRequestBody{CurrentPassword: apitest.DefaultPassword, NewPassword: "another password"}},
		{http.MethodPost, "/api/auth/verify-password", api.VerifyPasswordJSONRequestBody{Password: apitest.DefaultPassword}},
		{http.MethodGet, "/api/auth/profile", nil},
		{http.MethodPut, "/api/auth/profile", api.UpdateProfileJSONRequestBody{Name: "Minji"}},
		{http.MethodPut, "/api/auth/profile-image", api.SetProfileImageJSONRequestBody{ProfileImage: ""}},
		{http.MethodGet, "/api/auth/points", nil},
		{http.MethodGet, "/api/auth/point-history", nil},
		{http.MethodDelete, "/api/auth/me", nil},
	} {
		anon.Do(op.method, op.path, op.body).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	}
}
