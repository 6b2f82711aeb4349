package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/nestegg/nestegg/internal/problem"
)

// checkJSONBody validates a JSON body against schema as it reads it, and
// stops at problem.MaxFieldErrors + 1 errors (the last only says more were
// cut).
//
// kin-openapi validates a body by decoding all of it into maps and slices and
// collecting every error: a 1 MiB array of 170,000 bad ids made 170,000
// errors, and a 64 MiB restore gigabytes of maps. Here objects and arrays
// are walked token by token and only their leaves (and records the walk
// cannot split, such as allOf) are handed to kin-openapi, one at a time, so
// the rules are the contract's and kin-openapi's own, while memory stays
// that of one record and the walk ends at the error cap or the request's
// deadline.
func checkJSONBody(ctx context.Context, body []byte, schema *openapi3.Schema) ([]problem.FieldError, bool, error) {
	w := &bodyWalker{ctx: ctx, dec: json.NewDecoder(bytes.NewReader(body))}
	w.dec.UseNumber()
	err := w.walk(schema, "")
	var syntax *json.SyntaxError
	switch {
	case err == nil, errors.Is(err, errEnoughErrors):
	case errors.As(err, &syntax), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF), errors.Is(err, errNotJSON):
		// What was found before the JSON broke off is still worth naming.
		w.fields = append(w.fields, problem.FieldError{Field: "body", Message: "malformed JSON: " + err.Error()})
	default:
		return nil, false, err // the deadline
	}
	if len(w.fields) > problem.MaxFieldErrors {
		return w.fields[:problem.MaxFieldErrors], true, nil
	}
	return w.fields, false, nil
}

var (
	errEnoughErrors = errors.New("enough errors found")
	errNotJSON      = errors.New("unexpected token")
)

// checkEvery is how many values the walk reads between looks at the
// request's deadline.
const checkEvery = 4096

type bodyWalker struct {
	ctx    context.Context
	dec    *json.Decoder
	fields []problem.FieldError
	steps  int
}

// schemaOptions are the ones openapi3filter.ValidateRequestBody uses.
var schemaOptions = []openapi3.SchemaValidationOption{openapi3.VisitAsRequest(), openapi3.MultiErrors()}

// tick looks at the request's deadline every checkEvery values.
func (w *bodyWalker) tick() error {
	if w.steps++; w.steps%checkEvery == 0 {
		if err := w.ctx.Err(); err != nil {
			return fmt.Errorf("validate the body: %w", err)
		}
	}
	return nil
}

func (w *bodyWalker) walk(s *openapi3.Schema, ptr string) error {
	if err := w.tick(); err != nil {
		return err
	}
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); ok && s != nil {
		switch {
		case d == '{' && splittable(s, openapi3.TypeObject):
			return w.object(s, ptr)
		case d == '[' && splittable(s, openapi3.TypeArray):
			return w.array(s, ptr)
		}
	}
	v, err := w.value(tok)
	if err != nil || s == nil {
		return err
	}
	return w.check(s, v, ptr)
}

// splittable says whether a value of schema s may be walked part by part: a
// plain object or array, whose parts each have a schema of their own.
func splittable(s *openapi3.Schema, typ string) bool {
	return s.Type.Is(typ) && len(s.AllOf) == 0 && len(s.AnyOf) == 0 && len(s.OneOf) == 0 && s.Not == nil &&
		s.Discriminator == nil
}

// object walks each member with its property's schema, then checks the
// object itself (required, additionalProperties, size) on a shell holding
// only the member names.
func (w *bodyWalker) object(s *openapi3.Schema, ptr string) error {
	names := map[string]any{}
	for w.dec.More() {
		tok, err := w.dec.Token()
		if err != nil {
			return err
		}
		name, _ := tok.(string)
		names[name] = true
		var sub *openapi3.Schema
		if p := s.Properties[name]; p != nil {
			sub = p.Value
		} else if ap := s.AdditionalProperties.Schema; ap != nil {
			sub = ap.Value
		}
		if err := w.walk(sub, ptr+"/"+pointerEscape(name)); err != nil {
			return err
		}
	}
	if _, err := w.dec.Token(); err != nil {
		return err
	}
	return w.check(shellOf(s), names, ptr)
}

// array walks each item with the items' schema, then checks the array's
// size on a shell; uniqueItems is checked here, on each item's encoding.
func (w *bodyWalker) array(s *openapi3.Schema, ptr string) error {
	var items *openapi3.Schema
	if s.Items != nil {
		items = s.Items.Value
	}
	var seen map[string]bool // nil once a duplicate was named
	if s.UniqueItems {
		seen = map[string]bool{}
	}
	shell := shellOf(s)
	n := 0
	for w.dec.More() {
		at := ptr + "/" + strconv.Itoa(n)
		n++
		if s.MaxItems != nil && uint64(n) == *s.MaxItems+1 {
			// Said once, as soon as it is true, not after the rest.
			if err := w.check(shell, placeholders(n), ptr); err != nil {
				return err
			}
		}
		if !s.UniqueItems {
			walk := w.walk
			if items != nil && items.Type.Is(openapi3.TypeObject) {
				walk = w.record
			}
			if err := walk(items, at); err != nil {
				return err
			}
			continue
		}
		// Unique items are read whole to compare them (json.Marshal
		// writes map keys in order, so equal values encode alike).
		tok, err := w.dec.Token()
		if err != nil {
			return err
		}
		v, err := w.value(tok)
		if err != nil {
			return err
		}
		if items != nil {
			if err := w.check(items, v, at); err != nil {
				return err
			}
		}
		if seen == nil {
			continue
		}
		key, _ := json.Marshal(v)
		if seen[string(key)] {
			seen = nil
			if err := w.add(ptr, "duplicate items found"); err != nil {
				return err
			}
			continue
		}
		seen[string(key)] = true
	}
	if _, err := w.dec.Token(); err != nil {
		return err
	}
	if s.MaxItems != nil && uint64(n) > *s.MaxItems {
		return nil // said above
	}
	return w.check(shell, placeholders(n), ptr)
}

