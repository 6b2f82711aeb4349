package server_test

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/api"
	apigen "github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/settings"
)

func TestHealthAndReadiness(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	c := env.Client()

	var health apigen.Health
	c.Do(http.MethodGet, "/healthz", nil).Want(http.StatusOK).JSON(&health)
	if health.Status != "ok" {
		t.Fatalf("health %q", health.Status)
	}
	var ready apigen.Readiness
	c.Do(http.MethodGet, "/readyz", nil).Want(http.StatusOK).JSON(&ready)
	if ready.Postgres != "up" || ready.Redis != "up" {
		t.Fatalf("readiness %+v, want both up", ready)
	}
}

func TestReadinessReportsRedisDownButStaysReady(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, apitest.WithConfig(func(cfg *config.Config) { cfg.RedisURL = "redis://127.0.0.1:1/0" }))
	var ready apigen.Readiness
	env.Client().Do(http.MethodGet, "/readyz", nil).Want(http.StatusOK).JSON(&ready)
	if ready.Postgres != "up" || ready.Redis != "down" {
		t.Fatalf("readiness %+v, want postgres up and redis down", ready)
	}
}

func TestReadinessWithoutPostgres(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	env.Pool.Close()
	var ready apigen.Readiness
	env.Client().Do(http.MethodGet, "/readyz", nil).Want(http.StatusServiceUnavailable).JSON(&ready)
	if ready.Postgres != "down" {
		t.Fatalf("readiness %+v, want postgres down", ready)
	}
}

