package profile_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

const newPassword = "a brand new passphrase"

func TestChangePasswordEndsOtherSessionsOnly(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	other := env.LogIn(m.Email, apitest.DefaultPassword)
	bystander := env.NewMember()

	m.Do(http.MethodPut, "/api/auth/password", api.ChangePasswordJSONRequestBody{
		CurrentPassword: apitest.DefaultPassword, NewPassword: newPassword,
	}).Want(http.StatusNoContent)

	wantSignedIn(t, m.Client)
	// The session that changed the password stays, in both stores.
	if !inPostgres(t, env, m.Token) || !inRedis(t, env, m.Token) {
		t.Fatal("the changing session's stored copies are gone")
	}
	// The other session is ended, and its stored copies are removed.
	if inPostgres(t, env, other.Token) || inRedis(t, env, other.Token) {
		t.Fatal("the other session still has a stored copy")
	}
	wantSignedOut(t, other)
	// Another member is not touched.
	wantSignedIn(t, bystander.Client)

	env.Client().Do(http.MethodPost, "/api/auth/login", api.LogInJSONRequestBody{Email: m.Email, Password: apitest.DefaultPassword}).
		WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	wantSignedIn(t, env.LogIn(m.Email, newPassword))
	// The session that changed it still works after later sign-ins.
	wantSignedIn(t, m.Client)
}

func TestChangePasswordRefusals(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	other := env.LogIn(m.Email, apitest.DefaultPassword)

	change := func(c *apitest.Client, current, next string) *apitest.Response {
		return c.Do(http.MethodPut, "/api/auth/password", api.ChangePasswordJSONRequestBody{CurrentPassword: current, NewPassword: next})
	}
	change(m.Client, "not my password", newPassword).WantProblem(http.StatusBadRequest, "WRONG_PASSWORD")
	change(m.Client, apitest.DefaultPassword, apitest.DefaultPassword).WantProblem(http.StatusBadRequest, "SAME_PASSWORD")
	// The wrong password wins over "same": it is checked first.
	change(m.Client, "not my password", "not my password").WantProblem(http.StatusBadRequest, "WRONG_PASSWORD")
	for _, next := range []string{"short", strings.Repeat("p", 129)} {
		p := change(m.Raw(), apitest.DefaultPassword, next).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		if len(p.Errors) == 0 || p.Errors[0].Field != "/newPassword" {
			t.Fatalf("password of %d characters: errors %+v, want /newPassword named", len(next), p.Errors)
		}
	}
	// 8 and 128 characters are both fine (128 runes, more bytes).
	change(m.Client, apitest.DefaultPassword, "12345678").Want(http.StatusNoContent)
	change(m.Client, "12345678", strings.Repeat("é", 128)).Want(http.StatusNoContent)

	// Refusals changed nothing; the two successes ended the other session.
	wantSignedOut(t, other)
	wantSignedIn(t, env.LogIn(m.Email, strings.Repeat("é", 128)))
}

func TestChangePasswordRefusedForSocialAccount(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	other := env.LogIn(m.Email, apitest.DefaultPassword)
	makeSocial(t, env, m)

	m.Do(http.MethodPut, "/api/auth/password", api.ChangePasswordJSONRequestBody{
		CurrentPassword: apitest.DefaultPassword, NewPassword: newPassword,
	}).WantProblem(http.StatusBadRequest, "SOCIAL_ACCOUNT")
	wantSignedIn(t, other)
	var hash *string
	if err := env.Pool.QueryRow(t.Context(), `SELECT password_hash FROM member WHERE id = $1`, m.ID).Scan(&hash); err != nil {
		t.Fatal(err)
	}
	if hash != nil {
		t.Fatal("a social account got a password")
	}
}

func TestVerifyPassword(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	verify := func(pw string) bool {
		t.Helper()
		var res api.PasswordValid
		m.Do(http.MethodPost, "/api/auth/verify-password", api.VerifyPasswordJSONRequestBody{Password: pw}).Want(http.StatusOK).JSON(&res)
		return res.Valid
	}
	if !verify(apitest.DefaultPassword) {
		t.Fatal("the right password is not valid")
	}
	if verify("not my password") || verify("") {
		t.Fatal("a wrong password is valid")
	}
	makeSocial(t, env, m)
	if verify(apitest.DefaultPassword) || verify("") {
		t.Fatal("a member without a password has a valid password")
	}
	// Checking is not signing in: the session is unchanged.
	wantSignedIn(t, m.Client)
}

func TestVerifyPasswordIsThrottled(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	for range 10 {
		var got api.PasswordValid
		m.Do(http.MethodPost, "/api/auth/verify-password", api.VerifyPasswordJSONRequestBody{Password: "guess"}).Want(http.StatusOK).JSON(&got)
		if got.Valid {
			t.Fatal("a wrong password verified")
		}
	}
	m.Do(http.MethodPost, "/api/auth/verify-password", api.VerifyPasswordJSONRequestBody{Password: apitest.DefaultPassword}).
		WantProblem(http.StatusTooManyRequests, "RATE_LIMITED")
	env.Clock.Advance(16 * time.Minute)
	var got api.PasswordValid
	m.Do(http.MethodPost, "/api/auth/verify-password", api.VerifyPasswordJSONRequestBody{Password: apitest.DefaultPassword}).Want(http.StatusOK).JSON(&got)
	if !got.Valid {
		t.Fatal("the right password did not verify after the window")
	}
}