// maxRecordBytes is the largest record (an item of an array of objects,
// such as a restore's entry) checked whole: reading records whole is several
// times faster than token by token, and one record of this size holds few
// enough values that naming all of its errors is cheap.
const maxRecordBytes = 64 << 10

// record checks the next item of an array of objects: whole when it is
// small, as any other value when it is not.
func (w *bodyWalker) record(s *openapi3.Schema, ptr string) error {
	if err := w.tick(); err != nil {
		return err
	}
	var raw json.RawMessage
	if err := w.dec.Decode(&raw); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if len(raw) > maxRecordBytes {
		outer := w.dec
		w.dec = dec
		defer func() { w.dec = outer }()
		return w.walk(s, ptr)
	}
	var v any
	if err := dec.Decode(&v); err != nil {
		return err
	}
	return w.check(s, v, ptr)
}

func placeholders(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = true
	}
	return out
}

// shells are the object and array schemas with their parts' schemas
// emptied (they accept the placeholder true), by schema.
var shells sync.Map

func shellOf(s *openapi3.Schema) *openapi3.Schema {
	if v, ok := shells.Load(s); ok {
		return v.(*openapi3.Schema)
	}
	shell := *s
	anything := &openapi3.SchemaRef{Value: &openapi3.Schema{}}
	if s.Items != nil {
		shell.Items = anything
	}
	shell.UniqueItems = false
	if len(s.Properties) > 0 {
		shell.Properties = make(openapi3.Schemas, len(s.Properties))
		for name, p := range s.Properties {
			shell.Properties[name] = &openapi3.SchemaRef{Value: &openapi3.Schema{ReadOnly: p.Value.ReadOnly, WriteOnly: p.Value.WriteOnly}}
		}
	}
	if s.AdditionalProperties.Schema != nil {
		shell.AdditionalProperties = openapi3.AdditionalProperties{Schema: anything}
	}
	v, _ := shells.LoadOrStore(s, &shell)
	return v.(*openapi3.Schema)
}

// value reads the rest of the value tok starts, as encoding/json would
// decode it into an any (numbers as json.Number).
func (w *bodyWalker) value(tok json.Token) (any, error) {
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	switch d {
	case '{':
		m := map[string]any{}
		for w.dec.More() {
			k, err := w.dec.Token()
			if err != nil {
				return nil, err
			}
			name, _ := k.(string)
			if m[name], err = w.next(); err != nil {
				return nil, err
			}
		}
		_, err := w.dec.Token()
		return m, err
	case '[':
		a := []any{}
		for w.dec.More() {
			v, err := w.next()
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := w.dec.Token()
		return a, err
	}
	return nil, errNotJSON
}

func (w *bodyWalker) next() (any, error) {
	tok, err := w.dec.Token()
	if err != nil {
		return nil, err
	}
	return w.value(tok)
}

// check validates v against s with kin-openapi, naming each error's field
// below ptr.
func (w *bodyWalker) check(s *openapi3.Schema, v any, ptr string) error {
	err := s.VisitJSON(v, schemaOptions...)
	if err == nil {
		return nil
	}
	var errs openapi3.MultiError
	if !errors.As(err, &errs) {
		errs = openapi3.MultiError{err}
	}
	for _, e := range errs {
		f := fieldError("body", e)
		switch {
		case f.Field == "body" || f.Field == "/":
			f.Field = ptr
		default:
			f.Field = ptr + f.Field
		}
		if f.Field == "" {
			f.Field = "/"
		}
		if err := w.add(f.Field, f.Message); err != nil {
			return err
		}
	}
	return nil
}

// add records one error, and ends the walk once one more than the answer
// names is known.
func (w *bodyWalker) add(field, message string) error {
	if field == "" {
		field = "/"
	}
	w.fields = append(w.fields, problem.FieldError{Field: field, Message: message})
	if len(w.fields) > problem.MaxFieldErrors {
		return errEnoughErrors
	}
	return nil
}

// joinDetails is the detail of a validation problem: its fields, one after
// another.
func joinDetails(fields []problem.FieldError) string {
	details := make([]string, len(fields))
	for i, f := range fields {
		details[i] = f.Field + ": " + f.Message
	}
	return strings.Join(details, "; ")
}
