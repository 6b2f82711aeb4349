package server

import (
	"net/http"
	"time"

	"github.com/nestegg/nestegg/internal/heavy"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// withHeavy admits a member's request to an operation the contract marks
// `x-heavy: true` through gate (package heavy): one at a time per member,
// a few at once per replica. It runs before the body is read, so a request
// turned away costs no memory for its body. Other requests pass.
func withHeavy(c *Contract, gate *heavy.Gate, next http.Handler) http.Handler {
	if gate == nil {
		return next
	}
	ops := map[string]bool{}
	for _, item := range c.Doc.Paths.Map() {
		for _, op := range item.Operations() {
			if v, _ := op.Extensions["x-heavy"].(bool); v {
				ops[op.OperationID] = true
			}
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := session.PrincipalFrom(r.Context())
		op := infoFrom(r.Context()).Operation
		if p == nil || !ops[op] {
			next.ServeHTTP(w, r)
			return
		}
		// The lease outlives the request's deadline a little: it is given
		// back when the request ends, and a dead replica's lease ends soon
		// after the request would have.
		lease := requestDeadline
		if d, ok := r.Context().Deadline(); ok {
			lease = time.Until(d)
		}
		release, err := gate.Admit(r.Context(), p.MemberID, op, lease+5*time.Second)
		if err != nil {
			problem.Write(w, r, err)
			return
		}
		defer release()
		next.ServeHTTP(w, r)
	})
}
