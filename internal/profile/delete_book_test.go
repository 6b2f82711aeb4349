package profile_test

import (
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

func init() {
	memberFillers = append(memberFillers, memberFiller{order: 85, area: "book", fill: func(t *testing.T, env *apitest.Env, m *apitest.Member) {
		// book_member: a book of their own (the only member: it goes with
		// them, internal/book).
		m.Do(http.MethodPost, "/api/books", api.BookRequest{Name: "Home"}).Want(http.StatusCreated)
		// book.ledger_member_id names a book's ledger owner, a row of kind
		// BOOK; structurally any member row, so this one is the member's.
		env.Exec(`INSERT INTO book (ledger_member_id, name) VALUES ($1, 'As ledger owner')`, m.ID)
	}})
}
