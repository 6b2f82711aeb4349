// Package apitest runs the real service on an httptest.Server against a
// database and Redis key space of the test's own, and checks every request and
// response it exchanges against api/openapi.yaml: an exchange the contract
// does not describe fails the test.
package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/app"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/dbtest"
	"github.com/nestegg/nestegg/internal/password"
	"github.com/nestegg/nestegg/internal/server"
	"github.com/nestegg/nestegg/internal/session"
)

func init() {
	// Keep test output to warnings and errors; NESTEGG_TEST_LOG=1 shows all.
	if os.Getenv("NESTEGG_TEST_LOG") == "" {
		slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	}
	// Every core hashes and nothing is shed: tests sign in hundreds of members
	// in parallel on a loaded machine. The bound itself is tested in
	// internal/password and by the load run.
	password.SetBounds(runtime.GOMAXPROCS(0), 5*time.Minute)
	// Non-JSON bodies the contract declares are checked as plain strings.
	openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.FileBodyDecoder)
	openapi3filter.RegisterBodyDecoder("application/yaml", openapi3filter.FileBodyDecoder)
}

// Start is the fake clock's starting time in every test: a Monday in the
// middle of a month, in the service time zone.
var Start = time.Date(2026, 11, 16, 10, 0, 0, 0, mustLoad("Asia/Seoul"))

func mustLoad(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

// Env is one running service with its own database and Redis key space.
type Env struct {
	T      testing.TB
	Server *httptest.Server
	App    *app.App
	Pool   *pgxpool.Pool
	Redis  *redis.Client
	Clock  *clock.Fake
	Config config.Config

	checker *Checker
	options app.Options
}

// RedisKey is the Redis key of a session token in this test's key space.
func (e *Env) RedisKey(token string) string {
	return session.KeyPrefix(e.options.RedisPrefix) + session.HashToken(token)
}

// RestartApp builds the service again on the same database and Redis, as a
// restart or a second replica would (start-up work runs again).
func (e *Env) RestartApp() error {
	a, err := app.New(context.Background(), e.Config, func(ao *app.Options) { *ao = e.options })
	if err != nil {
		return err
	}
	a.Close()
	return nil
}

// NewReplica starts a second instance of the service on the same database,
// Redis and clock, as a second replica behind a load balancer would run;
// opts change its wiring (a pool that cannot reach PostgreSQL, say).
func (e *Env) NewReplica(opts ...func(o *app.Options)) *Env {
	e.T.Helper()
	o := e.options
	for _, f := range opts {
		f(&o)
	}
	a, err := app.New(context.Background(), e.Config, func(ao *app.Options) { *ao = o })
	if err != nil {
		e.T.Fatalf("apitest: build replica: %v", err)
	}
	e.T.Cleanup(a.Close)
	srv := httptest.NewServer(a.Handler)
	e.T.Cleanup(srv.Close)
	r := *e
	r.Server, r.App = srv, a
	return &r
}

// Option changes the configuration or wiring of an Env before it starts.
type Option func(cfg *config.Config, o *app.Options)

// WithConfig changes the configuration.
func WithConfig(f func(cfg *config.Config)) Option {
	return func(cfg *config.Config, _ *app.Options) { f(cfg) }
}

// BehindLoopbackProxy makes the service trust X-Forwarded-For from the test
// client (TRUSTED_PROXIES=127.0.0.1, ::1), so tests can act as many client
// addresses.
func BehindLoopbackProxy() Option {
	return func(cfg *config.Config, _ *app.Options) {
		cfg.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128")}
	}
}

// WithAppOptions changes the wiring.
func WithAppOptions(f func(o *app.Options)) Option {
	return func(_ *config.Config, o *app.Options) { f(o) }
}

// New starts the service for t.
func New(t testing.TB, opts ...Option) *Env {
	t.Helper()
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		t.Fatalf("apitest: default config: %v", err)
	}
	cfg.RedisURL = dbtest.RedisURL()
	pool := dbtest.NewPool(t)
	rdb, prefix := dbtest.NewRedis(t)
	fake := clock.NewFake(Start)
	o := app.Options{Clock: fake, Pool: pool, RedisPrefix: prefix, HTTPClient: &http.Client{Timeout: 5 * time.Second}}
	for _, opt := range opts {
		opt(&cfg, &o)
	}
	a, err := app.New(context.Background(), cfg, func(ao *app.Options) { *ao = o })
	if err != nil {
		t.Fatalf("apitest: build service: %v", err)
	}
	t.Cleanup(a.Close)
	srv := httptest.NewServer(a.Handler)
	t.Cleanup(srv.Close)
	return &Env{T: t, Server: srv, App: a, Pool: pool, Redis: rdb, Clock: fake, Config: cfg, checker: NewChecker(t), options: o}
}

