package auth_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/session"
)

func login(c *apitest.Client, email, password string) *apitest.Response {
	return c.Do(http.MethodPost, "/api/auth/login", api.LogInJSONRequestBody{Email: email, Password: password})
}

func TestLoginFailureSaysNothingAboutTheAccount(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	wrong := login(env.Client(), m.Email, "not the password").WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	unknown := login(env.Client(), "nobody@nestegg.test", "not the password").WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	if wrong.Detail != unknown.Detail || wrong.Title != unknown.Title {
		t.Fatalf("answers differ: %+v vs %+v", wrong, unknown)
	}
	// E-mail is matched case-insensitively.
	login(env.Client(), strings.ToUpper(m.Email), apitest.DefaultPassword).Want(http.StatusOK)
}

func TestEveryLoginGetsANewToken(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	var a, b api.AuthResult
	login(env.Client(), m.Email, apitest.DefaultPassword).Want(http.StatusOK).JSON(&a)
	// Signing in on a session that already has a token replaces it (no fixation).
	login(env.Client().WithToken(a.Token), m.Email, apitest.DefaultPassword).Want(http.StatusOK).JSON(&b)
	if a.Token == b.Token || len(b.Token) < 32 {
		t.Fatalf("tokens %q and %q", a.Token, b.Token)
	}
	env.Client().WithToken(a.Token).Do(http.MethodGet, "/api/auth/session", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	env.Client().WithToken(b.Token).Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
	// The stores keep only a hash of the token.
	var stored int
	if err := env.Pool.QueryRow(context.Background(), "SELECT count(*) FROM auth_session WHERE token_hash = $1", b.Token).Scan(&stored); err != nil || stored != 0 {
		t.Fatalf("raw token stored (%d, %v)", stored, err)
	}
	if n := env.Redis.Exists(context.Background(), env.RedisKey(b.Token)).Val(); n != 1 {
		t.Fatal("session not in Redis under the token's hash")
	}
}

func TestParallelLoginsOfOneMember(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	answers := apitest.TogetherV(8, func(int) *apitest.Response {
		return login(env.Client(), m.Email, apitest.DefaultPassword)
	})
	seen := map[string]bool{}
	for _, res := range answers {
		// Checked here: Want stops the test, which only its own goroutine may do.
		var auth api.AuthResult
		res.Want(http.StatusOK).JSON(&auth)
		tok := auth.Token
		if seen[tok] {
			t.Fatal("two logins got the same token")
		}
		seen[tok] = true
		env.Client().WithToken(tok).Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
	}
}

func TestLogoutEndsTheSessionEverywhere(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	other := env.LogIn(m.Email, apitest.DefaultPassword)
	cookieClient := env.Client().WithHeader("Cookie", "nestegg_session="+m.Token)
	res := cookieClient.Do(http.MethodPost, "/api/auth/logout", nil).Want(http.StatusNoContent)
	if c := res.Header.Get("Set-Cookie"); !strings.Contains(c, "nestegg_session=;") || !strings.Contains(c, "Max-Age=0") {
		t.Fatalf("logout cookie %q does not clear the session cookie", c)
	}
	m.Do(http.MethodGet, "/api/auth/session", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	var rows int
	if err := env.Pool.QueryRow(context.Background(), "SELECT count(*) FROM auth_session WHERE token_hash = $1", session.HashToken(m.Token)).Scan(&rows); err != nil || rows != 0 {
		t.Fatalf("durable copy left (%d, %v)", rows, err)
	}
	if n := env.Redis.Exists(context.Background(), env.RedisKey(m.Token)).Val(); n != 0 {
		t.Fatal("Redis copy left")
	}
	// The member's other session is untouched; logging out with no session is fine.
	other.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
	env.Client().Do(http.MethodPost, "/api/auth/logout", nil).Want(http.StatusNoContent)
}

func TestHeaderClientsGetNoCookieAfterSignIn(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	if c := m.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK).Header.Get("Set-Cookie"); c != "" {
		t.Fatalf("bearer request answered Set-Cookie %q", c)
	}
	// A cookie lives until the session's absolute deadline (the idle expiry
	// slides on the server), so a request that changes nothing resends none.
	res := env.Client().WithHeader("Cookie", "nestegg_session="+m.Token).Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
	if c := res.Header.Get("Set-Cookie"); c != "" {
		t.Fatalf("unchanged cookie session answered Set-Cookie %q", c)
	}
	// An unknown token is anonymous and gets no session created.
	res = env.Client().WithToken("forged-token").Do(http.MethodGet, "/api/auth/session", nil)
	res.WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	if c := res.Header.Get("Set-Cookie"); c != "" {
		t.Fatalf("anonymous request answered Set-Cookie %q", c)
	}
}

func TestSuspendedMemberCannotSignIn(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	if _, err := env.Pool.Exec(context.Background(), "UPDATE member SET status = 'SUSPENDED' WHERE id = $1", m.ID); err != nil {
		t.Fatal(err)
	}
	m.Do(http.MethodGet, "/api/auth/session", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	login(env.Client(), m.Email, apitest.DefaultPassword).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
}

// A change of plan, role or name reaches the member's sessions by their next
// request, and the stored copy follows, so a session restored from
// PostgreSQL keeps PREMIUM.
func TestMemberChangesReachEverySession(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	second := env.LogIn(m.Email, apitest.DefaultPassword)
	if _, err := env.Pool.Exec(context.Background(), "UPDATE member SET plan = 'PREMIUM', role = 'ADMIN', name = 'Renamed' WHERE id = $1", m.ID); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*apitest.Member{m, {Client: second}} {
		var u api.User
		c.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK).JSON(&u)
		if u.Plan != "PREMIUM" || u.Role != "ADMIN" || u.Name != "Renamed" {
			t.Fatalf("session shows %+v", u)
		}
	}
	var data []byte
	if err := env.Pool.QueryRow(context.Background(), "SELECT data FROM auth_session WHERE token_hash = $1", session.HashToken(m.Token)).Scan(&data); err != nil {
		t.Fatal(err)
	}
	var values struct {
		Plan string `json:"p"`
		Role string `json:"r"`
		Name string `json:"n"`
	}
	if err := json.Unmarshal(data, &values); err != nil {
		t.Fatal(err)
	}
	if values.Plan != "PREMIUM" || values.Role != "ADMIN" || values.Name != "Renamed" {
		t.Fatalf("durable session values %+v", values)
	}
}

func TestExpiredSessionIsRefused(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	ctx := context.Background()
	env.Redis.Del(ctx, env.RedisKey(m.Token))
	if _, err := env.Pool.Exec(ctx, "UPDATE auth_session SET expires_at = now() - interval '1 second'"); err != nil {
		t.Fatal(err)
	}
	m.Do(http.MethodGet, "/api/auth/session", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
}

func TestSessionCleanupJobDeletesExpiredSessions(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	ctx := context.Background()
	count := func() int {
		var n int
		if err := env.Pool.QueryRow(ctx, "SELECT count(*) FROM auth_session").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if ran, err := env.App.Jobs.Run(ctx, "session-cleanup"); err != nil || !ran {
		t.Fatalf("cleanup ran=%v err=%v", ran, err)
	}
	if count() != 1 {
		t.Fatal("cleanup deleted a live session")
	}
	m.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
	// Sessions end 30 days after their last use; a day's tick later than
	// that finds it expired.
	env.Clock.Set(time.Now().Add(31 * 24 * time.Hour))
	if ran, err := env.App.Jobs.Run(ctx, "session-cleanup"); err != nil || !ran {
		t.Fatalf("cleanup ran=%v err=%v", ran, err)
	}
	if count() != 0 {
		t.Fatal("expired session kept")
	}
}

func TestAdministratorBootstrap(t *testing.T) {
	t.Parallel()
	withAdmin := apitest.WithConfig(func(cfg *config.Config) {
		cfg.AdminEmail = "Boss@Nestegg.test"
		cfg.AdminPassword = "the boss's password"
	})
	env := apitest.New(t, withAdmin)
	var res api.AuthResult
	login(env.Client(), "boss@nestegg.test", "the boss's password").Want(http.StatusOK).JSON(&res)
	if res.User.Role != "ADMIN" {
		t.Fatalf("bootstrap member role %s", res.User.Role)
	}
	// Starting again (another replica, a restart) changes nothing.
	if err := env.RestartApp(); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := env.Pool.QueryRow(context.Background(), "SELECT count(*) FROM member WHERE role = 'ADMIN'").Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d administrators after a second start (%v)", n, err)
	}
}

func TestCorruptStoredSessionReadsAsSignedOut(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	ctx := context.Background()
	if err := env.Redis.Set(ctx, env.RedisKey(m.Token), "not a session", time.Hour).Err(); err != nil {
		t.Fatal(err)
	}
	m.Do(http.MethodGet, "/api/auth/session", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	// Signing in again works as usual.
	env.LogIn(m.Email, apitest.DefaultPassword).Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
}
