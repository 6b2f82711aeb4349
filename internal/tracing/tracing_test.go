package tracing_test

import (
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace/noop"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/app"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/external/fx/fxtest"
)

// These tests change the process's global tracer provider, so none of them
// runs in parallel.

// receiver is a local OTLP/HTTP collector: it keeps the spans posted to it.
type receiver struct {
	*httptest.Server
	mu    sync.Mutex
	spans []*span
}

type span struct {
	scope string
	*tracepb.Span
}

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		var req coltracepb.ExportTraceServiceRequest
		if err == nil {
			err = proto.Unmarshal(body, &req)
		}
		if r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" || err != nil {
			http.Error(w, "not an OTLP/HTTP protobuf trace export", http.StatusBadRequest)
			return
		}
		rc.mu.Lock()
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					rc.spans = append(rc.spans, &span{scope: ss.Scope.GetName(), Span: s})
				}
			}
		}
		rc.mu.Unlock()
		answer, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(answer)
	}))
	t.Cleanup(rc.Close)
	return rc
}

// trace returns the spans of the trace with the hex id.
func (rc *receiver) trace(id string) []*span {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var out []*span
	for _, s := range rc.spans {
		if hex.EncodeToString(s.TraceId) == id {
			out = append(out, s)
		}
	}
	return out
}

func attr(s *span, key string) string {
	for _, kv := range s.Attributes {
		if kv.Key == key {
			return kv.Value.GetStringValue()
		}
	}
	return ""
}

// tracedEnv starts the service with tracing to rc. The app opens its own
// pool (on the test's database) so the pool carries the SQL tracer.
func tracedEnv(t *testing.T, rc *receiver, fxURL string) *apitest.Env {
	t.Cleanup(func() { otel.SetTracerProvider(noop.NewTracerProvider()) })
	return apitest.New(t, func(cfg *config.Config, o *app.Options) {
		cfg.OTLPEndpoint = rc.URL
		cfg.FXAPIURL = fxURL
		cfg.DatabaseURL = o.Pool.Config().ConnString()
		cfg.SQLInitMode = "never"
		o.Pool = nil
	})
}

func exporterGoroutines() int {
	buf := make([]byte, 1<<20)
	stacks := string(buf[:runtime.Stack(buf, true)])
	return strings.Count(stacks, "go.opentelemetry.io/otel/sdk/trace") + strings.Count(stacks, "otlptrace")
}

// Off (no OTEL_EXPORTER_OTLP_ENDPOINT): no provider, no exporter goroutine,
// and request ids are today's (the caller's X-Request-ID is kept).
func TestTracingOffStartsNothing(t *testing.T) {
	env := apitest.New(t)
	if tp := otel.GetTracerProvider(); strings.Contains(typeName(tp), "sdk") {
		t.Fatalf("tracer provider %s with tracing off", typeName(tp))
	}
	if _, rec := otel.Tracer("x").Start(t.Context(), "x"); rec.IsRecording() {
		t.Fatal("a span records with tracing off")
	}
	m := env.NewMember()
	res := m.WithHeader("X-Request-ID", "caller-id-1").Do(http.MethodGet, "/api/fx/rate?from=USD&to=KRW", nil)
	if got := res.Header.Get("X-Request-ID"); got != "caller-id-1" {
		t.Fatalf("X-Request-ID %q, want the caller's", got)
	}
	if n := exporterGoroutines(); n != 0 {
		t.Fatalf("%d goroutine frames of the OpenTelemetry SDK with tracing off", n)
	}
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }

// One authenticated request that reads the FX provider is one trace: the
// request span (named by its operation, with its route), its SQL spans and
// the outside call, all under the request span; its id is the request id.
func TestOneRequestIsOneTrace(t *testing.T) {
	rc := newReceiver(t)
	fx := fxtest.New(t)
	env := tracedEnv(t, rc, fx.URL)
	m := env.NewMember()
	res := m.WithHeader("X-Request-ID", "caller-id-2").Do(http.MethodGet, "/api/fx/rate?from=USD&to=KRW", nil).Want(http.StatusOK)
	id := res.Header.Get("X-Request-ID")
	if len(id) != 32 || id == "caller-id-2" {
		t.Fatalf("X-Request-ID %q, want a trace id", id)
	}
	env.App.Close() // flushes the spans

	spans := rc.trace(id)
	if len(spans) == 0 {
		t.Fatalf("no spans of trace %s among %d exported", id, len(rc.spans))
	}
	byID := map[string]*span{}
	var root *span
	for _, s := range spans {
		byID[hex.EncodeToString(s.SpanId)] = s
		if len(s.ParentSpanId) == 0 {
			if root != nil {
				t.Fatalf("two root spans in the trace: %q and %q", root.Name, s.Name)
			}
			root = s
		}
	}
	if root == nil || root.Name != "getFXRate" || root.Kind != tracepb.Span_SPAN_KIND_SERVER {
		t.Fatalf("root span %+v, want the server span getFXRate", root)
	}
	if r := attr(root, "http.route"); r != "/api/fx/rate" {
		t.Fatalf("http.route %q", r)
	}
	var sql, outside int
	for _, s := range spans {
		t.Logf("span %q kind %v scope %s", s.Name, s.Kind, s.scope)
		if s != root {
			// Every other span hangs under the request span.
			p := s
			for len(p.ParentSpanId) != 0 {
				p = byID[hex.EncodeToString(p.ParentSpanId)]
				if p == nil {
					t.Fatalf("span %q has a parent outside the trace", s.Name)
				}
			}
		}
		switch {
		case strings.Contains(s.scope, "otelpgx") && attr(s, "db.query.text") != "":
			sql++
		case strings.HasSuffix(s.scope, "/httpcall"):
			outside++
			if s.Kind != tracepb.Span_SPAN_KIND_CLIENT || !strings.HasPrefix(s.Name, "GET 127.0.0.1:") {
				t.Errorf("outside call span %q kind %v", s.Name, s.Kind)
			}
		}
	}
	if sql == 0 || outside != 1 {
		t.Fatalf("%d SQL spans and %d outside-call spans, want some and 1", sql, outside)
	}
}

// A problem body quotes the trace id as its request id when tracing is on.
func TestProblemQuotesTraceID(t *testing.T) {
	rc := newReceiver(t)
	env := tracedEnv(t, rc, "")
	m := env.NewMember()
	res := m.Do(http.MethodGet, "/api/fx/rate?from=USD&to=KRW", nil) // no FX provider: 503 FX_NOT_CONFIGURED
	p := res.WantProblem(http.StatusServiceUnavailable, "FX_NOT_CONFIGURED")
	if id := res.Header.Get("X-Request-ID"); len(id) != 32 || p.RequestID != id {
		t.Fatalf("problem request id %q, header %q, want one trace id", p.RequestID, id)
	}
	env.App.Close()
	if len(rc.trace(p.RequestID)) == 0 {
		t.Fatalf("no trace %s exported", p.RequestID)
	}
}

// A caller's traceparent continues the caller's trace, whose id is then the
// request id.
func TestCallerTraceIsContinued(t *testing.T) {
	rc := newReceiver(t)
	env := tracedEnv(t, rc, "")
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	res := env.Client().WithHeader("traceparent", "00-"+traceID+"-00f067aa0ba902b7-01").Do(http.MethodGet, "/healthz", nil).Want(http.StatusOK)
	if id := res.Header.Get("X-Request-ID"); id != traceID {
		t.Fatalf("X-Request-ID %q, want the caller's trace id", id)
	}
	env.App.Close()
	spans := rc.trace(traceID)
	if len(spans) != 1 || spans[0].Name != "getHealth" || hex.EncodeToString(spans[0].ParentSpanId) != "00f067aa0ba902b7" {
		t.Fatalf("spans of the caller's trace: %v", spans)
	}
}