// Checker validates exchanges against the contract.
type Checker struct {
	router routers.Router
	// strictRouter routes over a copy of the contract in which every object
	// schema forbids properties it does not list and every open enum is
	// closed to its listed values: a response field or value the contract
	// does not describe is a failure, while requests may still carry unknown
	// fields (they are ignored, as the contract says).
	strictRouter routers.Router
	problem      *openapi3.Schema
}

// NewChecker loads the contract for checking.
func NewChecker(t testing.TB) *Checker {
	t.Helper()
	c, err := loadChecker()
	if err != nil {
		t.Fatalf("apitest: %v", err)
	}
	return c
}

// loadChecker builds the one Checker of the test process, shared by every
// test: its two copies of the contract are only read once built. Built for
// each test, they cost an API package a fifth of its CPU under the race
// detector (two of the three parses a test made).
var loadChecker = sync.OnceValues(func() (*Checker, error) {
	load := func(strict bool) (routers.Router, *openapi3.T, error) {
		doc, err := server.ParseContract()
		if err != nil {
			return nil, nil, fmt.Errorf("contract: %w", err)
		}
		doc.Servers = nil
		if strict {
			forbidExtraProperties(doc)
		}
		r, err := gorillamux.NewRouter(doc)
		if err != nil {
			return nil, nil, fmt.Errorf("router: %w", err)
		}
		return r, doc, nil
	}
	c := &Checker{}
	var err error
	if c.router, _, err = load(false); err != nil {
		return nil, err
	}
	var doc *openapi3.T
	if c.strictRouter, doc, err = load(true); err != nil {
		return nil, err
	}
	c.problem = doc.Components.Schemas["Problem"].Value
	return c, nil
})

func forbidExtraProperties(doc *openapi3.T) {
	seen := map[*openapi3.Schema]bool{}
	var walk func(s *openapi3.Schema)
	walk = func(s *openapi3.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		// A nullable wrapper of references (type: object, allOf, anyOf or
		// oneOf of $refs) has no properties of its own: the referenced
		// schemas are closed.
		if s.Type.Is("object") && len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) == 0 &&
			s.AdditionalProperties.Has == nil && s.AdditionalProperties.Schema == nil {
			no := false
			s.AdditionalProperties.Has = &no
		}
		for _, p := range s.Properties {
			walk(p.Value)
		}
		if s.Items != nil {
			walk(s.Items.Value)
		}
		if s.AdditionalProperties.Schema != nil {
			walk(s.AdditionalProperties.Schema.Value)
		}
		for _, list := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
			for _, r := range list {
				walk(r.Value)
			}
		}
	}
	for _, s := range doc.Components.Schemas {
		walk(s.Value)
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, resp := range op.Responses.Map() {
				for _, mt := range resp.Value.Content {
					walk(mt.Schema.Value)
				}
			}
		}
	}
}