func TestContractAndDocsAreServed(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	c := env.Client()

	res := c.Do(http.MethodGet, "/api/openapi.yaml", nil).Want(http.StatusOK)
	if string(res.Body) != string(api.OpenAPIYAML) {
		t.Fatal("/api/openapi.yaml does not serve the contract as written")
	}
	page := c.Do(http.MethodGet, "/docs", nil).Want(http.StatusOK)
	body := string(page.Body)
	if !strings.Contains(body, "/api/openapi.yaml") || !strings.Contains(body, "swagger-ui") {
		t.Fatalf("docs page does not load the contract into Swagger UI:\n%s", body)
	}
	// Every script and stylesheet of the page comes from this server.
	for _, ref := range assetRefs(body) {
		if strings.HasPrefix(ref, "http") || strings.HasPrefix(ref, "//") {
			t.Errorf("docs page loads %s from outside the server", ref)
			continue
		}
		res, err := env.Server.Client().Get(env.Server.URL + ref)
		if err != nil {
			t.Fatalf("GET %s: %v", ref, err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %d", ref, res.StatusCode)
		}
	}
	if len(assetRefs(body)) == 0 {
		t.Fatal("docs page references no assets")
	}
}

// The Go client's oapi-codegen configuration, which the contract names, is
// served beside the reference page as committed.
func TestClientConfigIsServedBesideTheDocs(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	res, err := env.Server.Client().Get(env.Server.URL + "/docs/oapi-client.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/yaml" {
		t.Fatalf("GET /docs/oapi-client.yaml: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if string(body) != string(api.OAPIClientYAML) || !strings.Contains(string(body), "package: apiclient") {
		t.Fatalf("/docs/oapi-client.yaml does not serve api/oapi-client.yaml as committed:\n%s", body)
	}
}

// assetRefs returns the src and href values of the page.
func assetRefs(html string) []string {
	var out []string
	for _, attr := range []string{`src="`, `href="`} {
		rest := html
		for {
			i := strings.Index(rest, attr)
			if i < 0 {
				break
			}
			rest = rest[i+len(attr):]
			j := strings.IndexByte(rest, '"')
			if j < 0 {
				break
			}
			if ref := rest[:j]; ref != "" && !strings.HasPrefix(ref, "#") && !strings.HasPrefix(ref, "data:") {
				out = append(out, ref)
			}
			rest = rest[j:]
		}
	}
	return out
}

func TestSignupEnabledReadsTheSetting(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	c := env.Client()
	var got apigen.SignupEnabled
	c.Do(http.MethodGet, "/api/auth/signup-enabled", nil).Want(http.StatusOK).JSON(&got)
	if !got.Enabled {
		t.Fatal("sign-up is closed by default; want open")
	}
	if err := settings.SetSignupEnabled(context.Background(), db.New(env.Pool), false); err != nil {
		t.Fatal(err)
	}
	c.Do(http.MethodGet, "/api/auth/signup-enabled", nil).Want(http.StatusOK).JSON(&got)
	if got.Enabled {
		t.Fatal("sign-up still open after the setting closed it")
	}
}

func TestUnknownPathAndWrongMethodAnswerProblems(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	c := env.Client()
	c.Raw().Do(http.MethodGet, "/api/no-such-thing", nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	res := c.Raw().Do(http.MethodDelete, "/api/auth/signup-enabled", nil)
	res.WantProblem(http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED")
	if allow := res.Header.Get("Allow"); !strings.Contains(allow, "GET") {
		t.Fatalf("Allow %q, want GET listed", allow)
	}
}

func TestMetricsCountRequestsByOperation(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	env.Client().Do(http.MethodGet, "/healthz", nil).Want(http.StatusOK)
	res, err := env.Server.Client().Get(env.Server.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	text := string(raw)
	for _, want := range []string{
		`nestegg_http_requests_total{operation="getHealth",status="200"} 1`,
		`nestegg_http_request_duration_seconds_bucket{operation="getHealth"`,
		`nestegg_db_pool_max_connections`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

func TestRequestIDIsEchoedOrMade(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	res := env.Client().WithHeader("X-Request-ID", "abc-123").Do(http.MethodGet, "/healthz", nil)
	if got := res.Header.Get("X-Request-ID"); got != "abc-123" {
		t.Fatalf("X-Request-ID %q, want the caller's", got)
	}
	res = env.Client().WithHeader("X-Request-ID", "bad id with spaces").Do(http.MethodGet, "/healthz", nil)
	if got := res.Header.Get("X-Request-ID"); got == "" || strings.Contains(got, " ") {
		t.Fatalf("X-Request-ID %q, want a fresh id", got)
	}
}

// Uptime checkers use HEAD: it answers like GET, without a body.
func TestHeadAnswersLikeGetWithoutABody(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	c := env.Client()
	for _, path := range []string{"/healthz", "/readyz", "/docs", "/api/auth/signup-enabled"} {
		get := c.Do(http.MethodGet, path, nil).Want(http.StatusOK)
		head := c.Do(http.MethodHead, path, nil).Want(http.StatusOK)
		if len(head.Body) != 0 {
			t.Errorf("HEAD %s answered a body of %d bytes", path, len(head.Body))
		}
		if got, want := head.Header.Get("Content-Type"), get.Header.Get("Content-Type"); got != want {
			t.Errorf("HEAD %s: Content-Type %q, GET says %q", path, got, want)
		}
	}
	// The gate applies to HEAD as to GET.
	c.Do(http.MethodHead, "/api/auth/session", nil).Want(http.StatusUnauthorized)
	res := c.Raw().Do(http.MethodPost, "/healthz", nil)
	res.WantProblem(http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED")
	if allow := res.Header.Get("Allow"); allow != "GET, HEAD" {
		t.Fatalf("Allow %q, want GET, HEAD", allow)
	}
}

func TestMissingDocsAssetAnswersProblem(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	p := env.Client().Raw().Do(http.MethodGet, "/docs/no-such-asset.js", nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	if p.RequestID == "" || !strings.Contains(p.Detail, "/docs/no-such-asset.js") {
		t.Fatalf("problem %+v, want the request id and the path", p)
	}
}

// A path with empty, "." or ".." elements is not rewritten or redirected:
// the API reference's assets are served only at their own clean paths, and
// anything else is the contract's, which has no such operation.
func TestPathsThatAreNotCleanAnswerNotFound(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	c := env.Client().WithToken(m.Token).Raw()
	for _, path := range []string{"/docs/../api/openapi.yaml", "/docs//index.html", "/docs/./index.html", "/api/auth/../auth/session", "/api//auth/session"} {
		p := c.Do(http.MethodGet, path, nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
		if !strings.Contains(p.Detail, path) {
			t.Errorf("GET %s: detail %q does not name the path", path, p.Detail)
		}
	}
	c.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
}

const webOrigin = "https://app.nestegg.example"

func corsEnv(t *testing.T) *apitest.Env {
	return apitest.New(t, apitest.WithConfig(func(cfg *config.Config) {
		cfg.CORSAllowedOrigins = []string{webOrigin, "http://localhost:5173"}
	}))
}

func preflight(c *apitest.Client, origin, method, path string) *apitest.Response {
	return c.WithHeader("Origin", origin).
		WithHeader("Access-Control-Request-Method", method).
		WithHeader("Access-Control-Request-Headers", "authorization, content-type").
		Raw().Do(http.MethodOptions, path, nil)
}

func TestCORSPreflightOfAnAllowedOrigin(t *testing.T) {
	t.Parallel()
	env := corsEnv(t)
	res := preflight(env.Client(), webOrigin, http.MethodPut, "/api/auth/profile").Want(http.StatusNoContent)
	want := map[string]string{
		"Access-Control-Allow-Origin":      webOrigin,
		"Access-Control-Allow-Credentials": "true",
	}
	for k, v := range want {
		if got := res.Header.Get(k); got != v {
			t.Errorf("%s %q, want %q", k, got, v)
		}
	}
	for k, v := range map[string]string{"Access-Control-Allow-Methods": "PUT", "Access-Control-Allow-Headers": "Authorization"} {
		if got := res.Header.Get(k); !strings.Contains(got, v) {
			t.Errorf("%s %q, want %s among them", k, got, v)
		}
	}
	if !slices.Contains(res.Header.Values("Vary"), "Origin") {
		t.Errorf("Vary %q lacks Origin", res.Header.Values("Vary"))
	}
}

func TestCORSHeadersOnAnswersToAnAllowedOrigin(t *testing.T) {
	t.Parallel()
	env := corsEnv(t)
	m := env.NewMember()
	res := m.WithHeader("Origin", webOrigin).Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
	if res.Header.Get("Access-Control-Allow-Origin") != webOrigin || res.Header.Get("Access-Control-Allow-Credentials") != "true" {
		t.Fatalf("headers %v, want the origin allowed with credentials", res.Header)
	}
	if got := res.Header.Get("Access-Control-Expose-Headers"); !strings.Contains(got, "Retry-After") {
		t.Fatalf("Access-Control-Expose-Headers %q, want Retry-After exposed", got)
	}
	// Problems carry them too, or a browser client could not read its errors.
	res = env.Client().WithHeader("Origin", webOrigin).Do(http.MethodGet, "/api/auth/session", nil)
	res.WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	if res.Header.Get("Access-Control-Allow-Origin") != webOrigin {
		t.Fatal("a problem answered to an allowed origin lacks Access-Control-Allow-Origin")
	}
}

func TestCORSRefusesOtherOrigins(t *testing.T) {
	t.Parallel()
	env := corsEnv(t)
	res := preflight(env.Client(), "https://evil.example", http.MethodPost, "/api/auth/login")
	res.WantProblem(http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED")
	res = env.Client().WithHeader("Origin", "https://evil.example").Do(http.MethodGet, "/healthz", nil).Want(http.StatusOK)
	for k := range res.Header {
		if strings.HasPrefix(k, "Access-Control-") {
			t.Errorf("answer to another origin carries %s", k)
		}
	}
}

func TestNoCORSHeadersWhenUnset(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	preflight(env.Client(), webOrigin, http.MethodGet, "/api/auth/session").
		WantProblem(http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED")
	res := env.Client().WithHeader("Origin", webOrigin).Do(http.MethodGet, "/healthz", nil).Want(http.StatusOK)
	for k := range res.Header {
		if strings.HasPrefix(k, "Access-Control-") || k == "Vary" {
			t.Errorf("without CORS_ALLOWED_ORIGINS the answer carries %s", k)
		}
	}
}

// A request carrying both a bearer token and a session cookie acts as the
// bearer token's member, as the contract says.
func TestBearerTokenWinsOverTheCookie(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	cookieOwner := env.NewMember()
	bearerOwner := env.NewMember()
	var me apigen.User
	bearerOwner.WithHeader("Cookie", "nestegg_session="+cookieOwner.Token).
		Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK).JSON(&me)
	if me.ID != bearerOwner.ID {
		t.Fatalf("acted as member %d, want the bearer token's %d", me.ID, bearerOwner.ID)
	}
}

// The body limit holds on every operation, those that take no body too, and
// the contract declares the 413 there.
func TestOversizedBodyIsRefusedOnOperationsWithoutABody(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	big := strings.Repeat("x", 1<<20+1)
	for _, path := range []string{"/healthz", "/api/auth/session", "/api/auth/points"} {
		m.Raw().Send(http.MethodGet, path, "text/plain", []byte(big)).
			WantProblem(http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
	}
	m.Raw().Send(http.MethodDelete, "/api/auth/me", "application/json", []byte(big)).
		WantProblem(http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
	m.Do(http.MethodGet, "/api/auth/session", nil).Want(http.StatusOK)
}
