package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/nestegg/nestegg/internal/server"
)

// Rules of the contract that Redocly cannot express (they relate one part of
// the document to another), checked on every operation, the areas' included.

type contractOp struct {
	*openapi3.Operation
	method, path, access string
}

func (o contractOp) String() string { return o.method + " " + o.path + " (" + o.OperationID + ")" }

func contractOps(t *testing.T) (*openapi3.T, []contractOp) {
	t.Helper()
	doc, err := server.ParseContract()
	if err != nil {
		t.Fatal(err)
	}
	var ops []contractOp
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			access, err := server.OperationAccess(op)
			if err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
			ops = append(ops, contractOp{op, method, path, access})
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].path+ops[i].method < ops[j].path+ops[j].method })
	return doc, ops
}

// The rule: `security: []` (no credentials) is declared exactly on the
// public operations; every other operation inherits the global requirement
// (the session cookie or the bearer token). A public operation that acts on
// the session when there is one (logOut) may instead declare OPTIONAL
// security: each global scheme plus `{}`, so generated clients still attach
// the token.
func TestSecurityIsEmptyExactlyOnPublicOperations(t *testing.T) {
	t.Parallel()
	doc, ops := contractOps(t)
	var global []string
	for _, req := range doc.Security {
		for scheme := range req {
			global = append(global, scheme)
		}
	}
	sort.Strings(global)
	for _, op := range ops {
		switch {
		case op.access != server.AccessPublic && op.Security != nil:
			t.Errorf("%s is %s but declares its own security; leave it to the global default", op, op.access)
		case op.access == server.AccessPublic && op.Security == nil:
			t.Errorf("%s is public but inherits the session requirement; declare `security: []`", op)
		case op.access == server.AccessPublic && len(*op.Security) > 0:
			var schemes []string
			optional := false
			for _, req := range *op.Security {
				if len(req) == 0 {
					optional = true
				}
				for scheme := range req {
					schemes = append(schemes, scheme)
				}
			}
			sort.Strings(schemes)
			if !optional || !slices.Equal(schemes, global) {
				t.Errorf("%s is public: its security is `[]` or optional (%v plus `{}`), not %v", op, global, schemes)
			}
		}
	}
}

// Every code an operation lists is a ProblemCode the contract defines, under
// a status the operation declares.
func TestListedProblemCodesAreDefinedAndDeclared(t *testing.T) {
	t.Parallel()
	doc, ops := contractOps(t)
	known := map[string]bool{}
	for _, c := range doc.Components.Schemas["ProblemCode"].Value.Enum {
		known[c.(string)] = true
	}
	listed := 0
	for _, op := range ops {
		codes, err := server.ProblemCodes(op.Operation)
		if err != nil {
			t.Errorf("%s: %v", op, err)
			continue
		}
		for status, list := range codes {
			if op.Responses.Status(status) == nil {
				t.Errorf("%s lists codes for %d but does not declare that status", op, status)
			}
			for _, code := range list {
				listed++
				if !known[code] {
					t.Errorf("%s lists %s for %d, which is not in the ProblemCode list", op, code, status)
				}
			}
		}
	}
	if listed == 0 {
		t.Fatal("no operation lists a problem code")
	}
}

// Every problem code has its row (status, retry) in ProblemCode's table.
func TestEveryProblemCodeSaysWhetherToRetry(t *testing.T) {
	t.Parallel()
	doc, _ := contractOps(t)
	s := doc.Components.Schemas["ProblemCode"].Value
	for _, c := range s.Enum {
		if !strings.Contains(s.Description, fmt.Sprintf("| `%s` |", c)) {
			t.Errorf("ProblemCode %s has no row in the description's table", c)
		}
	}
}

