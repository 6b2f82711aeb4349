package ledger_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

// TestDeletingAWalletWhileEntriesArriveNeverHalfWrites: entries created into
// a wallet while it is deleted either land (and the deletion is refused) or
// are refused as not found; nothing answers 500 and no entry is left pointing
// at a deleted wallet.
func TestDeletingAWalletWhileEntriesArriveNeverHalfWrites(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	// Rounds go on until the deletion has won at least once (every entry
	// refused as not found) or 25 were run, and at least 5.
	deleteWon := 0
	round := 0
	for ; round < 5 || (deleteWon == 0 && round < 25); round++ {
		w := lt.Wallet(m.Client, fmt.Sprintf("Doomed %d", round), api.WalletTypeCash, 0)
		answers := apitest.TogetherV(4, func(i int) *apitest.Response {
			if i == 0 {
				return m.Do(http.MethodDelete, fmt.Sprintf("/api/account/wallets/%d", w.ID), nil)
			}
			return m.Do(http.MethodPost, "/api/account/entries", lt.Expense(lt.Date(2026, 11, 16), 100, w.ID))
		})
		deleted := 0
		switch res := answers[0]; res.Status {
		case http.StatusNoContent:
			deleted = 1
			deleteWon++
		case http.StatusConflict:
		default:
			t.Errorf("delete: %d %s", res.Status, res.Body)
		}
		for _, res := range answers[1:] {
			if res.Status != http.StatusCreated && res.Status != http.StatusNotFound {
				t.Errorf("create entry: %d %s", res.Status, res.Body)
			}
			if deleted == 1 && res.Status == http.StatusCreated {
				t.Errorf("round %d: an entry was created into a wallet whose deletion went through", round)
			}
		}
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
	// Which request goes first is up to the scheduler: on a loaded 2-core
	// machine the deletion, which locks the ledger, can lose every round.
	// The assertions above hold whichever went first; this says which ran.
	t.Logf("the deletion went first in %d of %d rounds", deleteWon, round)
}
