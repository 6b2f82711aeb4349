package transfer_test

import (
	"context"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/transfer"
)

// A transfer's create writes each side once, as the transfer's, in its
// INSERT: no UPDATE of account_entry (which fired the feed's, the rollup's
// and the version's triggers a second time for both sides), and the sides
// come back linked. With a fee, three entries.
func TestTransferCreateWritesEachSideOnce(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	ctx := context.Background()
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0).ID
	card := lt.Wallet(m.Client, "Card", api.WalletTypeCard, 0).ID
	day := time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)
	for _, fee := range []int64{0, 500} {
		var tr transfer.Transfer
		moved := env.CountWithin(func(q *db.Queries) (err error) {
			in := transfer.Input{
				From: ledger.EntryInput{Date: day, Type: ledger.TypeExpense, Amount: 120_000, WalletID: &bank},
				To:   ledger.EntryInput{Date: day, Type: ledger.TypeIncome, Amount: 120_000, WalletID: &card},
				Fee:  fee,
			}
			tr, err = transfer.CreateTx(ctx, q, m.ID, in)
			return err
		}, `SELECT ARRAY[pg_stat_get_xact_tuples_inserted('account_entry'::regclass),
			pg_stat_get_xact_tuples_updated('account_entry'::regclass)]`)
		inserted, updated := moved[0], moved[1]
		want := int64(2)
		if fee > 0 {
			want = 3
		}
		if inserted != want || updated != 0 {
			t.Errorf("fee %d: the create inserted %d entries and updated %d, want %d and 0", fee, inserted, updated, want)
		}
		var sides []int64
		if err := env.Pool.QueryRow(ctx, `SELECT array_agg(wallet_id ORDER BY type) FROM account_entry WHERE member_id = $1 AND transfer_id = $2`,
			m.ID, tr.ID).Scan(&sides); err != nil {
			t.Fatal(err)
		}
		if len(sides) != 2 || sides[0] != bank || sides[1] != card {
			t.Errorf("fee %d: the transfer's sides are in wallets %v, want [%d %d] (expense, income)", fee, sides, bank, card)
		}
	}
}
