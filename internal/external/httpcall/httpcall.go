// Package httpcall is the part every client of an outside service shares:
// one call under the client's deadline, an answer read no further than a
// bound, and a status other than 200 returned as an error. What differs
// between the services stays in their clients: the address and path,
// headers and credentials, the request body, the wire format of the answer,
// the statuses that mean something of their own, and the error each failure
// becomes.
package httpcall

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Endpoint is an outside service as its client calls it.
type Endpoint struct {
	// URL is the service's address; a call's path is appended to it.
	URL string
	// HTTP makes the calls; nil is a plain http.Client.
	HTTP *http.Client
	// Timeout bounds each call, reading the answer included.
	Timeout time.Duration
	// MaxAnswer is how many bytes of an answer are read at most; the rest
	// is left unread (a JSON answer cut there fails to decode).
	MaxAnswer int64
}

// StatusError is an answer whose status is not 200. Its text is
// "status N", as the clients put it after their ErrUnavailable.
type StatusError struct {
	Status int
	// Body is the answer, read as far as MaxAnswer: some services say in
	// it why they refused.
	Body []byte
}

func (e *StatusError) Error() string { return fmt.Sprintf("status %d", e.Status) }

var plainClient = &http.Client{}

// Get asks for URL+path (path "" is URL itself) and returns the body of a
// 200 answer.
func (e Endpoint) Get(ctx context.Context, path string, header http.Header) ([]byte, error) {
	return e.do(ctx, http.MethodGet, path, header, nil)
}

// Post sends body to URL+path and returns the body of a 200 answer.
func (e Endpoint) Post(ctx context.Context, path string, header http.Header, body []byte) ([]byte, error) {
	return e.do(ctx, http.MethodPost, path, header, bytes.NewReader(body))
}

// do makes one call. Its errors carry no sentinel of their own: a request
// that cannot be built, a transport failure or the deadline (as the
// http.Client reports them), a failed read ("read answer: …") and any status
// but 200 (*StatusError) are all the caller's ErrUnavailable unless it gives
// a status a meaning of its own, and the caller wraps them.
func (e Endpoint) do(ctx context.Context, method, path string, header http.Header, body io.Reader) (answer []byte, err error) {
	ctx, cancel := context.WithTimeout(ctx, e.Timeout)
	defer cancel()
	ctx, span := otel.GetTracerProvider().Tracer(tracerName).Start(ctx, method, trace.WithSpanKind(trace.SpanKindClient))
	defer func() {
		if err != nil {
			span.SetStatus(codes.Error, err.Error())
		}
		span.End()
	}()
	req, err := http.NewRequestWithContext(ctx, method, e.URL+path, body)
	if err != nil {
		return nil, err
	}
	for name, values := range header {
		for _, v := range values {
			req.Header.Add(name, v)
		}
	}
	if span.IsRecording() {
		describe(span, req)
	}
	otel.GetTextMapPropagator().Inject(ctx, propagation.HeaderCarrier(req.Header))
	client := e.HTTP
	if client == nil {
		client = plainClient
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	span.SetAttributes(attribute.Int("http.response.status_code", res.StatusCode))
	answer, err = io.ReadAll(io.LimitReader(res.Body, e.MaxAnswer))
	if err != nil {
		return nil, fmt.Errorf("read answer: %w", err)
	}
	if res.StatusCode != http.StatusOK {
		return nil, &StatusError{Status: res.StatusCode, Body: answer}
	}
	return answer, nil
}

// tracerName is the instrumentation scope of outside-call spans. The tracer
// is asked of the provider on each call rather than kept: one taken before
// tracing starts would stay bound to the first provider ever installed.
const tracerName = "github.com/nestegg/nestegg/internal/external/httpcall"

// describe names the client span of an outside call after its method and
// host and gives it the method, host and address without the query, where
// some services take their key. With tracing off (package tracing) the
// provider is OpenTelemetry's no-op one, its spans record nothing, and this is
// not called.
func describe(span trace.Span, req *http.Request) {
	u := url.URL{Scheme: req.URL.Scheme, Host: req.URL.Host, Path: req.URL.Path}
	span.SetName(req.Method + " " + req.URL.Host)
	span.SetAttributes(
		attribute.String("http.request.method", req.Method),
		attribute.String("server.address", req.URL.Hostname()),
		attribute.String("url.full", u.String()),
	)
}
