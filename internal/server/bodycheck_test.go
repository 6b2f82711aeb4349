package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/nestegg/nestegg/internal/problem"
)

// checkJSONBody holds bodies to the contract as kin-openapi does when it
// decodes them whole: for each request schema of the contract, its example
// and a few wrong bodies get the same fields named both ways.
func TestCheckJSONBodyAgreesWithKinOpenAPI(t *testing.T) {
	t.Parallel()
	c, err := LoadContract()
	if err != nil {
		t.Fatal(err)
	}
	wrong := []string{`{}`, `[]`, `null`, `"x"`, `{"name": 5, "type": "NOPE", "amount": -1, "date": "yesterday", "ids": [0, "a"], "tags": [1]}`}
	compared := 0
	for path, item := range c.Doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.RequestBody == nil || op.RequestBody.Value.Content.Get("application/json") == nil {
				continue
			}
			schema := op.RequestBody.Value.Content.Get("application/json").Schema.Value
			bodies := wrong
			if schema.Example != nil {
				example, _ := json.Marshal(schema.Example)
				spoilt, _ := json.Marshal(spoil(schema.Example))
				bodies = append(slices.Clone(wrong), string(example), string(spoilt))
			}
			for _, body := range bodies {
				var v any
				dec := json.NewDecoder(strings.NewReader(body))
				dec.UseNumber()
				if err := dec.Decode(&v); err != nil {
					t.Fatal(err)
				}
				var want []string
				if err := schema.VisitJSON(v, schemaOptions...); err != nil {
					var errs openapi3.MultiError
					if !errors.As(err, &errs) {
						errs = openapi3.MultiError{err}
					}
					for _, e := range errs {
						want = append(want, fieldError("body", e).Field+": "+fieldError("body", e).Message)
					}
				}
				fields, _, err := checkJSONBody(context.Background(), []byte(body), schema)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, f := range fields {
					got = append(got, f.Field+": "+f.Message)
				}
				slices.Sort(want)
				slices.Sort(got)
				switch {
				case len(want) <= problem.MaxFieldErrors && !slices.Equal(want, got):
					t.Errorf("%s %s with %s:\nkin-openapi %q\nstreamed    %q", method, path, body, want, got)
				case len(want) > problem.MaxFieldErrors && len(got) != problem.MaxFieldErrors:
					t.Errorf("%s %s with %s: %d of kin-openapi's %d errors, want %d", method, path, body, len(got), len(want), problem.MaxFieldErrors)
				case len(want) > problem.MaxFieldErrors:
					for _, g := range got {
						if _, found := slices.BinarySearch(want, g); !found {
							t.Errorf("%s %s with %s: %q is not among kin-openapi's errors %q", method, path, body, g, want)
						}
					}
				}
				compared++
			}
		}
	}
	t.Logf("%d bodies compared", compared)
	if compared < 100 {
		t.Fatalf("only %d bodies compared", compared)
	}
}

// spoil adds a record of the wrong form to every array inside v, and drops
// the first property (in order) of every object.
func spoil(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		keys := slices.Sorted(maps.Keys(x))
		for i, k := range keys {
			if i > 0 || len(keys) == 1 {
				out[k] = spoil(x[k])
			}
		}
		return out
	case []any:
		out := []any{}
		for _, e := range x {
			out = append(out, spoil(e))
		}
		return append(out, map[string]any{}, 5)
	}
	return v
}

// The walk looks at the request's deadline as it goes: a request whose
// deadline passed gets no answer about its body, only the context's error.
func TestCheckJSONBodyStopsAtTheDeadline(t *testing.T) {
	t.Parallel()
	schema := &openapi3.Schema{Type: &openapi3.Types{"array"}, Items: &openapi3.SchemaRef{Value: &openapi3.Schema{Type: &openapi3.Types{"integer"}}}}
	body := []byte("[1" + strings.Repeat(",1", 4*checkEvery) + "]")
	if fields, _, err := checkJSONBody(context.Background(), body, schema); err != nil || len(fields) != 0 {
		t.Fatalf("valid body: %v %v", fields, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fields, _, err := checkJSONBody(ctx, body, schema)
	if !errors.Is(err, context.Canceled) || fields != nil {
		t.Fatalf("after the deadline: %v %v, want the context's error", fields, err)
	}
}

// The walk ends at the cap: of a body with an error in each of 100,000
// items it reads only the first ones.
func TestCheckJSONBodyStopsAtTheCap(t *testing.T) {
	t.Parallel()
	schema := &openapi3.Schema{Type: &openapi3.Types{"array"}, Items: &openapi3.SchemaRef{Value: &openapi3.Schema{Type: &openapi3.Types{"integer"}}}}
	body := []byte(`["a"` + strings.Repeat(`,"a"`, 100000) + `]`)
	w := &bodyWalker{ctx: context.Background(), dec: json.NewDecoder(bytes.NewReader(body))}
	if err := w.walk(schema, ""); !errors.Is(err, errEnoughErrors) {
		t.Fatalf("walk: %v, want it to stop at the cap", err)
	}
	if read := w.dec.InputOffset(); read > 1000 {
		t.Fatalf("read %d bytes of %d: the walk went on past the cap", read, len(body))
	}
	fields, cut, err := checkJSONBody(context.Background(), body, schema)
	if err != nil || len(fields) != problem.MaxFieldErrors || !cut {
		t.Fatalf("%d fields, cut %v, %v", len(fields), cut, err)
	}
}

// A record too large to check whole (maxRecordBytes) is walked like any
// other value: one entry holding 100,000 bad values answers the first 20, in
// order, and says they were cut.
func TestCheckJSONBodyWalksALargeRecord(t *testing.T) {
	t.Parallel()
	integers := &openapi3.Schema{Type: &openapi3.Types{"array"}, Items: &openapi3.SchemaRef{Value: &openapi3.Schema{Type: &openapi3.Types{"integer"}}}}
	schema := &openapi3.Schema{Type: &openapi3.Types{"array"}, Items: &openapi3.SchemaRef{Value: &openapi3.Schema{
		Type: &openapi3.Types{"object"}, Properties: openapi3.Schemas{"ids": &openapi3.SchemaRef{Value: integers}},
	}}}
	body := []byte(`[{"ids": [1]}, {"ids": ["a"` + strings.Repeat(`,"a"`, 100000) + `]}]`)
	fields, cut, err := checkJSONBody(context.Background(), body, schema)
	if err != nil || len(fields) != problem.MaxFieldErrors || !cut {
		t.Fatalf("%d fields, cut %v, %v", len(fields), cut, err)
	}
	for i, f := range fields {
		if want := "/1/ids/" + strconv.Itoa(i); f.Field != want {
			t.Fatalf("field %d is %s, want %s", i, f.Field, want)
		}
	}
}
