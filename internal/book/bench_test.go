package book_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

// BenchmarkEntryCreateInABook creates entries one after another in a
// member's personal ledger and, with X-Book-Id, in a book of theirs (a
// wallet and a category in each): what a book adds to the create (the
// selector's statement, the membership hold in the write's transaction,
// the roster read for the answer's names). Compare the two sub-benchmarks
// of one run; the personal one is the ledger's own BenchmarkEntryCreate
// without its floor.
func BenchmarkEntryCreateInABook(b *testing.B) {
	env := apitest.New(b)
	m := env.NewMember(apitest.AsPremium())
	var bk api.Book
	m.Do(http.MethodPost, "/api/books", api.BookRequest{Name: "Home"}).Want(http.StatusCreated).JSON(&bk)
	for _, c := range []struct {
		name string
		c    *apitest.Client
	}{
		{"personal", m.Client},
		{"book", m.Client.WithHeader("X-Book-Id", strconv.FormatInt(bk.ID, 10))},
	} {
		w := lt.Wallet(c.c, "Card", api.WalletTypeCard, 0)
		cat := lt.Category(c.c, "Food", api.EntryTypeExpense, nil)
		body := api.EntryRequest{Date: lt.Date(2026, 11, 16), Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](4500), WalletID: &w.ID, CategoryID: &cat.ID}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if res := c.c.Do(http.MethodPost, "/api/account/entries", body); res.Status != http.StatusCreated {
					b.Fatalf("create answered %d %s", res.Status, res.Body)
				}
			}
		})
	}
}
