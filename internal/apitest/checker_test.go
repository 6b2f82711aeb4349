package apitest

import (
	"net/http"
	"strings"
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
