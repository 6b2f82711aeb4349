package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/mail"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/nestegg/nestegg/api"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// Access levels of the x-access extension every operation carries.
const (
	AccessPublic  = "public"
	AccessMember  = "member"
	AccessPremium = "premium"
	AccessAdmin   = "admin"
)

// defaultMaxBody is the request body limit of an operation without
// x-max-body-bytes.
const defaultMaxBody = 1 << 20

// Contract is the embedded OpenAPI document prepared for routing: the server
// finds each request's operation in it, then enforces that operation's access
// level, body limit, media type and schema, all as the document declares them.
type Contract struct {
	Doc    *openapi3.T
	router routers.Router
	// static holds the route of every operation on a path without
	// parameters, by "METHOD path", as the router finds it: most requests
	// (the session, the lists) are found by one map read instead of the
	// router's walk through every path's expression. A path the map does
	// not hold goes to the router.
	static map[string]*routers.Route
}

// LoadContract reads the embedded contract. Every operation must declare a
// valid x-access, so an undeclared operation fails start-up instead of being
// served open, and a well-formed x-problem-codes and x-deadline-seconds when
// it has them.
//
// The contract is embedded, so it is parsed, checked and routed once a
// process and the one Contract is shared: it is only read once built, as
// every request of a server already shares it. The tests build a server
// each, hundreds a process: under the race detector, parsing the contract
// again for each was a tenth of an API package's CPU.
func LoadContract() (*Contract, error) { return loadContract() }

var loadContract = sync.OnceValues(func() (*Contract, error) {
	doc, err := ParseContract()
	if err != nil {
		return nil, err
	}
	// Match requests whatever host they name; servers[] documents, not routes.
	doc.Servers = nil
	var bad []string
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if _, err := OperationAccess(op); err != nil {
				bad = append(bad, method+" "+path+": "+err.Error())
			}
			if _, err := ProblemCodes(op); err != nil {
				bad = append(bad, method+" "+path+": "+err.Error())
			}
			if _, err := OperationDeadline(op); err != nil {
				bad = append(bad, method+" "+path+": "+err.Error())
			}
			if _, err := EmptyObjectProblem(op); err != nil {
				bad = append(bad, method+" "+path+": "+err.Error())
			}
		}
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("contract: %s", strings.Join(bad, "; "))
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("contract router: %w", err)
	}
	static := map[string]*routers.Route{}
	for path, item := range doc.Paths.Map() {
		if strings.Contains(path, "{") {
			continue
		}
		for method := range item.Operations() {
			probe, err := http.NewRequest(method, path, nil)
			if err != nil {
				return nil, fmt.Errorf("contract: %s %s: %w", method, path, err)
			}
			route, _, err := router.FindRoute(probe)
			if err != nil {
				return nil, fmt.Errorf("contract: the router does not find %s %s: %w", method, path, err)
			}
			static[method+" "+path] = route
		}
	}
	return &Contract{Doc: doc, router: router, static: static}, nil
})

// The calendar dates the service takes, the same for every date of every
// operation (entries, trades, budgets' ranges, filters): the contract's
// top-level description states them.
const (
	MinDate = "1900-01-01"
	MaxDate = "2999-12-31"
)

func init() {
	// "format: date" is a real calendar day in the service's range, checked
	// by the validator so that 2026-11-31 is refused naming its field (and
	// alongside every other bad field), not later by the generated decoder
	// as a body it cannot read.
	openapi3.DefineStringFormatValidator("date", openapi3.NewCallbackValidator(func(s string) error {
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return errors.New("must be a calendar date (YYYY-MM-DD) that exists, such as 2026-11-30")
		}
		if s < MinDate || s > MaxDate {
			return errors.New("must be a date from " + MinDate + " to " + MaxDate)
		}
		return nil
	}))
	// "format: email" is checked as the service checks addresses (net/mail,
	// a plain address), so the validator names the field instead of the
	// generated decoder refusing the body later.
	openapi3.DefineStringFormatValidator("email", openapi3.NewCallbackValidator(func(s string) error {
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
			return errors.New("must be an e-mail address such as name@example.com")
		}
		return nil
	}))
}

