package server

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/netip"
	"regexp"
	"runtime/debug"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/routers"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/nestegg/nestegg/internal/clientaddr"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// requestInfo is filled in as a request walks the chain, and read by the
// access log and the metrics once it is answered.
type requestInfo struct {
	ID        string
	Operation string
	MemberID  int64
	// found is the contract's operation for the request, as withRequestInfo
	// found it (nil only where that layer did not run; find looks itself
	// then, and for a request the chain makes with the same context).
	found *foundRoute
}

type requestInfoKey struct{}

func infoFrom(ctx context.Context) *requestInfo {
	if ri, ok := ctx.Value(requestInfoKey{}).(*requestInfo); ok {
		return ri
	}
	return &requestInfo{}
}

// RequestID returns the id the server gave r.
func RequestID(r *http.Request) string { return infoFrom(r.Context()).ID }

var validRequestID = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// requestDeadline bounds the work of one request: a PostgreSQL or Redis that
// hangs makes the request fail with 503 instead of holding it (and a pool
// connection) forever. An operation that moves much more data declares its
// own in x-deadline-seconds (restore).
const requestDeadline = 8 * time.Second

// foundRoute is the contract's operation for a request, found once.
type foundRoute struct {
	// method and path are those of the request it was found for: a
	// request made inside the chain with the same context (withVersions'
	// GET of the record an edit changes) is found anew.
	method, path string
	route        *routers.Route
	params       map[string]string
	err          error
}

// withRequestInfo starts every request, in one copy of its context:
//   - its id, answered in X-Request-ID: with tracing on, the id of the
//     request's trace; off, the caller's X-Request-ID when it is sane, or a
//     random one;
//   - its operation in the contract, found once and named before the
//     session layer runs, so a request that layer answers (503 while
//     PostgreSQL is down) is logged and counted under its operation, not
//     "unmatched";
//   - the client's address (package clientaddr);
//   - the operation's deadline. A request that reaches it ends with
//     context.DeadlineExceeded, one whose client hung up with
//     context.Canceled (withAccessLog tells the two apart).
func withRequestInfo(c *Contract, trusted []netip.Prefix, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var id string
		if sc := trace.SpanContextFromContext(r.Context()); sc.HasTraceID() {
			id = sc.TraceID().String()
		} else if id = r.Header.Get("X-Request-ID"); !validRequestID.MatchString(id) {
			id = randomID()
		}
		// The canonical form of X-Request-ID, set without canonicalizing.
		w.Header()["X-Request-Id"] = []string{id}
		ri := &requestInfo{ID: id, Operation: "unmatched", found: &foundRoute{method: r.Method, path: r.URL.Path}}
		f := ri.found
		f.route, f.params, f.err = c.Find(r)
		d := requestDeadline
		if f.err == nil {
			d, _ = OperationDeadline(f.route.Operation) // checked at start-up
			ri.Operation = f.route.Operation.OperationID
		}
		ctx := context.WithValue(r.Context(), requestInfoKey{}, ri)
		// A session the session layer cannot confirm (PostgreSQL down)
		// still names its member in the log line of the failed request.
		ctx = session.WithClaimNote(ctx, func(memberID int64) { ri.MemberID = memberID })
		ctx = problem.WithRequestID(ctx, id)
		ctx = clientaddr.With(ctx, clientaddr.Of(r, trusted))
		if d > requestDeadline {
			// Heavy work keeps its own deadline when PostgreSQL pauses:
			// the pool's breaker cuts only ordinary statements short.
			ctx = database.Patient(ctx)
		}
		ctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// randomID is a request id nobody sent: 96 random bits in hex. It names a
// request in logs and problems and guards nothing, so it comes from the
// runtime's per-thread generator, not from the kernel (a system call a
// request).
func randomID() string {
	var b [12]byte
	binary.LittleEndian.PutUint64(b[:8], rand.Uint64())
	binary.LittleEndian.PutUint32(b[8:], rand.Uint32())
	return hex.EncodeToString(b[:])
}

// statusWriter remembers the status and size of the answer.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// statusClientClosed is what the access log and the metrics record for a
// request whose client closed the connection before it was answered (nginx's
// 499 "client closed request"); the client never sees it.
const statusClientClosed = 499

// withAccessLog writes one structured line per request and records metrics.
// It never logs the query string or headers, where tokens could travel.
func withAccessLog(m *metrics, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		elapsed := time.Since(start)
		ri := infoFrom(r.Context())
		if sw.status >= 400 && errors.Is(r.Context().Err(), context.Canceled) {
			// The client closed the connection before its answer: nothing
			// failed on our side (the cancelled work answered 503 or a
			// broken body 400, to nobody). Counted as nginx does.
			sw.status = statusClientClosed
		}
		m.observe(ri.Operation, sw.status, elapsed)
		timedOut := sw.status == http.StatusServiceUnavailable && errors.Is(r.Context().Err(), context.DeadlineExceeded)
		if timedOut {
			m.timedOut(ri.Operation)
		}
		level := slog.LevelInfo
		switch {
		case sw.status == statusClientClosed:
		case sw.status == http.StatusServiceUnavailable:
			// A dependency away or unconfigured: expected, and its cause
			// is logged once per outage by the problem writer.
			level = slog.LevelWarn
		case sw.status >= 500:
			level = slog.LevelError
		}
		// The record is handed to the handler directly: slog.LogAttrs
		// would also walk the stack for a source line nobody logs.
		ctx, logger := r.Context(), slog.Default()
		if !logger.Enabled(ctx, level) {
			return
		}
		rec := slog.NewRecord(time.Now(), level, "request", 0)
		rec.AddAttrs(
			slog.String("request_id", ri.ID),
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.String("operation", ri.Operation),
			slog.Int("status", sw.status),
			slog.Int("bytes", sw.bytes),
			// Whole microseconds: slog writes a float through encoding/json,
			// which cost as much as the rest of the line.
			slog.Int64("duration_us", elapsed.Microseconds()),
			slog.Int64("member_id", ri.MemberID),
		)
		if timedOut {
			rec.AddAttrs(slog.Bool("timeout", true))
		}
		_ = logger.Handler().Handle(ctx, rec)
	})
}

