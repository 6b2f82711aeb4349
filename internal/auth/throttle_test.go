package auth_test

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/apitest"
)

func TestFailedLoginsPerEmailAreThrottled(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	for range 10 {
		login(env.Client(), m.Email, "guess").WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	}
	// Even the right password waits now: the throttle must not confirm a guess.
	res := login(env.Client(), m.Email, apitest.DefaultPassword)
	res.WantProblem(http.StatusTooManyRequests, "RATE_LIMITED")
	retry, err := strconv.Atoi(res.Header.Get("Retry-After"))
	if err != nil || retry < 1 || retry > 15*60 {
		t.Fatalf("Retry-After %q", res.Header.Get("Retry-After"))
	}
	// An unknown e-mail is throttled the same way, so the throttle tells nothing.
	for range 10 {
		login(env.Client(), "nobody@nestegg.test", "guess").WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	}
	login(env.Client(), "nobody@nestegg.test", "guess").WantProblem(http.StatusTooManyRequests, "RATE_LIMITED")

	env.Clock.Advance(15*time.Minute + time.Second)
	login(env.Client(), m.Email, apitest.DefaultPassword).Want(http.StatusOK)
}

func TestSuccessfulLoginClearsTheEmailsFailures(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	for range 9 {
		login(env.Client(), m.Email, "typo").WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	}
	login(env.Client(), m.Email, apitest.DefaultPassword).Want(http.StatusOK)
	for range 9 {
		login(env.Client(), m.Email, "typo again").WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	}
	login(env.Client(), m.Email, apitest.DefaultPassword).Want(http.StatusOK)
}

// Credential stuffing spreads guesses over many e-mails from one address.
func TestFailedLoginsPerAddressAreThrottled(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, apitest.BehindLoopbackProxy())
	m := env.NewMember()
	stuffer := env.Client().WithHeader("X-Forwarded-For", "203.0.113.66")
	for i := range 50 {
		login(stuffer, fmt.Sprintf("victim%d@nestegg.test", i), "leaked").WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	}
	login(stuffer, "victim-next@nestegg.test", "leaked").WantProblem(http.StatusTooManyRequests, "RATE_LIMITED")
	// Members elsewhere are not affected.
	login(env.Client().WithHeader("X-Forwarded-For", "198.51.100.5"), m.Email, apitest.DefaultPassword).Want(http.StatusOK)
}

func TestFailureCleanupJob(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	login(env.Client(), "someone@nestegg.test", "guess").WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	env.Clock.Advance(16 * time.Minute)
	if ran, err := env.App.Jobs.Run(t.Context(), "auth-failure-cleanup"); err != nil || !ran {
		t.Fatalf("cleanup ran=%v err=%v", ran, err)
	}
	var n int
	if err := env.Pool.QueryRow(t.Context(), "SELECT count(*) FROM auth_failure").Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d failures left (%v)", n, err)
	}
}
