package transfer_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/database"
)

// A transfer's update goes through the ledger's entry checks: a fee entry
// the member re-filed as income under an income category cannot become an
// expense again with that category (400 naming the fee), and nothing of the
// transfer changes.
func TestTransferUpdateKeepsTheLedgerChecksOfItsFee(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 100_000)
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	body := api.TransferRequest{Date: lt.Date(2026, 11, 20), Amount: 50_000, FromWalletID: bank.ID, ToWalletID: cash.ID, Fee: lt.Ptr[int64](1_300)}
	tr := createTransfer(t, m, body)
	salary := lt.Category(m.Client, "Salary", api.EntryTypeIncome, nil)
	refiled := lt.Income(lt.Date(2026, 11, 20), 1_300, bank.ID)
	refiled.CategoryID = &salary.ID
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/entries/%d", *tr.FeeEntryID), refiled).Want(http.StatusOK)

	body.Fee = lt.Ptr[int64](2_000)
	p := m.Do(http.MethodPut, transferPath(tr.ID), body).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	if len(p.Errors) != 1 || p.Errors[0].Field != "/fee" {
		t.Fatalf("problem %+v, want one error naming /fee", p)
	}
	var fee api.Entry
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", *tr.FeeEntryID), nil).Want(http.StatusOK).JSON(&fee)
	if string(fee.Type) != string(api.EntryTypeIncome) || fee.Amount != 1_300 || fee.CategoryID == nil || *fee.CategoryID != salary.ID {
		t.Fatalf("fee entry %+v changed by a refused update", fee)
	}
	var got api.Transfer
	m.Do(http.MethodGet, transferPath(tr.ID), nil).Want(http.StatusOK).JSON(&got)
	if got.Fee == nil || *got.Fee != 1_300 {
		t.Fatalf("transfer %+v changed by a refused update", got)
	}
}

// A transfer update that moves a side to a wallet and that wallet's
// deletion, released together round after round: the update answers 200 or
// 404 (the wallet went first), the deletion 204 or 409 (the side landed
// first), never 500, and nothing deadlocks.
func TestTransferUpdateAgainstWalletDeletion(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium()) // more wallets than a FREE member may hold
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 100_000)
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	tr := createTransfer(t, m, api.TransferRequest{Date: lt.Date(2026, 11, 20), Amount: 1_000, FromWalletID: bank.ID, ToWalletID: cash.ID, Fee: lt.Ptr[int64](100)})
	const rounds = 10
	walletFirst, sideFirst := 0, 0
	for round := range rounds {
		target := lt.Wallet(m.Client, fmt.Sprintf("Target %d", round), api.WalletTypeCash, 0)
		body := api.TransferRequest{Date: lt.Date(2026, 11, 20), Amount: 1_000, FromWalletID: bank.ID, ToWalletID: target.ID, Fee: lt.Ptr[int64](100)}
		answers := apitest.TogetherV(2, func(i int) *apitest.Response {
			if i == 0 {
				return m.Do(http.MethodPut, transferPath(tr.ID), body)
			}
			return m.Do(http.MethodDelete, fmt.Sprintf("/api/account/wallets/%d", target.ID), nil)
		})
		update, deletion := answers[0].Status, answers[1].Status
		switch {
		case update == http.StatusOK && deletion == http.StatusConflict:
			sideFirst++
		case update == http.StatusNotFound && deletion == http.StatusNoContent:
			walletFirst++
		default:
			t.Errorf("round %d: update %d (%s), deletion %d (%s)", round, update, answers[0].Body, deletion, answers[1].Body)
		}
		// Back to the cash wallet for the next round.
		body.ToWalletID = cash.ID
		m.Do(http.MethodPut, transferPath(tr.ID), body).Want(http.StatusOK)
	}
	if n := database.Retried(env.Pool); n != 0 {
		t.Errorf("%d transactions deadlocked and were run again", n)
	}
	t.Logf("the wallet's deletion went first in %d rounds, the transfer's side in %d", walletFirst, sideFirst)
}
