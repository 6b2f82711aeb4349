package server_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"sort"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/server"
)

// pathParam matches a path template's parameter, such as {id}.
var pathParam = regexp.MustCompile(`\{[^}/]+\}`)

// TestAccessGateOfEveryOperation sends each operation of the contract as
// callers its x-access must turn away, and one it must let through.
func TestAccessGateOfEveryOperation(t *testing.T) {
	t.Parallel()
	doc, err := server.ParseContract()
	if err != nil {
		t.Fatal(err)
	}
	env := apitest.New(t)
	anonymous := env.Client().Raw()
	user := env.NewMember().Raw()
	admin := env.NewMember(apitest.AsAdmin()).Raw()

	type operation struct {
		*openapi3.Operation
		method, path, access string
	}
	var ops []operation
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			access, err := server.OperationAccess(op)
			if err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
			ops = append(ops, operation{op, method, path, access})
		}
	}
	sort.Slice(ops, func(i, j int) bool {
		return ops[i].path+" "+ops[i].method < ops[j].path+" "+ops[j].method
	})

	counts := map[string]int{}
	for _, op := range ops {
		counts[op.access]++
		path := pathParam.ReplaceAllString(op.path, "1")
		var body any
		if op.RequestBody != nil {
			body = "{}"
		}
		send := func(c *apitest.Client) *apitest.Response { return c.Do(op.method, path, body) }

		if op.access != server.AccessPublic {
			wantRefused(t, op.OperationID, "anonymous", send(anonymous), http.StatusUnauthorized, "UNAUTHENTICATED")
		}
		switch op.access {
		case server.AccessAdmin:
			wantRefused(t, op.OperationID, "a USER", send(user), http.StatusForbidden, "FORBIDDEN")
		case server.AccessPremium:
			wantRefused(t, op.OperationID, "a FREE member", send(user), http.StatusForbidden, "PREMIUM_REQUIRED")
			if res := send(admin); res.Status == http.StatusUnauthorized || res.Status == http.StatusForbidden {
				t.Errorf("%s: an administrator was refused (%d): %s", op.OperationID, res.Status, res.Body)
			}
		}
	}
	if counts[server.AccessAdmin] == 0 {
		t.Fatal("the contract has no admin operations: the gate was not tested")
	}
	t.Logf("operations by access: %v", counts)
}

// wantRefused checks the gate's answer without stopping the test, so every
// operation is reported.
func wantRefused(t *testing.T, op, who string, res *apitest.Response, status int, code string) {
	t.Helper()
	var p struct{ Code string }
	_ = json.Unmarshal(res.Body, &p)
	if res.Status != status || p.Code != code {
		t.Errorf("%s as %s: %d %q, want %d %s", op, who, res.Status, p.Code, status, code)
	}
}
