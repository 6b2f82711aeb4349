package server

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/nestegg/nestegg/internal/problem"
)

// dispatcher hands a request to the generated handler of the operation the
// contract found for it (withRequestInfo found it, withContract checked the
// request against it), instead of the generated ServeMux matching the path
// a second time: one routing decision a request, so the handler that runs
// is the one whose contract was enforced.
type dispatcher struct {
	contract *Contract
	// handlers holds every operation of the contract (newDispatcher fails
	// otherwise).
	handlers map[*openapi3.Operation]http.Handler
}

// pathParam is a parameter of a contract path, such as {id}.
var pathParam = regexp.MustCompile(`\{[^}/]+\}`)

// newDispatcher takes from mux the handler of each of the contract's
// operations, by asking mux which pattern a request for that operation
// matches. Start-up fails when one would reach no handler or another
// operation's: the generated code and the contract are then out of step.
func newDispatcher(c *Contract, mux *http.ServeMux) (*dispatcher, error) {
	d := &dispatcher{contract: c, handlers: map[*openapi3.Operation]http.Handler{}}
	var bad []string
	for path, item := range c.Doc.Paths.Map() {
		for method, op := range item.Operations() {
			probe, err := http.NewRequest(method, pathParam.ReplaceAllString(path, "1"), nil)
			if err != nil {
				return nil, fmt.Errorf("dispatch %s %s: %w", method, path, err)
			}
			h, pattern := mux.Handler(probe)
			if pattern != method+" "+path {
				bad = append(bad, fmt.Sprintf("%s %s: the generated router answers it with %q", method, path, pattern))
				continue
			}
			d.handlers[op] = h
		}
	}
	if len(bad) > 0 {
		slices.Sort(bad)
		return nil, fmt.Errorf("dispatch: %s", strings.Join(bad, "; "))
	}
	return d, nil
}

func (d *dispatcher) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// An error reaches here only for a request the chain makes itself
	// (withContract answers the client's own): it is answered as that
	// layer answers one.
	route, params, err := find(d.contract, r)
	if err != nil {
		problem.Write(w, r, err)
		return
	}
	for name, raw := range params {
		// The contract's router matched the path as sent (escaped); the
		// generated handlers read a parameter as ServeMux gives it,
		// unescaped. net/http has refused a path whose escapes are bad.
		if v, err := url.PathUnescape(raw); err == nil {
			r.SetPathValue(name, v)
		}
	}
	d.handlers[route.Operation].ServeHTTP(w, r)
}
