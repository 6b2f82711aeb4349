package auth_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Not parallel: it owns the process's logger while it runs.
func TestTokensNeverReachTheLogs(t *testing.T) {
	var logs syncBuffer
	previous := slog.Default()
	slog.SetDefault(slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	defer slog.SetDefault(previous)

	env := apitest.New(t)
	var res api.AuthResult
	env.Client().Do(http.MethodPost, "/api/auth/signup", signUpBody("logged@nestegg.test")).Want(http.StatusCreated).JSON(&res)
	me := env.Client().WithToken(res.Token)
	me.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
	env.Client().WithHeader("Cookie", "nestegg_session="+res.Token).Do(http.MethodGet, "/api/auth/profile", nil).Want(http.StatusOK)
	me.Do(http.MethodPost, "/api/auth/logout", nil).Want(http.StatusNoContent)
	me.Do(http.MethodGet, "/api/auth/session", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")

	out := logs.String()
	if !strings.Contains(out, `"operation":"signUp"`) || !strings.Contains(out, `"operation":"logOut"`) {
		t.Fatalf("the access log did not capture the requests:\n%s", out)
	}
	if strings.Contains(out, res.Token) {
		t.Fatalf("a session token reached the logs:\n%s", out)
	}
	if strings.Contains(out, "a long enough password") {
		t.Fatal("a password reached the logs")
	}
}

// An identity provider that is not configured is expected, not a failure of
// the service: its 503 is logged as a warning, never at ERROR.
// Not parallel: it owns the process's logger while it runs.
func TestUnconfiguredProviderIsNoError(t *testing.T) {
	var logs syncBuffer
	previous := slog.Default()
	slog.SetDefault(slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	defer slog.SetDefault(previous)

	env := apitest.New(t)
	env.Client().Do(http.MethodPost, "/api/auth/idp-a", api.IDTokenRequest{IDToken: "x.y.z"}).
		WantProblem(http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
	out := logs.String()
	if !strings.Contains(out, `"operation":"logInWithIdpA"`) {
		t.Fatalf("the request was not logged:\n%s", out)
	}
	if strings.Contains(out, `"level":"ERROR"`) {
		t.Fatalf("an unconfigured provider was logged at ERROR:\n%s", out)
	}
}
