package auth_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/settings"
)

func signUpBody(email string) api.SignUpJSONRequestBody {
	return api.SignUpJSONRequestBody{Email: api.Email(email), Password: "a long enough password", Name: "New Member"}
}

func countMembers(t *testing.T, env *apitest.Env) int {
	t.Helper()
	var n int
	if err := env.Pool.QueryRow(context.Background(), "SELECT count(*) FROM member").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSignUpCreatesAMemberAndSignsThemIn(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	res := env.Client().Do(http.MethodPost, "/api/auth/signup", signUpBody("New.Member@Nestegg.test")).Want(http.StatusCreated)
	var got api.AuthResult
	res.JSON(&got)
	if got.Token == "" || got.User.Role != "USER" || got.User.Plan != "FREE" || got.User.PlanExpiresAt != nil {
		t.Fatalf("sign-up answered %+v", got)
	}
	if got.User.Email == nil || *got.User.Email != "new.member@nestegg.test" {
		t.Fatalf("e-mail %v, want it normalised to lower case", got.User.Email)
	}
	cookie := res.Header.Get("Set-Cookie")
	for _, want := range []string{"nestegg_session=" + got.Token, "HttpOnly", "SameSite=Lax", "Path=/"} {
		if !strings.Contains(cookie, want) {
			t.Errorf("Set-Cookie %q lacks %q", cookie, want)
		}
	}
	// The token works as a bearer token and as the cookie.
	env.Client().WithToken(got.Token).Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
	env.Client().WithHeader("Cookie", "nestegg_session="+got.Token).Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
	// The password is stored as an argon2id hash, never as given.
	var hash string
	if err := env.Pool.QueryRow(context.Background(), "SELECT password_hash FROM member WHERE id = $1", got.User.ID).Scan(&hash); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(hash, "$argon2id$") {
		t.Fatalf("stored password %q", hash)
	}
}

func TestSignUpHoneypotCreatesNothing(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	body := signUpBody("bot@nestegg.test")
	spam := "http://spam.example"
	body.Website = &spam
	p := env.Client().Do(http.MethodPost, "/api/auth/signup", body).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	if len(p.Errors) != 1 || p.Errors[0].Field != "/website" {
		t.Fatalf("problem %+v, want it to name /website", p)
	}
	if n := countMembers(t, env); n != 0 {
		t.Fatalf("%d members after a honeypot sign-up", n)
	}
}

func TestSignUpSwitchedOff(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	if err := settings.SetSignupEnabled(context.Background(), db.New(env.Pool), false); err != nil {
		t.Fatal(err)
	}
	env.Client().Do(http.MethodPost, "/api/auth/signup", signUpBody("x@nestegg.test")).WantProblem(http.StatusForbidden, "SIGNUP_DISABLED")
	if n := countMembers(t, env); n != 0 {
		t.Fatalf("%d members after sign-up was refused", n)
	}
}

func TestSignUpRefusesBadInput(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	c := env.Client()
	c.Do(http.MethodPost, "/api/auth/signup", signUpBody("taken@nestegg.test")).Want(http.StatusCreated)
	c.Do(http.MethodPost, "/api/auth/signup", signUpBody("TAKEN@nestegg.test")).WantProblem(http.StatusConflict, "CONFLICT")

	cases := map[string]any{
		// The generated type refuses to encode a malformed e-mail, so that
		// body is written out.
		"/email":    `{"email": "not an address", "password": "long enough pw", "name": "A"}`,
		"/password": api.SignUpJSONRequestBody{Email: "short@nestegg.test", Password: "short", Name: "A"},
		"/name":     api.SignUpJSONRequestBody{Email: "blank@nestegg.test", Password: "long enough pw", Name: "   "},
	}
	for field, body := range cases {
		p := c.Raw().Do(http.MethodPost, "/api/auth/signup", body).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		if len(p.Errors) == 0 || !strings.HasPrefix(p.Errors[0].Field, field) {
			t.Errorf("%s: problem %+v does not name the field", field, p)
		}
	}
	if n := countMembers(t, env); n != 1 {
		t.Fatalf("%d members, want only the first sign-up", n)
	}
}

func TestSignUpLimitPerAddress(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	c := env.Client()
	for i := range 5 {
		c.Do(http.MethodPost, "/api/auth/signup", signUpBody(fmt.Sprintf("m%d@nestegg.test", i))).Want(http.StatusCreated)
	}
	limited := c.Do(http.MethodPost, "/api/auth/signup", signUpBody("m6@nestegg.test"))
	limited.WantProblem(http.StatusTooManyRequests, "RATE_LIMITED")
	if retry, err := strconv.Atoi(limited.Header.Get("Retry-After")); err != nil || retry < 1 || retry > 3600 {
		t.Fatalf("sign-up 429 with Retry-After %q, want seconds until the oldest attempt leaves the hour", limited.Header.Get("Retry-After"))
	}
	// Without trusted proxies, X-Forwarded-For is not believed.
	c.WithHeader("X-Forwarded-For", "198.51.100.7").Do(http.MethodPost, "/api/auth/signup", signUpBody("m7@nestegg.test")).
		WantProblem(http.StatusTooManyRequests, "RATE_LIMITED")
	env.Clock.Advance(time.Hour + time.Second)
	c.Do(http.MethodPost, "/api/auth/signup", signUpBody("m8@nestegg.test")).Want(http.StatusCreated)
}

// Issue 43: the limit is a setting, so a test server that a client team's
// scenarios sign up on many times an hour can raise it.
func TestSignUpLimitIsASetting(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, apitest.WithConfig(func(cfg *config.Config) { cfg.SignupLimitPerHour = 7 }))
	c := env.Client()
	for i := range 7 {
		c.Do(http.MethodPost, "/api/auth/signup", signUpBody(fmt.Sprintf("s%d@nestegg.test", i))).Want(http.StatusCreated)
	}
	p := c.Do(http.MethodPost, "/api/auth/signup", signUpBody("s8@nestegg.test")).WantProblem(http.StatusTooManyRequests, "RATE_LIMITED")
	if !strings.Contains(p.Detail, "at most 7 sign-ups") {
		t.Fatalf("detail %q does not name the limit", p.Detail)
	}
}