// Every status the contract layer or the service can answer is declared:
// 413, 500 and 503 everywhere (a body over the limit is refused on any
// operation, and a database outage reaches any of them), 401 on non-public
// operations, 403 on PREMIUM and administrator ones, 415 where there is a
// body, 400 where there is a body or a parameter.
func TestEveryOperationDeclaresTheStatusesItCanAnswer(t *testing.T) {
	t.Parallel()
	_, ops := contractOps(t)
	for _, op := range ops {
		want := []int{http.StatusRequestEntityTooLarge, http.StatusInternalServerError, http.StatusServiceUnavailable}
		if op.access != server.AccessPublic {
			want = append(want, http.StatusUnauthorized)
		}
		if op.access == server.AccessPremium || op.access == server.AccessAdmin {
			want = append(want, http.StatusForbidden)
		}
		if op.RequestBody != nil {
			want = append(want, http.StatusBadRequest, http.StatusUnsupportedMediaType)
		}
		if len(op.Parameters) > 0 {
			want = append(want, http.StatusBadRequest)
		}
		for _, status := range want {
			if op.Responses.Status(status) == nil {
				t.Errorf("%s does not declare %d", op, status)
			}
		}
	}
}

// Each shared error response has an example whose status is the status it
// is declared under everywhere, and whose code it may carry there.
func TestSharedErrorResponsesHaveMatchingExamples(t *testing.T) {
	t.Parallel()
	doc, ops := contractOps(t)
	const prefix = "#/components/responses/"
	examples := map[string]map[string]any{}
	for name, ref := range doc.Components.Responses {
		mt := ref.Value.Content.Get("application/problem+json")
		if mt == nil {
			continue
		}
		ex, ok := mt.Example.(map[string]any)
		if !ok {
			t.Errorf("response %s has no problem example", name)
			continue
		}
		if err := mt.Schema.Value.VisitJSON(ex); err != nil {
			t.Errorf("response %s: example is not a Problem: %v", name, err)
		}
		examples[name] = ex
	}
	for _, op := range ops {
		for key, ref := range op.Responses.Map() {
			name, ok := strings.CutPrefix(ref.Ref, prefix)
			if !ok || examples[name] == nil {
				continue
			}
			status, _ := strconv.Atoi(key)
			ex := examples[name]
			if got := fmt.Sprint(ex["status"]); got != key {
				t.Errorf("%s declares %s as %s, whose example says status %s", op, name, key, got)
			}
			allowed, err := server.AllowedProblemCodes(op.Operation, status)
			if err != nil {
				t.Fatal(err)
			}
			codes, _ := server.ProblemCodes(op.Operation)
			if code := ex["code"].(string); !slices.Contains(allowed, code) && len(codes[status]) == 0 {
				t.Errorf("%s declares %s as %s, whose example code %s it never answers", op, name, key, code)
			}
		}
	}
}

// Every request body has an example that its schema accepts.
func TestRequestBodiesHaveValidExamples(t *testing.T) {
	t.Parallel()
	_, ops := contractOps(t)
	for _, op := range ops {
		if op.RequestBody == nil {
			continue
		}
		for mediaType, mt := range op.RequestBody.Value.Content {
			ex := mt.Example
			if ex == nil && mt.Schema != nil {
				ex = mt.Schema.Value.Example
			}
			if ex == nil {
				for _, e := range mt.Examples {
					ex = e.Value.Value
					break
				}
			}
			if ex == nil {
				t.Errorf("%s: the %s request body has no example", op, mediaType)
				continue
			}
			if err := mt.Schema.Value.VisitJSON(ex); err != nil {
				t.Errorf("%s: the request example does not match its schema: %v", op, err)
			}
		}
	}
}

// Backup and restore (and CSV export and import) move a decade of a ledger
// and have their own deadline;
// every other operation keeps the deadline of every request.
func TestOperationDeadlines(t *testing.T) {
	t.Parallel()
	_, ops := contractOps(t)
	long := map[string]bool{"getBackup": true, "restoreBackup": true, "exportEntries": true, "importEntries": true}
	for _, op := range ops {
		d, err := server.OperationDeadline(op.Operation)
		if err != nil {
			t.Errorf("%s: %v", op, err)
			continue
		}
		want := 8 * time.Second
		if long[op.OperationID] {
			want = time.Minute
		}
		if d != want {
			t.Errorf("%s: deadline %s, want %s", op, d, want)
		}
	}
}
