package server

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	apigen "github.com/nestegg/nestegg/generated/api"
)

// The generated router holds every operation of the contract at the
// contract's own pattern, so each request runs the handler of the operation
// whose contract was enforced.
func TestEveryOperationIsDispatchedToItsGeneratedHandler(t *testing.T) {
	t.Parallel()
	c := testContract(t)
	d := generatedDispatcher(t, c)
	ops := 0
	for _, item := range c.Doc.Paths.Map() {
		ops += len(item.Operations())
	}
	if len(d.handlers) != ops || ops == 0 {
		t.Fatalf("%d handlers for %d operations", len(d.handlers), ops)
	}
}

// generatedDispatcher is the dispatcher over the generated router, as the
// server builds it.
func generatedDispatcher(t *testing.T, c *Contract) *dispatcher {
	t.Helper()
	mux := http.NewServeMux()
	apigen.HandlerWithOptions(apigen.NewStrictHandler(nil, nil), apigen.StdHTTPServerOptions{BaseRouter: mux})
	d, err := newDispatcher(c, mux)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestAGeneratedRouterOutOfStepWithTheContractFailsStartUp(t *testing.T) {
	t.Parallel()
	c := testContract(t)
	if _, err := newDispatcher(c, http.NewServeMux()); err == nil || !strings.Contains(err.Error(), `GET /api/auth/session: the generated router answers it with ""`) {
		t.Errorf("an empty router: %v", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/account/wallets/{walletId}", func(http.ResponseWriter, *http.Request) {})
	want := `GET /api/account/wallets/{id}: the generated router answers it with "GET /api/account/wallets/{walletId}"`
	if _, err := newDispatcher(c, mux); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a parameter named otherwise: %v", err)
	}
}

// A path parameter reaches the generated handler as ServeMux would give it,
// from the route the contract found; a request the chain makes itself with
// the request's context (withVersions' GET of the record a DELETE would
// remove) runs its own operation, not the one found for the request.
func TestDispatchRunsTheFoundOperationWithItsParameters(t *testing.T) {
	t.Parallel()
	c := testContract(t)
	d := generatedDispatcher(t, c)
	var ran []string
	for op := range d.handlers {
		switch op.OperationID {
		case "getWallet", "deleteWallet":
			d.handlers[op] = http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
				ran = append(ran, op.OperationID+" "+r.PathValue("id"))
			})
		}
	}
	withRequestInfo(c, nil, d).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/api/account/wallets/42", nil))
	withRequestInfo(c, nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		get := r.Clone(r.Context())
		get.Method = http.MethodGet
		d.ServeHTTP(w, get)
		d.ServeHTTP(w, r)
	})).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodDelete, "/api/account/wallets/7", nil))
	if want := []string{"getWallet 42", "getWallet 7", "deleteWallet 7"}; !slices.Equal(ran, want) {
		t.Fatalf("ran %q, want %q", ran, want)
	}
}
