package transfer

import (
	"github.com/nestegg/nestegg/internal/ledger"
)

// moveTotals notes what a transfer moves in the totals the ledger's write
// check keeps (ledger.CheckTotalsTx): its sides move their wallets'
// balances (and no month's income or expense), its fee is an expense of the
// paying wallet and of its month. old is the transfer before the write (nil
// for a create), new after it (nil for a deletion). A fee that kept its day
// and did not grow adds nothing to its month.
func moveTotals(old, new *Transfer) *ledger.Totals {
	var t ledger.Totals
	sides := func(tr *Transfer, undo bool) {
		t.Move(tr.FromWalletID, ledger.TypeExpense, tr.Amount, tr.TransferDate, true, undo)
		t.Move(tr.ToWalletID, ledger.TypeIncome, tr.Amount, tr.TransferDate, true, undo)
	}
	fee := func(tr *Transfer) int64 {
		if tr == nil || tr.Fee == nil {
			return 0
		}
		return *tr.Fee
	}
	if old != nil {
		sides(old, true)
		t.Move(old.FromWalletID, ledger.TypeExpense, fee(old), old.TransferDate, true, true)
	}
	if new != nil {
		sides(new, false)
		same := old != nil && old.TransferDate.Equal(new.TransferDate) && fee(new) <= fee(old)
		t.Move(new.FromWalletID, ledger.TypeExpense, fee(new), new.TransferDate, same, false)
	}
	return &t
}