// ParseContract parses the contract exactly as written (the copy oapi-codegen
// embeds renames operation ids).
func ParseContract() (*openapi3.T, error) {
	doc, err := openapi3.NewLoader().LoadFromData(api.OpenAPIYAML)
	if err != nil {
		return nil, fmt.Errorf("load contract: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("contract is not valid OpenAPI: %w", err)
	}
	return doc, nil
}

// OperationAccess returns the x-access level of op.
func OperationAccess(op *openapi3.Operation) (string, error) {
	v, ok := op.Extensions["x-access"].(string)
	if !ok {
		return "", errors.New("x-access is missing")
	}
	switch v {
	case AccessPublic, AccessMember, AccessPremium, AccessAdmin:
		return v, nil
	}
	return "", fmt.Errorf("x-access %q is not public, member, premium or admin", v)
}

// maxDeadline bounds x-deadline-seconds below the HTTP server's write
// timeout (cmd/nestegg), so that an answer can still be written.
const maxDeadline = 90 * time.Second

// OperationDeadline is how long a request of op may work: its
// x-deadline-seconds, or the deadline of every request (8 s).
func OperationDeadline(op *openapi3.Operation) (time.Duration, error) {
	raw, ok := op.Extensions["x-deadline-seconds"]
	if !ok {
		return requestDeadline, nil
	}
	v, ok := raw.(float64)
	d := time.Duration(v) * time.Second
	if !ok || v != float64(int(v)) || d < requestDeadline || d > maxDeadline {
		return 0, fmt.Errorf("x-deadline-seconds %v is not a whole number of seconds from %s to %s", raw, requestDeadline, maxDeadline)
	}
	return d, nil
}

func maxBody(op *openapi3.Operation) int64 {
	if v, ok := op.Extensions["x-max-body-bytes"].(float64); ok && v > 0 {
		return int64(v)
	}
	return defaultMaxBody
}

// Find returns the route of r: a 404 or 405 problem when the contract has none.
//
// HEAD is found as the GET it stands for: net/http answers it with the GET
// handler's status and headers and drops the body.
func (c *Contract) Find(r *http.Request) (*routers.Route, map[string]string, error) {
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	if route, ok := c.static[method+" "+r.URL.Path]; ok {
		return route, map[string]string{}, nil
	}
	find := r
	if r.Method == http.MethodHead {
		find = r.Clone(r.Context())
		find.Method = http.MethodGet
	}
	route, params, err := c.router.FindRoute(find)
	switch {
	case errors.Is(err, routers.ErrMethodNotAllowed):
		return nil, nil, problem.New(http.StatusMethodNotAllowed, problem.CodeMethodNotAllowed,
			fmt.Sprintf("%s is not allowed on %s", r.Method, r.URL.Path))
	case err != nil:
		return nil, nil, problem.New(http.StatusNotFound, problem.CodeNotFound, "no operation at "+r.URL.Path)
	}
	return route, params, nil
}

// authorize applies the operation's access level to the caller.
func authorize(access string, p *session.Principal) error {
	switch {
	case access == AccessPublic:
		return nil
	case p == nil:
		return problem.New(http.StatusUnauthorized, problem.CodeUnauthenticated, "sign in to use this operation")
	case access == AccessAdmin && !p.IsAdmin():
		return problem.New(http.StatusForbidden, problem.CodeForbidden, "only administrators may use this operation")
	case access == AccessPremium && !p.HasPremium():
		return problem.New(http.StatusForbidden, problem.CodePremiumRequired, "this feature needs a PREMIUM membership")
	}
	return nil
}

// readBody reads the body within the operation's limit and checks its media
// type, returning the body and leaving r.Body readable again.
func readBody(r *http.Request, op *openapi3.Operation) ([]byte, error) {
	limit := maxBody(op)
	tooLarge := func() error {
		return problem.New(http.StatusRequestEntityTooLarge, problem.CodePayloadTooLarge,
			fmt.Sprintf("the request body is over %d bytes", limit))
	}
	if r.ContentLength > limit {
		return nil, tooLarge()
	}
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	// Read into one buffer of the declared length: io.ReadAll would grow
	// a 64 MiB restore by copying, leaving as much again as garbage.
	buf := bytes.NewBuffer(make([]byte, 0, max(r.ContentLength, 0)+bytes.MinRead))
	_, err := buf.ReadFrom(http.MaxBytesReader(nil, r.Body, limit))
	data := buf.Bytes()
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, tooLarge()
		}
		return nil, problem.Invalid("body", "the request body could not be read")
	}
	r.Body = bufferedBodyOf(data)
	if len(data) == 0 || op.RequestBody == nil || op.RequestBody.Value == nil {
		return data, nil
	}
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || op.RequestBody.Value.Content.Get(mediaType) == nil {
		return nil, problem.New(http.StatusUnsupportedMediaType, problem.CodeUnsupportedMediaType,
			fmt.Sprintf("send the body as one of: %s", strings.Join(mediaTypes(op), ", ")))
	}
	return data, nil
}

