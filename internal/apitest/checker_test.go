package apitest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// The harness must catch a response the contract does not describe, or every
// API test's check would be worthless.
func TestCheckerCatchesResponsesOutsideTheContract(t *testing.T) {
	t.Parallel()
	c := NewChecker(t)
	jsonHeader := http.Header{"Content-Type": {"application/json"}}
	problemHeader := http.Header{"Content-Type": {"application/problem+json"}}
	cases := []struct {
		name   string
		method string
		path   string
		status int
		header http.Header
		body   string
		ok     bool
	}{
		{"described answer", "GET", "/healthz", 200, jsonHeader, `{"status":"ok"}`, true},
		{"field the contract does not describe", "GET", "/healthz", 200, jsonHeader, `{"status":"ok","uptime":3}`, false},
		{"required field missing", "GET", "/api/auth/signup-enabled", 200, jsonHeader, `{}`, false},
		{"field of the wrong type", "GET", "/api/auth/signup-enabled", 200, jsonHeader, `{"enabled":"yes"}`, false},
		{"status the operation does not declare", "GET", "/healthz", 418, problemHeader, `{"type":"about:blank","title":"x","status":418,"code":"INTERNAL"}`, false},
		{"media type the operation does not declare", "GET", "/healthz", 200, http.Header{"Content-Type": {"text/plain"}}, `ok`, false},
		{"declared problem", "GET", "/healthz", 500, problemHeader, `{"type":"about:blank","title":"x","status":500,"code":"INTERNAL"}`, true},
		{"problem with a code outside the list", "GET", "/healthz", 500, problemHeader, `{"type":"about:blank","title":"x","status":500,"code":"OOPS"}`, false},
		{"unknown path answered 404 problem", "GET", "/nope", 404, problemHeader, `{"type":"about:blank","title":"x","status":404,"code":"NOT_FOUND"}`, true},
		{"unknown path answered 200", "GET", "/nope", 200, jsonHeader, `{}`, false},
		{"unknown path answered in plain text", "GET", "/nope", 404, http.Header{"Content-Type": {"text/plain"}}, `404 page not found`, false},
		{"unknown path answered with another code", "GET", "/nope", 404, problemHeader, problemBody(404, "CONFLICT"), false},
		{"HEAD answered like GET without a body", "HEAD", "/healthz", 200, jsonHeader, ``, true},
		{"HEAD answered with a body", "HEAD", "/healthz", 200, jsonHeader, `{"status":"ok"}`, false},
		{"problem whose status differs from the answer's", "GET", "/api/users/7", 404, problemHeader, problemBody(400, "NOT_FOUND"), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, "http://example.test"+tc.path, nil)
			err := c.CheckResponse(req, tc.status, tc.header, []byte(tc.body))
			if tc.ok && err != nil {
				t.Fatalf("rejected a described response: %v", err)
			}
			if !tc.ok && err == nil {
				t.Fatal("accepted a response the contract does not describe")
			}
		})
	}
}

func problemBody(status int, code string) string {
	return fmt.Sprintf(`{"type":"about:blank","title":"x","status":%d,"code":%q}`, status, code)
}

// A problem code the operation neither lists in x-problem-codes for that
// status nor may answer anyway (server.ImpliedProblemCodes) fails the test:
// SDK users rely on the lists.
func TestCheckerCatchesProblemCodesTheOperationDoesNotList(t *testing.T) {
	t.Parallel()
	c := NewChecker(t)
	header := http.Header{"Content-Type": {"application/problem+json"}}
	cases := []struct {
		name   string
		method string
		path   string
		status int
		code   string
		ok     bool
	}{
		{"listed code", "PUT", "/api/auth/password", 400, "WRONG_PASSWORD", true},
		{"implied validation code", "PUT", "/api/auth/password", 400, "VALIDATION_FAILED", true},
		{"code the operation does not list", "PUT", "/api/auth/password", 400, "SELF_ADMIN_CHANGE", false},
		{"code listed for another status", "PUT", "/api/auth/password", 429, "WRONG_PASSWORD", false},
		{"listed 429", "POST", "/api/auth/login", 429, "RATE_LIMITED", true},
		{"implied 401", "POST", "/api/auth/login", 401, "UNAUTHENTICATED", true},
		{"listed 403 of a public operation", "POST", "/api/auth/signup", 403, "SIGNUP_DISABLED", true},
		{"FORBIDDEN on a public operation", "POST", "/api/auth/signup", 403, "FORBIDDEN", false},
		{"FORBIDDEN on an administrator operation", "GET", "/api/users", 403, "FORBIDDEN", true},
		{"PREMIUM_REQUIRED on an administrator operation", "GET", "/api/users", 403, "PREMIUM_REQUIRED", false},
		{"listed 404", "GET", "/api/users/7", 404, "NOT_FOUND", true},
		{"unlisted 404 code", "GET", "/api/users/7", 404, "CONFLICT", false},
		{"implied 413 on an operation without a body", "GET", "/api/users/7", 413, "PAYLOAD_TOO_LARGE", true},
		{"implied 503", "GET", "/api/auth/session", 503, "SERVICE_UNAVAILABLE", true},
		{"implied 500", "GET", "/api/auth/session", 500, "INTERNAL", true},
		{"a code nobody defined", "GET", "/api/auth/session", 500, "OOPS", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, "http://example.test"+tc.path, nil)
			err := c.CheckResponse(req, tc.status, header, []byte(problemBody(tc.status, tc.code)))
			if tc.ok && err != nil {
				t.Fatalf("rejected an allowed code: %v", err)
			}
			if !tc.ok && err == nil {
				t.Fatalf("accepted %d %s", tc.status, tc.code)
			}
		})
	}
}

func TestCheckerAllowsUnknownRequestFieldsButNotBadOnes(t *testing.T) {
	t.Parallel()
	c := NewChecker(t)
	req, _ := http.NewRequest("GET", "http://example.test/api/auth/signup-enabled", nil)
	if err := c.CheckRequest(req, nil); err != nil {
		t.Fatalf("valid request rejected: %v", err)
	}
	req, _ = http.NewRequest("GET", "http://example.test/api/nothing-here", nil)
	if err := c.CheckRequest(req, nil); err == nil || !strings.Contains(err.Error(), "not in the contract") {
		t.Fatalf("request outside the contract accepted: %v", err)
	}
}

// recordingTB records what a test would report, and stops the goroutine on
// Fatal as testing does.
type recordingTB struct {
	testing.TB
	mu     sync.Mutex
	errors []string
	fatal  bool
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recordingTB) Fatalf(format string, args ...any) {
	r.mu.Lock()
	r.fatal = true
	r.mu.Unlock()
	runtime.Goexit()
}

// Parallel-request tests call Send from their own goroutines, where
// t.Fatalf must not be called: a failed exchange is an error and Status 0.
func TestSendFromAGoroutineRecordsFailuresWithoutFatal(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close() // every request now fails to connect
	rec := &recordingTB{TB: t}
	env := &Env{T: rec, Server: srv, checker: NewChecker(t)}
	done := make(chan *Response)
	go func() { done <- env.Client().Do(http.MethodGet, "/healthz", nil) }()
	res := <-done
	if rec.fatal {
		t.Fatal("Send called Fatalf")
	}
	if !res.Failed() || len(rec.errors) != 1 {
		t.Fatalf("status %d, errors %q: want Status 0 and one recorded error", res.Status, rec.errors)
	}
}
