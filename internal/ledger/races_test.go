package ledger_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/ledger/ledgertest"
)

// TestDeletingAWalletWhileEntriesArriveNeverHalfWrites: entries created into
// a wallet while it is deleted either land (and the deletion is refused) or
// are refused as not found; nothing answers 500 and no entry is left pointing
// at a deleted wallet.
func TestDeletingAWalletWhileEntriesArriveNeverHalfWrites(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	for round := range 5 {
		w := lt.Wallet(m.Client, fmt.Sprintf("Doomed %d", round), api.WalletTypeCash, 0)
		var wg sync.WaitGroup
		var deleted int
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if i == 4 {
					res := m.Do(http.MethodDelete, fmt.Sprintf("/api/account/wallets/%d", w.ID), nil)
					if res.Status != http.StatusNoContent && res.Status != http.StatusConflict {
						t.Errorf("delete: %d %s", res.Status, res.Body)
					}
					if res.Status == http.StatusNoContent {
						deleted = 1
					}
					return
				}
				res := m.Do(http.MethodPost, "/api/account/entries", lt.Expense(lt.Date(2026, 11, 16), 100, w.ID))
				if res.Status != http.StatusCreated && res.Status != http.StatusNotFound {
					t.Errorf("create entry: %d %s", res.Status, res.Body)
				}
			}()
		}
		wg.Wait()
		var wallets, orphans int
		if err := env.Pool.QueryRow(context.Background(), `SELECT count(*) FROM wallet WHERE id = $1`, w.ID).Scan(&wallets); err != nil {
			t.Fatal(err)
		}
		if err := env.Pool.QueryRow(context.Background(), `SELECT count(*) FROM account_entry WHERE wallet_id = $1 AND NOT EXISTS (SELECT 1 FROM wallet WHERE id = $1)`, w.ID).Scan(&orphans); err != nil {
			t.Fatal(err)
		}
		if wallets+deleted != 1 || orphans != 0 {
			t.Fatalf("round %d: wallet rows %d, deleted %d, orphaned entries %d", round, wallets, deleted, orphans)
		}
	}
}