// withRecover turns a panic into a logged 500 problem.
func withRecover(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			rec := recover()
			if rec == nil {
				return
			}
			if rec == http.ErrAbortHandler {
				panic(rec)
			}
			slog.ErrorContext(r.Context(), "panic", "request_id", RequestID(r), "panic", rec, "stack", string(debug.Stack()))
			problem.Write(w, r, problem.New(http.StatusInternalServerError, problem.CodeInternal,
				"an unexpected error occurred; quote the request id when reporting it"))
		}()
		next.ServeHTTP(w, r)
	})
}

// find answers the operation withRequestInfo found for r, or finds it.
func find(c *Contract, r *http.Request) (*routers.Route, map[string]string, error) {
	if f := infoFrom(r.Context()).found; f != nil && f.method == r.Method && f.path == r.URL.Path {
		return f.route, f.params, f.err
	}
	return c.Find(r)
}

// withContract finds the operation of each request in the contract and
// enforces what it declares: access, body size, media type and schema. With
// tracing on, it names the request's span after the operation.
func withContract(c *Contract, tracing bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route, params, err := find(c, r)
		if err != nil {
			if pe, ok := problem.As(err); ok && pe.Status == http.StatusMethodNotAllowed {
				w.Header().Set("Allow", allowedMethods(c, r))
			}
			problem.Write(w, r, err)
			return
		}
		ri := infoFrom(r.Context())
		ri.Operation = route.Operation.OperationID
		// Off, there is no span to name, and looking for one walks the
		// whole context chain.
		if tracing {
			if span := trace.SpanFromContext(r.Context()); span.IsRecording() {
				span.SetName(ri.Operation)
				span.SetAttributes(attribute.String("http.route", route.Path))
			}
		}
		p := session.PrincipalFrom(r.Context())
		if p != nil {
			ri.MemberID = p.MemberID
		}
		access, _ := OperationAccess(route.Operation) // checked at start-up
		if err := authorize(access, p); err != nil {
			problem.Write(w, r, err)
			return
		}
		body, err := readBody(r, route.Operation)
		if err != nil {
			problem.Write(w, r, err)
			return
		}
		if err := validate(r.Context(), r, body, route, params); err != nil {
			problem.Write(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func allowedMethods(c *Contract, r *http.Request) string {
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, _, err := c.router.FindRoute(probe); err == nil {
			allowed = append(allowed, m)
			if m == http.MethodGet {
				allowed = append(allowed, http.MethodHead)
			}
		}
	}
	return strings.Join(allowed, ", ")
}
