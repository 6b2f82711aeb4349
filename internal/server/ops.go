package server

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"
	"github.com/swaggest/swgui"
	"github.com/swaggest/swgui/v5emb"

	"github.com/nestegg/nestegg/api"
	apigen "github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/problem"
)

// opsHandler serves health, readiness and the contract itself.
type opsHandler struct {
	pool     *pgxpool.Pool
	redis    *redis.Client
	docs     http.Handler
	docsPage []byte
}

const docsBase = "/docs/"

func newOpsHandler(pool *pgxpool.Pool, rdb *redis.Client) *opsHandler {
	// Swagger UI with every asset embedded in the binary and served under
	// /docs/: no CDN, no telemetry, no outside validator.
	docs := v5emb.NewWithConfig(swgui.Config{
		SettingsUI: map[string]string{"validatorUrl": "null"},
	})("nestegg API", "/api/openapi.yaml", docsBase)
	// GET /docs (in the contract) answers the same page the UI serves at /docs/,
	// rendered once.
	page := &pageWriter{header: http.Header{}}
	docs.ServeHTTP(page, &http.Request{Method: http.MethodGet, URL: &url.URL{Path: docsBase}, Header: http.Header{}})
	return &opsHandler{pool: pool, redis: rdb, docs: withClientConfig(missingAsProblem(docs)), docsPage: page.body.Bytes()}
}

// clientConfigPath is where the Go client's oapi-codegen configuration, which
// the contract refers to (api/oapi-client.yaml), is served beside the
// reference page.
const clientConfigPath = docsBase + "oapi-client.yaml"

func withClientConfig(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != clientConfigPath {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/yaml")
		http.ServeContent(w, r, "oapi-client.yaml", time.Time{}, bytes.NewReader(api.OAPIClientYAML))
	})
}

// missingAsProblem answers the asset server's 404 (plain text) as a 404
// problem, like every other unknown path.
func missingAsProblem(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		nf := &notFoundWriter{ResponseWriter: w}
		next.ServeHTTP(nf, r)
		if nf.notFound {
			h := w.Header()
			for _, k := range []string{"Content-Type", "Content-Length", "Content-Encoding", "X-Content-Type-Options"} {
				h.Del(k)
			}
			problem.Write(w, r, problem.New(http.StatusNotFound, problem.CodeNotFound, "no reference page asset at "+r.URL.Path))
		}
	})
}

// notFoundWriter holds back a 404 and its body so that a problem can be
// written instead.
type notFoundWriter struct {
	http.ResponseWriter
	notFound bool
	wrote    bool
}

func (w *notFoundWriter) WriteHeader(code int) {
	if w.wrote {
		return
	}
	w.wrote = true
	if code == http.StatusNotFound {
		w.notFound = true
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *notFoundWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if w.notFound {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// pageWriter captures a handler's page.
type pageWriter struct {
	header http.Header
	body   bytes.Buffer
}

func (w *pageWriter) Header() http.Header         { return w.header }
func (w *pageWriter) Write(b []byte) (int, error) { return w.body.Write(b) }
func (w *pageWriter) WriteHeader(int)             {}

func (h *opsHandler) GetHealth(context.Context, apigen.GetHealthRequestObject) (apigen.GetHealthResponseObject, error) {
	return apigen.GetHealth200JSONResponse{Status: "ok"}, nil
}

// The states readiness reports (DependencyState).
const (
	stateUp   = "up"
	stateDown = "down"
)

func (h *opsHandler) GetReadiness(ctx context.Context, _ apigen.GetReadinessRequestObject) (apigen.GetReadinessResponseObject, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	state := apigen.Readiness{Postgres: stateUp, Redis: stateUp}
	if err := h.pool.Ping(ctx); err != nil {
		state.Postgres = stateDown
	}
	if h.redis == nil || h.redis.Ping(ctx).Err() != nil {
		state.Redis = stateDown
	}
	if state.Postgres == stateDown {
		return apigen.GetReadiness503JSONResponse(state), nil
	}
	return apigen.GetReadiness200JSONResponse(state), nil
}

func (h *opsHandler) GetOpenAPI(context.Context, apigen.GetOpenAPIRequestObject) (apigen.GetOpenAPIResponseObject, error) {
	return apigen.GetOpenAPI200ApplicationYamlResponse{Body: bytes.NewReader(api.OpenAPIYAML), ContentLength: int64(len(api.OpenAPIYAML))}, nil
}

func (h *opsHandler) GetDocs(context.Context, apigen.GetDocsRequestObject) (apigen.GetDocsResponseObject, error) {
	return apigen.GetDocs200TextHTMLResponse{Body: bytes.NewReader(h.docsPage), ContentLength: int64(len(h.docsPage))}, nil
}
