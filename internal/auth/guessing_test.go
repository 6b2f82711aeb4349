package auth_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/dbtest"
)

// statusCounts sends n requests at once and counts their statuses.
func statusCounts(n int, send func() *apitest.Response) map[int]int {
	counts := map[int]int{}
	for _, r := range apitest.TogetherV(n, func(int) *apitest.Response { return send() }) {
		counts[r.Status]++
	}
	return counts
}

// Each attempt is reserved against the limit before its password check, so
// 40 parallel wrong guesses get at most the limit's 10 checks.
func TestParallelWrongGuessesStopAtTheLimit(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	counts := statusCounts(40, func() *apitest.Response {
		return env.Client().Do(http.MethodPost, "/api/auth/login", api.LoginRequest{Email: m.Email, Password: "wrong guess"})
	})
	if counts[http.StatusUnauthorized] > 10 || counts[http.StatusUnauthorized]+counts[http.StatusTooManyRequests] != 40 {
		t.Fatalf("40 parallel wrong guesses answered %v: want at most 10 checked (401), the rest 429", counts)
	}
	if counts[http.StatusUnauthorized] < 10 {
		t.Fatalf("40 parallel wrong guesses answered %v: the limit let fewer than 10 be checked", counts)
	}
}

// A stranger guessing from one address locks only that address out of the
// account; the owner signing in from elsewhere is not locked out.
func TestAStrangersGuessesDoNotLockTheOwnerOut(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, apitest.BehindLoopbackProxy())
	m := env.NewMember()
	stranger := env.Client().WithHeader("X-Forwarded-For", "203.0.113.7")
	owner := env.Client().WithHeader("X-Forwarded-For", "198.51.100.20")
	for range 10 {
		stranger.Do(http.MethodPost, "/api/auth/login", api.LoginRequest{Email: m.Email, Password: "wrong guess"}).
			WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	}
	stranger.Do(http.MethodPost, "/api/auth/login", api.LoginRequest{Email: m.Email, Password: apitest.DefaultPassword}).
		WantProblem(http.StatusTooManyRequests, "RATE_LIMITED")
	owner.Do(http.MethodPost, "/api/auth/login", api.LoginRequest{Email: m.Email, Password: apitest.DefaultPassword}).
		Want(http.StatusOK)
}

// A stolen session is no password oracle: wrong current passwords in a
// password change count against the member's guesses, with verify-password's.
func TestPasswordChangeIsThrottled(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	for range 5 {
		m.Do(http.MethodPost, "/api/auth/verify-password", api.VerifyPasswordRequest{Password: "wrong guess"}).Want(http.StatusOK)
	}
	for range 5 {
		m.Do(http.MethodPut, "/api/auth/password", api.ChangePasswordRequest{CurrentPassword: "wrong guess", NewPassword: "a new password"}).
			WantProblem(http.StatusBadRequest, "WRONG_PASSWORD")
	}
	m.Do(http.MethodPut, "/api/auth/password", api.ChangePasswordRequest{CurrentPassword: apitest.DefaultPassword, NewPassword: "a new password"}).
		WantProblem(http.StatusTooManyRequests, "RATE_LIMITED")
	m.Do(http.MethodPost, "/api/auth/verify-password", api.VerifyPasswordRequest{Password: apitest.DefaultPassword}).
		WantProblem(http.StatusTooManyRequests, "RATE_LIMITED")
	login(env.Client(), m.Email, apitest.DefaultPassword).Want(http.StatusOK)
}

func TestParallelWrongPasswordChangesStopAtTheLimit(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	counts := statusCounts(40, func() *apitest.Response {
		return m.Do(http.MethodPut, "/api/auth/password", api.ChangePasswordRequest{CurrentPassword: "wrong guess", NewPassword: "a new password"})
	})
	if counts[http.StatusBadRequest] != 10 || counts[http.StatusTooManyRequests] != 30 {
		t.Fatalf("40 parallel wrong password changes answered %v: want exactly 10 checked (400), the rest 429", counts)
	}
}

// PostgreSQL is the authority on sessions: a logout while Redis is frozen
// lasts on a second replica, even when Redis comes back still holding the
// session.
func TestLogoutDuringARedisOutageHoldsOnEveryReplica(t *testing.T) {
	t.Parallel()
	r := dbtest.StartRedis(t)
	env := outageEnv(t, r)
	replica := env.NewReplica()
	m := env.NewMember()
	replica.Client().WithToken(m.Token).Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)

	ctx := context.Background()
	copyInRedis, err := r.Client().Get(ctx, env.RedisKey(m.Token)).Bytes()
	if err != nil {
		t.Fatalf("session not in Redis: %v", err)
	}

	r.Freeze()
	m.Do(http.MethodPost, "/api/auth/logout", nil).Want(http.StatusNoContent)
	r.Thaw()
	dbtest.Eventually(t, "Redis answers again", func() bool { return r.Client().Ping(ctx).Err() == nil })
	// The worst case: Redis kept its copy of the session.
	if err := r.Client().Set(ctx, env.RedisKey(m.Token), copyInRedis, time.Hour).Err(); err != nil {
		t.Fatal(err)
	}
	replica.Client().WithToken(m.Token).Do(http.MethodGet, "/api/auth/session", nil).
		WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	m.Do(http.MethodGet, "/api/auth/session", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
}