func TestSignUpLimitBehindTrustedProxy(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, apitest.BehindLoopbackProxy())
	a := env.Client().WithHeader("X-Forwarded-For", "203.0.113.1")
	b := env.Client().WithHeader("X-Forwarded-For", "203.0.113.2")
	for i := range 5 {
		a.Do(http.MethodPost, "/api/auth/signup", signUpBody(fmt.Sprintf("a%d@nestegg.test", i))).Want(http.StatusCreated)
	}
	a.Do(http.MethodPost, "/api/auth/signup", signUpBody("a6@nestegg.test")).WantProblem(http.StatusTooManyRequests, "RATE_LIMITED")
	// Another client behind the same proxy has its own count.
	b.Do(http.MethodPost, "/api/auth/signup", signUpBody("b1@nestegg.test")).Want(http.StatusCreated)
	// A client cannot escape by prepending a forged hop.
	env.Client().WithHeader("X-Forwarded-For", "10.9.9.9, 203.0.113.1").
		Do(http.MethodPost, "/api/auth/signup", signUpBody("a7@nestegg.test")).WantProblem(http.StatusTooManyRequests, "RATE_LIMITED")
}

// The limit is a shared counter: parallel sign-ups from one address get
// exactly five through.
func TestParallelSignUpsOverTheLimit(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	answers := apitest.TogetherV(12, func(i int) *apitest.Response {
		return env.Client().Do(http.MethodPost, "/api/auth/signup", signUpBody(fmt.Sprintf("p%d@nestegg.test", i)))
	})
	counts := map[int]int{}
	for _, r := range answers {
		counts[r.Status]++
	}
	if counts[http.StatusCreated] != 5 || counts[http.StatusTooManyRequests] != 7 {
		t.Fatalf("statuses %v, want 5 created and 7 refused", counts)
	}
	if n := countMembers(t, env); n != 5 {
		t.Fatalf("%d members, want 5", n)
	}
}

func TestBodyProblems(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	c := env.Client().Raw()
	p := c.Send(http.MethodPost, "/api/auth/login", "application/json", []byte(`{"email": "a@b.c", "password": `)).
		WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	if !strings.Contains(p.Detail, "malformed JSON") {
		t.Fatalf("detail %q does not say the JSON is malformed", p.Detail)
	}
	big := `{"email":"a@b.c","password":"` + strings.Repeat("x", 1<<20) + `"}`
	c.Send(http.MethodPost, "/api/auth/login", "application/json", []byte(big)).WantProblem(http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
	c.Send(http.MethodPost, "/api/auth/login", "text/plain", []byte(`email=a`)).WantProblem(http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE")
	c.Send(http.MethodPost, "/api/auth/login", "application/json", []byte(`{"email": 5}`)).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
}

func TestSignupAttemptCleanupKeepsTheLastHour(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	ctx := context.Background()
	env.Client().Do(http.MethodPost, "/api/auth/signup", signUpBody("old@nestegg.test")).Want(http.StatusCreated)
	env.Clock.Advance(30 * time.Minute)
	env.Client().Do(http.MethodPost, "/api/auth/signup", signUpBody("recent@nestegg.test")).Want(http.StatusCreated)
	env.Clock.Advance(31 * time.Minute) // the first attempt is now over an hour old
	if ran, err := env.App.Jobs.Run(ctx, "signup-attempt-cleanup"); err != nil || !ran {
		t.Fatalf("cleanup ran=%v err=%v", ran, err)
	}
	var n int
	if err := env.Pool.QueryRow(ctx, "SELECT count(*) FROM signup_attempt").Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d attempts left (%v), want the recent one", n, err)
	}
}

// Names refuse the characters one member would use to look like another.
func TestSignUpRefusesDeceptiveNames(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	for i, name := range []string{"admin\u202e", "Min\u200bji", "esc\x1b[31m", "tab\tname"} {
		body := signUpBody(fmt.Sprintf("deceptive%d@nestegg.test", i))
		body.Name = name
		p := env.Client().Do(http.MethodPost, "/api/auth/signup", body).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		if len(p.Errors) == 0 || p.Errors[0].Field != "/name" {
			t.Errorf("name %q: problem names %v, want /name", name, p.Errors)
		}
	}
}