// CheckRequest validates a request (its body given separately) against the
// contract.
func (c *Checker) CheckRequest(req *http.Request, body []byte) error {
	if isPreflight(req) {
		return nil // browser plumbing, answered before any operation
	}
	find := req
	if req.Method == http.MethodHead {
		// HEAD is answered on every GET operation (the contract says so).
		find = req.Clone(req.Context())
		find.Method = http.MethodGet
	}
	route, params, err := c.router.FindRoute(find)
	if err != nil {
		return fmt.Errorf("%s %s is not in the contract: %w", req.Method, req.URL.Path, err)
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	in := &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	}
	err = openapi3filter.ValidateRequest(context.Background(), in)
	req.Body = io.NopCloser(bytes.NewReader(body))
	return err
}

// CheckResponse validates a response to req against the contract. A path the
// contract does not have must be answered 404 or 405 with a problem body. A
// problem's code must be one the operation may answer with that status: one
// every operation may answer (server.ImpliedProblemCodes) or one its
// x-problem-codes lists. HEAD is checked as the GET it stands for, with no
// body; a CORS preflight the server answered itself (204) is outside the
// contract by design.
func (c *Checker) CheckResponse(req *http.Request, status int, header http.Header, body []byte) error {
	if isPreflight(req) && status == http.StatusNoContent {
		return nil
	}
	head := req.Method == http.MethodHead
	find := req
	if head {
		if len(body) > 0 {
			return fmt.Errorf("HEAD %s answered a body (%d bytes)", req.URL.Path, len(body))
		}
		find = req.Clone(req.Context())
		find.Method = http.MethodGet
	}
	route, params, err := c.strictRouter.FindRoute(find)
	if err != nil {
		var code string
		switch status {
		case http.StatusNotFound:
			code = "NOT_FOUND"
		case http.StatusMethodNotAllowed:
			code = "METHOD_NOT_ALLOWED"
		default:
			return fmt.Errorf("%s %s is not in the contract yet answered %d", req.Method, req.URL.Path, status)
		}
		if head {
			return checkProblemType(header)
		}
		return c.checkProblem(status, header, body, []string{code})
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: find, PathParams: params, Route: route},
		Status:                 status,
		Header:                 header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, ExcludeResponseBody: head},
	}
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return fmt.Errorf("%s %s answered %d outside the contract: %w\nbody: %s", req.Method, req.URL.Path, status, err, clip(body))
	}
	if head || status < 400 || !strings.HasPrefix(header.Get("Content-Type"), "application/problem+json") {
		return nil
	}
	allowed, err := server.AllowedProblemCodes(route.Operation, status)
	if err != nil {
		return fmt.Errorf("%s %s: %w", req.Method, req.URL.Path, err)
	}
	if err := c.checkProblem(status, header, body, allowed); err != nil {
		return fmt.Errorf("%s %s (%s): %w", req.Method, req.URL.Path, route.Operation.OperationID, err)
	}
	return nil
}

// isPreflight reports whether req is a CORS preflight request.
func isPreflight(req *http.Request) bool {
	return req.Method == http.MethodOptions && req.Header.Get("Origin") != "" &&
		req.Header.Get("Access-Control-Request-Method") != ""
}

func checkProblemType(header http.Header) error {
	if ct := header.Get("Content-Type"); ct != "application/problem+json" {
		return fmt.Errorf("error answered as %q, not application/problem+json", ct)
	}
	return nil
}

// checkProblem checks a problem body against the Problem schema, its status
// against the answer's and its code against the allowed ones.
func (c *Checker) checkProblem(status int, header http.Header, body []byte, allowed []string) error {
	if err := checkProblemType(header); err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("problem body: %w", err)
	}
	if err := c.problem.VisitJSON(v); err != nil {
		return fmt.Errorf("problem body does not match the Problem schema: %w", err)
	}
	var p struct {
		Status int    `json:"status"`
		Code   string `json:"code"`
	}
	_ = json.Unmarshal(body, &p)
	if p.Status != status {
		return fmt.Errorf("problem says status %d, answered %d", p.Status, status)
	}
	if !slices.Contains(allowed, p.Code) {
		return fmt.Errorf("problem code %s is not one the operation may answer with %d (%s): list it in the operation's x-problem-codes",
			p.Code, status, strings.Join(allowed, ", "))
	}
	return nil
}

