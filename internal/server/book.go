package server

import (
	"net/http"
	"strings"

	"github.com/nestegg/nestegg/internal/book"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// bookParam is the shared parameter an operation declares to take the book
// selector: the contract says which operations act in a household book.
const bookParam = "#/components/parameters/BookId"

// bookOwnerOnly are the book operations only an OWNER of the book may call
// (DECISIONS section 10: backup and restore).
var bookOwnerOnly = map[string]bool{"getBackup": true, "restoreBackup": true}

// withBook makes a member's request with X-Book-Id act in that household
// book (book.Select) when its operation declares the header: every layer
// after it (heavy leases, access gates, idempotency, versions, handlers)
// sees the book's principal. An /api/account operation that does not
// declare it (investments, net worth, parsing) is 400 naming the header;
// anonymous requests and requests without it pass unchanged.
func withBook(c *Contract, books *book.Books, next http.Handler) http.Handler {
	if books == nil {
		return next
	}
	ops := map[string]bool{}
	for _, item := range c.Doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, p := range op.Parameters {
				if p.Ref == bookParam {
					ops[op.OperationID] = true
				}
			}
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw := r.Header.Get(book.Header)
		p := session.PrincipalFrom(r.Context())
		if raw == "" || p == nil {
			next.ServeHTTP(w, r)
			return
		}
		op := infoFrom(r.Context()).Operation
		if !ops[op] {
			if strings.HasPrefix(r.URL.Path, "/api/account/") {
				problem.Write(w, r, problem.Invalid(book.Header, "this operation acts on your personal records only: send it without "+book.Header))
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		write := r.Method != http.MethodGet && r.Method != http.MethodHead
		in, err := books.Select(r.Context(), p, raw, book.Access{Write: write, OwnerOnly: bookOwnerOnly[op]})
		if err != nil {
			problem.Write(w, r, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(session.WithPrincipal(r.Context(), in)))
	})
}
