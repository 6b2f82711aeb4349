package server

import (
	"net/http"

	"github.com/nestegg/nestegg/internal/idempotency"
	"github.com/nestegg/nestegg/internal/session"
)

// idempotencyParam is the shared parameter an operation declares to take an
// Idempotency-Key: the contract says which operations do.
const idempotencyParam = "#/components/parameters/IdempotencyKey"

// withIdempotency hands a member's request with an Idempotency-Key to store
// when its operation declares the header (the contract layer in front has
// checked the key's length). Other requests, and anonymous ones, pass.
func withIdempotency(c *Contract, store *idempotency.Store, next http.Handler) http.Handler {
	if store == nil {
		return next
	}
	ops := map[string]bool{}
	for _, item := range c.Doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, p := range op.Parameters {
				if p.Ref == idempotencyParam {
					ops[op.OperationID] = true
				}
			}
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get(idempotency.Header)
		p := session.PrincipalFrom(r.Context())
		if key == "" || p == nil || !ops[infoFrom(r.Context()).Operation] {
			next.ServeHTTP(w, r)
			return
		}
		// Keys are scoped to the member and the book (DECISIONS section 10).
		store.Serve(w, r, p.ActorID(), p.BookID(), key, next)
	})
}
