package server_test

import (
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/server"
)

// Bad input gets a clear problem, never a 500: every operation of the
// contract, called by an administrator (so the gate lets it through) with
// malformed path parameters and bodies, answers something the contract
// describes below 500. (503 is allowed for operations whose external service
// is not configured in tests, as the contract says.)
func TestMalformedRequestsNeverAnswer500(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	doc, err := server.ParseContract()
	if err != nil {
		t.Fatal(err)
	}
	paths := doc.Paths.InMatchingOrder()
	sort.Strings(paths)
	ids := []string{"abc", "0", "-1", "99999999999999999999", "1.5", "4242"}
	bodies := []string{`{`, `[]`, `null`, `""`, `{"unknown": true}`, `{"email": 5, "name": [], "password": {}}`, "\x00\xff"}
	calls := 0
	for _, path := range paths {
		item := doc.Paths.Find(path)
		for method, op := range item.Operations() {
			if op.OperationID == "deleteMe" || op.OperationID == "logOut" {
				continue // they end the caller's own session; covered in their own tests
			}
			admin := env.NewMember(apitest.AsAdmin())
			targets := []string{path}
			if pathParam.MatchString(path) {
				targets = targets[:0]
				for _, id := range ids {
					targets = append(targets, pathParam.ReplaceAllString(path, id))
				}
			}
			for _, target := range targets {
				if op.RequestBody == nil {
					check(t, admin.Raw().Do(method, target, nil), op.OperationID, method, target)
					calls++
					continue
				}
				for _, body := range bodies {
					check(t, admin.Raw().Send(method, target, "application/json", []byte(body)), op.OperationID, method, target)
					calls++
				}
			}
		}
	}
	if calls < 100 {
		t.Fatalf("only %d malformed calls made; the contract seems empty", calls)
	}
}

func check(t *testing.T, res *apitest.Response, op, method, target string) {
	t.Helper()
	if res.Status >= 500 && !(res.Status == http.StatusServiceUnavailable && strings.HasPrefix(op, "logInWithIdp")) {
		t.Errorf("%s %s (%s) answered %d: %s", method, target, op, res.Status, res.Body)
	}
}