// bufferedBody is a request body withContract read whole. Bytes answers the
// bytes themselves: a handler that reads a large document more than once
// (restore) takes them instead of a second copy.
type bufferedBody struct {
	*bytes.Reader
	data []byte
}

func bufferedBodyOf(data []byte) bufferedBody {
	return bufferedBody{Reader: bytes.NewReader(data), data: data}
}

func (b bufferedBody) Bytes() []byte { return b.data }
func (bufferedBody) Close() error    { return nil }

func mediaTypes(op *openapi3.Operation) []string {
	var out []string
	for mt := range op.RequestBody.Value.Content {
		out = append(out, mt)
	}
	return out
}

// validate checks parameters and body (as readBody returned it) against the
// operation's schemas, leaving r.Body readable for the handler. A JSON body
// is checked by checkJSONBody, which reads it once, in bounded memory, and
// stops at the error cap; kin-openapi checks the parameters and other media
// types.
func validate(ctx context.Context, r *http.Request, body []byte, route *routers.Route, params map[string]string) error {
	if len(body) == 0 && r.URL.RawQuery == "" && route.Operation.RequestBody == nil &&
		len(route.Operation.Parameters) == 0 && len(route.PathItem.Parameters) == 0 &&
		!strings.ContainsRune(r.URL.Path, 0) {
		return nil // nothing declared, nothing sent: nothing to check
	}
	if fields, cut := nulFields(r, body); len(fields) > 0 {
		return &problem.Error{
			Status: http.StatusBadRequest, Code: problem.CodeValidationFailed,
			Detail: joinDetails(fields), Fields: fields, Truncated: cut,
		}
	}
	schema := jsonBodySchema(r, route.Operation)
	if code, _ := EmptyObjectProblem(route.Operation); code != "" && schema != nil && isEmptyObject(body) {
		return problem.New(http.StatusBadRequest, code, "the body is an empty object: there is nothing to do")
	}
	in := &openapi3filter.RequestValidationInput{
		Request:    r,
		PathParams: params,
		Route:      route,
		Options: &openapi3filter.Options{
			MultiError:         true,
			ExcludeRequestBody: schema != nil,
		},
	}
	err := validateRequest(ctx, in)
	if body != nil {
		r.Body = bufferedBodyOf(body)
	}
	var fields []problem.FieldError
	if err != nil {
		collectFieldErrors(err, &fields)
		if len(fields) == 0 {
			fields = []problem.FieldError{{Field: problem.Request, Message: "the request does not match the contract"}}
		}
	}
	cut := false
	if schema != nil && len(fields) <= problem.MaxFieldErrors {
		var bodyFields []problem.FieldError
		switch {
		case len(body) == 0 && route.Operation.RequestBody.Value.Required:
			bodyFields = []problem.FieldError{{Field: "body", Message: openapi3filter.ErrInvalidRequired.Error()}}
		case len(body) > 0:
			var berr error
			bodyFields, cut, berr = checkJSONBody(ctx, body, schema)
			if berr != nil {
				return berr
			}
		}
		fields = append(fields, bodyFields...)
	}
	if len(fields) == 0 {
		return nil
	}
	if len(fields) > problem.MaxFieldErrors {
		fields, cut = fields[:problem.MaxFieldErrors], true
	}
	return &problem.Error{
		Status:    http.StatusBadRequest,
		Code:      problem.CodeValidationFailed,
		Detail:    joinDetails(fields),
		Fields:    fields,
		Truncated: cut,
		Err:       err,
	}
}

