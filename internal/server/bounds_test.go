package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/problem"
)

// boundedProblem checks that res is a 400 VALIDATION_FAILED within the
// problem bounds and returns it decoded.
func boundedProblem(t *testing.T, res *apitest.Response) api.Problem {
	t.Helper()
	res.WantProblem(http.StatusBadRequest, problem.CodeValidationFailed)
	if len(res.Body) > problem.MaxBytes {
		t.Fatalf("the problem is %d bytes, over %d", len(res.Body), problem.MaxBytes)
	}
	var p api.Problem
	if err := json.Unmarshal(res.Body, &p); err != nil {
		t.Fatal(err)
	}
	if p.Errors == nil {
		t.Fatalf("the problem names no field: %s", res.Body)
	}
	return p
}

// Issue 18: a 1 MiB body of 170,000 bad ids was answered with 16 MB of
// errors after seconds. The answer names 20 and says it is cut.
func TestManyBadValuesAnswerTwentyErrors(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	var body bytes.Buffer
	body.WriteString(`{"ids": [`)
	for i := range 170000 {
		if i > 0 {
			body.WriteByte(',')
		}
		body.WriteString(`"a"`)
	}
	body.WriteString(`]}`)
	if body.Len() > 1<<20 {
		t.Fatalf("the body is %d bytes, over the 1 MiB limit", body.Len())
	}
	res := m.Raw().Send(http.MethodPut, "/api/account/wallets/reorder", "application/json", body.Bytes())
	p := boundedProblem(t, res)
	t.Logf("%d bytes of bad ids answered in %d bytes", body.Len(), len(res.Body))
	if len(*p.Errors) != problem.MaxFieldErrors || p.ErrorsTruncated == nil || !*p.ErrorsTruncated {
		t.Fatalf("%d errors, errorsTruncated %v; want %d and true", len(*p.Errors), p.ErrorsTruncated, problem.MaxFieldErrors)
	}
	// The first ones, in order (the array's own rule, uniqueItems, is
	// named where the first duplicate is found).
	want := []string{"/ids/0", "/ids/1", "/ids"}
	for i := 2; len(want) < problem.MaxFieldErrors; i++ {
		want = append(want, "/ids/"+strconv.Itoa(i))
	}
	for i, e := range *p.Errors {
		if apitest.FieldName(e) != want[i] {
			t.Fatalf("error %d names %s, want %s", i, apitest.FieldName(e), want[i])
		}
	}
	if p.Detail == nil || len(*p.Detail) > 2048 {
		t.Fatalf("detail %v: absent or over 2048 bytes", p.Detail != nil)
	}
}

// A body with exactly the cap of errors is not said to be cut: 19 items of
// the wrong type, and the duplicate among them.
func TestTwentyBadValuesAreNotCut(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	ids := `{"ids": ["a"` + strings.Repeat(`,"a"`, problem.MaxFieldErrors-2) + `]}`
	p := boundedProblem(t, m.Raw().Send(http.MethodPut, "/api/account/wallets/reorder", "application/json", []byte(ids)))
	if len(*p.Errors) != problem.MaxFieldErrors || p.ErrorsTruncated != nil {
		t.Fatalf("%d errors, errorsTruncated %v; want %d and absent", len(*p.Errors), p.ErrorsTruncated, problem.MaxFieldErrors)
	}
}

// A request with one value bad in several ways still names each: the
// array's own rule (uniqueItems, maxItems) as well as its items'.
func TestArrayRulesAreCheckedWhileStreaming(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	p := boundedProblem(t, m.Raw().Send(http.MethodPut, "/api/account/wallets/reorder", "application/json", []byte(`{"ids": [1, 2, 1]}`)))
	if len(*p.Errors) != 1 || apitest.FieldName((*p.Errors)[0]) != "/ids" || !strings.Contains((*p.Errors)[0].Message, "duplicate") {
		t.Fatalf("errors %+v, want one duplicate at /ids", *p.Errors)
	}
	ids := make([]int64, 1001)
	for i := range ids {
		ids[i] = int64(i + 1)
	}
	raw, _ := json.Marshal(api.ReorderWalletsJSONRequestBody{Ids: ids})
	p = boundedProblem(t, m.Raw().Send(http.MethodPut, "/api/account/wallets/reorder", "application/json", raw))
	if len(*p.Errors) != 1 || apitest.FieldName((*p.Errors)[0]) != "/ids" {
		t.Fatalf("errors %+v, want one at /ids (maxItems)", *p.Errors)
	}
	p = boundedProblem(t, m.Raw().Send(http.MethodPut, "/api/account/wallets/reorder", "application/json", []byte(`{}`)))
	if len(*p.Errors) != 1 || !strings.Contains((*p.Errors)[0].Message, "ids") {
		t.Fatalf("errors %+v, want ids missing", *p.Errors)
	}
	p = boundedProblem(t, m.Raw().Send(http.MethodPut, "/api/account/wallets/reorder", "application/json", []byte(`{"ids": [1, 2`)))
	if last := (*p.Errors)[len(*p.Errors)-1]; apitest.FieldName(last) != "body" || !strings.HasPrefix(last.Message, "malformed JSON") {
		t.Fatalf("errors %+v, want malformed JSON", *p.Errors)
	}
}

// Hostile strings are echoed back clipped: a 1 MiB field name (here holding
// a NUL, so that the answer names it) and a 1 MiB value.
func TestHostileStringsGetABoundedAnswer(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	huge := strings.Repeat("x", 1<<20-64)
	key, _ := json.Marshal(map[string]any{huge + "\x00": 1})
	p := boundedProblem(t, m.Raw().Send(http.MethodPost, "/api/account/wallets", "application/json", key))
	if len(apitest.FieldName((*p.Errors)[0])) > 256 || !strings.HasSuffix(apitest.FieldName((*p.Errors)[0]), "…") {
		t.Fatalf("the field is %d bytes: not clipped", len(apitest.FieldName((*p.Errors)[0])))
	}
	// A value the validator refuses: it is not quoted whole anywhere.
	value, _ := json.Marshal(api.CreateWalletJSONRequestBody{Name: huge, Type: api.WalletTypeCash})
	res := m.Raw().Send(http.MethodPost, "/api/account/wallets", "application/json", value)
	boundedProblem(t, res)
	if len(res.Body) > 4096 {
		t.Fatalf("%d bytes for one error", len(res.Body))
	}
}