func clip(b []byte) string {
	if len(b) > 2000 {
		return string(b[:2000]) + "…"
	}
	return string(b)
}

// Response is an answered request; Status 0 when it could not be sent or
// read.
type Response struct {
	t      testing.TB
	Status int
	Header http.Header
	Body   []byte
}

// Problem is the decoded body of an error answer.
type Problem struct {
	Type      string `json:"type"`
	Title     string `json:"title"`
	Status    int    `json:"status"`
	Detail    string `json:"detail"`
	Code      string `json:"code"`
	RequestID string `json:"requestId"`
	// ExistingID names the record a create collided with (409 CONFLICT).
	ExistingID int64        `json:"existingId"`
	Errors     []FieldError `json:"errors"`
}

// FieldError is one entry of a problem's errors. Field is what a test
// compares: the pointer when the answer has one ("body" for the pointer "",
// the body as a whole), else the parameter's name; Pointer and Parameter say
// which property the answer used.
type FieldError struct {
	Field              string
	Pointer, Parameter *string
	Message            string
}

// UnmarshalJSON reads the contract's FieldError.
func (f *FieldError) UnmarshalJSON(b []byte) error {
	var raw struct {
		Pointer   *string `json:"pointer"`
		Parameter *string `json:"parameter"`
		Message   string  `json:"message"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*f = FieldError{Pointer: raw.Pointer, Parameter: raw.Parameter, Message: raw.Message}
	switch {
	case raw.Pointer != nil && *raw.Pointer == "":
		f.Field = "body"
	case raw.Pointer != nil:
		f.Field = *raw.Pointer
	case raw.Parameter != nil:
		f.Field = *raw.Parameter
	}
	return nil
}

// Client sends requests to an Env as one caller.
type Client struct {
	env   *Env
	Token string
	// skipRequestCheck lets a test send a request the contract forbids, to
	// see it refused.
	skipRequestCheck bool
	header           http.Header
}

// Client returns an anonymous client.
func (e *Env) Client() *Client { return &Client{env: e, header: http.Header{}} }

// WithToken returns a copy of c that sends token as a bearer token.
func (c *Client) WithToken(token string) *Client {
	cp := *c
	cp.Token = token
	return &cp
}

// Raw returns a copy of c whose requests are not checked against the
// contract (the responses still are).
func (c *Client) Raw() *Client {
	cp := *c
	cp.skipRequestCheck = true
	return &cp
}

// WithHeader returns a copy of c that sends the header on every request.
func (c *Client) WithHeader(key, value string) *Client {
	cp := *c
	cp.header = c.header.Clone()
	cp.header.Set(key, value)
	return &cp
}

// Do sends a request with a JSON body: a generated request type (api.<Op>JSONRequestBody
// or api.<Schema>), nil for none, or a []byte or string sent as it is (for
// bodies the contract forbids, with Raw). Like Send, it may be called from
// any goroutine.
func (c *Client) Do(method, path string, body any) *Response {
	c.env.T.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case []byte:
		raw = b
	case string:
		raw = []byte(b)
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			c.env.T.Errorf("apitest: encode body of %s %s: %v", method, path, err)
			return &Response{t: c.env.T}
		}
	}
	contentType := ""
	if body != nil {
		contentType = "application/json"
	}
	return c.Send(method, path, contentType, raw)
}

// Send sends a request with a body of the given media type.
//
// Parallel tests call Send from goroutines of their own, where t.Fatalf must
// not be called: a request that cannot be sent or read is recorded with
// t.Errorf, and the Response has Status 0 (Failed reports it). Want and the
// other checks of Response do stop the test, so call them on the test's
// goroutine.
func (c *Client) Send(method, path, contentType string, raw []byte) *Response {
	t := c.env.T
	t.Helper()
	req, err := http.NewRequest(method, c.env.Server.URL+path, bytes.NewReader(raw))
	if err != nil {
		t.Errorf("apitest: request %s %s: %v", method, path, err)
		return &Response{t: t}
	}
	for k, v := range c.header {
		req.Header[k] = v
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	client := c.env.HTTPClient()
	if c.skipRequestCheck {
		client = c.env.httpClient(false)
	}
	res, err := client.Do(req)
	if err != nil {
		t.Errorf("apitest: %s %s: %v", method, path, err)
		return &Response{t: t}
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Errorf("apitest: read %s %s: %v", method, path, err)
		return &Response{t: t}
	}
	return &Response{t: t, Status: res.StatusCode, Header: res.Header, Body: data}
}

// Failed reports whether the request could not be sent or its answer read
// (the test has already been marked failed).
func (r *Response) Failed() bool { return r.Status == 0 }

// HTTPClient returns an HTTP client of the service that checks every request
// and response against the contract, failing the test on a mismatch. Give it
// to a generated SDK client to drive the service as a client team would.
func (e *Env) HTTPClient() *http.Client { return e.httpClient(true) }

func (e *Env) httpClient(checkRequests bool) *http.Client {
	return &http.Client{
		Transport: &checkingTransport{base: e.Server.Client().Transport, checker: e.checker, t: e.T, checkRequests: checkRequests},
		// A redirect is an answer to check, not to follow: following it
		// would check the next answer against the wrong operation.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// checkingTransport checks each exchange against the contract.
type checkingTransport struct {
	base          http.RoundTripper
	checker       *Checker
	t             testing.TB
	checkRequests bool
}

func (ct *checkingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	if ct.checkRequests {
		if err := ct.checker.CheckRequest(req.Clone(context.Background()), body); err != nil {
			ct.t.Errorf("apitest: request outside the contract: %v", err)
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	res, err := ct.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(data))
	checkReq, _ := http.NewRequest(req.Method, req.URL.String(), nil)
	checkReq.Header = req.Header.Clone()
	if err := ct.checker.CheckResponse(checkReq, res.StatusCode, res.Header, data); err != nil {
		ct.t.Errorf("apitest: %v", err)
	}
	return res, nil
}

// Want fails the test unless the status is want.
func (r *Response) Want(want int) *Response {
	r.t.Helper()
	if r.Status != want {
		r.t.Fatalf("status %d, want %d; body: %s", r.Status, want, clip(r.Body))
	}
	return r
}

// JSON decodes the body into v.
func (r *Response) JSON(v any) {
	r.t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		r.t.Fatalf("decode %s: %v", clip(r.Body), err)
	}
}

// WantProblem fails the test unless the answer is a problem with the status
// and code, and returns it.
func (r *Response) WantProblem(status int, code string) Problem {
	r.t.Helper()
	r.Want(status)
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") {
		r.t.Fatalf("content type %q, want application/problem+json", ct)
	}
	var p Problem
	r.JSON(&p)
	if p.Code != code {
		r.t.Fatalf("problem code %q, want %q (detail %q)", p.Code, code, p.Detail)
	}
	return p
}

// Exec runs SQL on the test's database, failing the test on error. Tests use
// it to arrange state no operation creates (a past timestamp, a point balance).
func (e *Env) Exec(sql string, args ...any) {
	e.T.Helper()
	if _, err := e.Pool.Exec(context.Background(), sql, args...); err != nil {
		e.T.Fatalf("apitest: %s: %v", sql, err)
	}
}

// FieldName is what a test compares of a generated api.FieldError, as
// FieldError.Field: the pointer ("body" for "", the body as a whole), else
// the parameter's name.
func FieldName(e api.FieldError) string {
	switch {
	case e.Pointer != nil && *e.Pointer == "":
		return "body"
	case e.Pointer != nil:
		return *e.Pointer
	case e.Parameter != nil:
		return *e.Parameter
	}
	return ""
}