// validateRequest is openapi3filter.ValidateRequest without its security
// step: access is authorize's (x-access), and with NoopAuthenticationFunc
// that step could only pass, after reading the whole body once more. It
// checks the path item's and the operation's parameters, and the body
// unless Options.ExcludeRequestBody (a JSON body is checkJSONBody's).
func validateRequest(ctx context.Context, in *openapi3filter.RequestValidationInput) error {
	var me openapi3.MultiError
	op := in.Route.Operation
	for _, ref := range in.Route.PathItem.Parameters {
		p := ref.Value
		if op.Parameters != nil && op.Parameters.GetByInAndName(p.In, p.Name) != nil {
			continue // the operation's own declaration stands
		}
		if err := openapi3filter.ValidateParameter(ctx, in, p); err != nil {
			me = append(me, err)
		}
	}
	for _, ref := range op.Parameters {
		if err := openapi3filter.ValidateParameter(ctx, in, ref.Value); err != nil {
			me = append(me, err)
		}
	}
	if !in.Options.ExcludeRequestBody && op.RequestBody != nil {
		if err := openapi3filter.ValidateRequestBody(ctx, in, op.RequestBody.Value); err != nil {
			me = append(me, err)
		}
	}
	if len(me) > 0 {
		return me
	}
	return nil
}

// jsonBodySchema is the schema of r's body when it is JSON (checkJSONBody's
// part), or nil.
func jsonBodySchema(r *http.Request, op *openapi3.Operation) *openapi3.Schema {
	if op.RequestBody == nil || op.RequestBody.Value == nil {
		return nil
	}
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mediaType != "application/json" && !strings.HasSuffix(mediaType, "+json") {
		if mediaType != "" || op.RequestBody.Value.Content.Get("application/json") == nil {
			return nil
		}
		mediaType = "application/json" // no body, no Content-Type
	}
	mt := op.RequestBody.Value.Content.Get(mediaType)
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return nil
	}
	return mt.Schema.Value
}

func collectFieldErrors(err error, out *[]problem.FieldError) {
	// The validator nests: MultiError -> RequestError -> MultiError ->
	// SchemaError. The RequestError's parameter or body names the field.
	switch e := err.(type) {
	case openapi3.MultiError:
		for _, inner := range e {
			collectFieldErrors(inner, out)
		}
	case *openapi3filter.RequestError:
		field := "body"
		if e.Parameter != nil {
			field = e.Parameter.Name
		}
		var inner openapi3.MultiError
		switch {
		case e.Err == nil:
			*out = append(*out, problem.FieldError{Field: field, Message: e.Reason})
		case errors.As(e.Err, &inner):
			for _, ie := range inner {
				*out = append(*out, fieldError(field, ie))
			}
		default:
			*out = append(*out, fieldError(field, e.Err))
		}
	}
}

func fieldError(field string, err error) problem.FieldError {
	var schemaErr *openapi3.SchemaError
	if errors.As(err, &schemaErr) {
		ptr := "/" + strings.Join(schemaErr.JSONPointer(), "/")
		if field == "body" {
			field = ptr
		} else if ptr != "/" {
			field += ptr
		}
		return problem.FieldError{Field: field, Message: schemaReason(schemaErr.Reason)}
	}
	var parseErr *openapi3filter.ParseError
	if errors.As(err, &parseErr) {
		if parseErr.Cause != nil {
			// A multipart body with a part the operation does not take.
			if m := undefinedPart.FindStringSubmatch(parseErr.Cause.Error()); m != nil {
				return problem.FieldError{Field: "/" + m[1], Message: "is not a part this operation takes"}
			}
		}
		if parseErr.Reason == "" {
			return problem.FieldError{Field: field, Message: "could not be read as this operation's request"}
		}
		if field == "body" {
			return problem.FieldError{Field: field, Message: "malformed JSON: " + parseErr.Reason}
		}
		return problem.FieldError{Field: field, Message: parseErr.Reason}
	}
	return problem.FieldError{Field: field, Message: err.Error()}
}

