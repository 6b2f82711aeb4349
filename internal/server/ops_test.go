package server_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/settings"
)

func TestHealthAndReadiness(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	c := env.Client()

	var health struct{ Status string }
	c.Do(http.MethodGet, "/healthz", nil).Want(http.StatusOK).JSON(&health)
	if health.Status != "ok" {
		t.Fatalf("health %q", health.Status)
	}
	var ready struct{ Postgres, Redis string }
	c.Do(http.MethodGet, "/readyz", nil).Want(http.StatusOK).JSON(&ready)
	if ready.Postgres != "up" || ready.Redis != "up" {
		t.Fatalf("readiness %+v, want both up", ready)
	}
}

func TestReadinessReportsRedisDownButStaysReady(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, apitest.WithConfig(func(cfg *config.Config) { cfg.RedisURL = "redis://127.0.0.1:1/0" }))
	var ready struct{ Postgres, Redis string }
	env.Client().Do(http.MethodGet, "/readyz", nil).Want(http.StatusOK).JSON(&ready)
	if ready.Postgres != "up" || ready.Redis != "down" {
		t.Fatalf("readiness %+v, want postgres up and redis down", ready)
	}
}

func TestReadinessWithoutPostgres(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	env.Pool.Close()
	var ready struct{ Postgres, Redis string }
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
	var got struct{ Enabled bool }
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
