package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/server"
)

// stringField is a string somewhere in a request body: its JSON pointer and
// a body that holds only it, set to value.
type stringField struct {
	pointer string
	body    func(value string) any
}

// stringFields lists every string a request schema can carry, nested objects
// and arrays included.
func stringFields(s *openapi3.Schema, pointer string, wrap func(any) any, depth int) []stringField {
	if s == nil || depth > 6 {
		return nil
	}
	switch {
	case s.Type.Is("string"):
		return []stringField{{pointer, func(v string) any { return wrap(v) }}}
	case s.Type.Is("array") && s.Items != nil:
		return stringFields(s.Items.Value, pointer+"/0", func(v any) any { return wrap([]any{v}) }, depth+1)
	}
	var out []stringField
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		out = append(out, stringFields(s.Properties[name].Value, pointer+"/"+name,
			func(v any) any { return wrap(map[string]any{name: v}) }, depth+1)...)
	}
	for _, all := range s.AllOf {
		out = append(out, stringFields(all.Value, pointer, wrap, depth+1)...)
	}
	return out
}

// A NUL character in any string of any request answers 400 naming the
// field, never 500 (PostgreSQL cannot store it): every string field of every
// operation's JSON body, and every string query parameter.
func TestNULInAnyStringIsRefusedNamingTheField(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.NewMember(apitest.AsAdmin()).Raw()
	doc, err := server.ParseContract()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for path, item := range doc.Paths.Map() {
		target := pathParam.ReplaceAllString(path, "987654321")
		for method, op := range item.Operations() {
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				if mt := op.RequestBody.Value.Content.Get("application/json"); mt != nil && mt.Schema != nil {
					for _, f := range stringFields(mt.Schema.Value, "", func(v any) any { return v }, 0) {
						body, _ := json.Marshal(f.body("a\x00b"))
						res := admin.Send(method, target, "application/json", body)
						wantNULRefused(t, res, op.OperationID, f.pointer)
						checked++
					}
				}
			}
			for _, p := range op.Parameters {
				if p.Value.In != "query" || p.Value.Schema == nil || !p.Value.Schema.Value.Type.Is("string") {
					continue
				}
				res := admin.Do(method, target+"?"+url.Values{p.Value.Name: {"a\x00b"}}.Encode(), nil)
				wantNULRefused(t, res, op.OperationID, p.Value.Name)
				checked++
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d string fields found; the sweep is not sweeping", checked)
	}
	t.Logf("%d string fields checked", checked)
}

func wantNULRefused(t *testing.T, res *apitest.Response, op, field string) {
	t.Helper()
	var p apitest.Problem
	_ = json.Unmarshal(res.Body, &p)
	if res.Status != http.StatusBadRequest || p.Code != "VALIDATION_FAILED" {
		t.Errorf("%s with NUL in %s: %d %s, want 400 VALIDATION_FAILED", op, field, res.Status, res.Body)
		return
	}
	for _, e := range p.Errors {
		if e.Field == field || (field == "" && e.Field == "/") {
			return
		}
	}
	t.Errorf("%s with NUL in %s: the problem names %v, not the field", op, field, p.Errors)
}
