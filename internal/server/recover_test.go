package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	apigen "github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/problem"
)

func TestPanicAnswersProblemWithoutTheCause(t *testing.T) {
	t.Parallel()
	h := withRequestInfo(testContract(t), nil, withRecover(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("secret detail of the failure")
	})))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/x", nil))
	assertInternal(t, rec, "secret detail")
}

func TestHandlerErrorAnswersProblemWithoutTheCause(t *testing.T) {
	t.Parallel()
	h := withRequestInfo(testContract(t), nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		problem.Write(w, r, errors.New("pq: password=hunter2 connection refused"))
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/x", nil))
	assertInternal(t, rec, "hunter2")
}

func testContract(t *testing.T) *Contract {
	t.Helper()
	c, err := LoadContract()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func assertInternal(t *testing.T, rec *httptest.ResponseRecorder, secret string) {
	t.Helper()
	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("status %d, want 500", rec.Code)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("content type %q", ct)
	}
	if strings.Contains(rec.Body.String(), secret) {
		t.Fatalf("500 body shows the cause: %s", rec.Body)
	}
	var p struct {
		Code      string `json:"code"`
		RequestID string `json:"requestId"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	if p.Code != "INTERNAL" || p.RequestID == "" || p.RequestID != rec.Header().Get("X-Request-ID") {
		t.Fatalf("problem %+v, want INTERNAL with the request id %q", p, rec.Header().Get("X-Request-ID"))
	}
}

func TestDecodeErrorsNameTheFieldWithoutGoTypes(t *testing.T) {
	t.Parallel()
	var target struct {
		Amount int64 `json:"amount"`
	}
	err := json.Unmarshal([]byte(`{"amount": "x"}`), &target)
	field, msg := describeDecodeError(err)
	if field != "/amount" || strings.Contains(msg, "int64") || strings.Contains(msg, "struct") {
		t.Fatalf("described %v as %q %q", err, field, msg)
	}
	field, msg = describeDecodeError(&apigen.InvalidParamFormatError{ParamName: "id", Err: errors.New("strconv.ParseInt: parsing \"x\"")})
	if field != "id" || strings.Contains(msg, "strconv") {
		t.Fatalf("described a parameter error as %q %q", field, msg)
	}
}