// undefinedPart is the validator's cause for a multipart part the
// operation's schema does not name.
var undefinedPart = regexp.MustCompile(`^part (.+): undefined$`)

// schemaReason is the validator's reason in the contract's words: the few
// reasons it gives in Go's (a number no float64 holds, 1e400, is "cannot
// convert json.Number to float64") say what is wrong with the value instead.
func schemaReason(reason string) string {
	if strings.Contains(reason, "json.Number") || strings.Contains(reason, "float64") || strings.Contains(reason, "int64") {
		return "is a number too large to read"
	}
	return reason
}

// nulFields names every parameter and JSON string of the request holding a
// NUL character, up to the error cap (and says whether it cut them). No text
// the service keeps may hold one (PostgreSQL cannot store it), so it is
// refused here, once for every operation, naming the field.
func nulFields(r *http.Request, body []byte) ([]problem.FieldError, bool) {
	const msg = "must not contain a NUL character"
	var out []problem.FieldError
	if strings.ContainsRune(r.URL.Path, 0) {
		out = append(out, problem.FieldError{Field: problem.Request, Message: "the path " + msg})
	}
	for k, vs := range r.URL.Query() {
		for _, v := range vs {
			if strings.ContainsRune(k+v, 0) {
				out = append(out, problem.FieldError{Field: k, Message: msg})
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Field < out[j].Field })
	if !bytes.Contains(body, []byte(`\u0000`)) && !bytes.ContainsRune(body, 0) {
		return capFields(out)
	}
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mediaType != "application/json" {
		return capFields(out)
	}
	// Read token by token, as checkJSONBody does: the body may be a
	// 64 MiB restore.
	dec := json.NewDecoder(bytes.NewReader(body))
	var walk func(ptr string) error
	walk = func(ptr string) error {
		if len(out) > problem.MaxFieldErrors {
			return errEnoughErrors
		}
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch x := tok.(type) {
		case string:
			if strings.ContainsRune(x, 0) {
				out = append(out, problem.FieldError{Field: ptr, Message: msg})
			}
		case json.Delim:
			for i := 0; dec.More(); i++ {
				at := ptr + "/" + strconv.Itoa(i)
				if x == '{' {
					k, err := dec.Token()
					if err != nil {
						return err
					}
					name, _ := k.(string)
					at = ptr + "/" + pointerEscape(name)
					if strings.ContainsRune(name, 0) {
						out = append(out, problem.FieldError{Field: at, Message: "a field name " + msg})
					}
				}
				if err := walk(at); err != nil {
					return err
				}
			}
			_, err := dec.Token()
			return err
		}
		return nil
	}
	_ = walk("") // malformed JSON: the validator names it
	for i := range out {
		if out[i].Field == "" {
			out[i].Field = "/"
		}
	}
	return capFields(out)
}

func capFields(fields []problem.FieldError) ([]problem.FieldError, bool) {
	if len(fields) > problem.MaxFieldErrors {
		return fields[:problem.MaxFieldErrors], true
	}
	return fields, false
}

// pointerEscape escapes a JSON Pointer reference token (RFC 6901).
func pointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// EmptyObjectProblem is the x-empty-object-problem code of op: the 400 a JSON
// body of just {} answers instead of naming every missing property (a restore
// of {} is EMPTY_BACKUP, like a document whose lists are all empty). The code
// must be one of the operation's x-problem-codes for 400.
func EmptyObjectProblem(op *openapi3.Operation) (string, error) {
	raw, ok := op.Extensions["x-empty-object-problem"]
	if !ok {
		return "", nil
	}
	code, _ := raw.(string)
	codes, err := ProblemCodes(op)
	if err != nil {
		return "", err
	}
	if !slices.Contains(codes[http.StatusBadRequest], code) {
		return "", fmt.Errorf("x-empty-object-problem %v is not among x-problem-codes for 400", raw)
	}
	return code, nil
}

// isEmptyObject tells whether body is a JSON object with no members.
func isEmptyObject(body []byte) bool {
	b := bytes.TrimSpace(body)
	if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return false
	}
	return len(bytes.TrimSpace(b[1:len(b)-1])) == 0
}
