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

// A transfer answers its fee, so an edit of the fee entry's amount through
// the entries API is a new version of the transfer: a PUT of the transfer
// with the ETag read before it is 412, and does not put the old fee back
// (issue 41's lost update). A GET shows the new fee under a new ETag.
func TestStaleIfMatchOnATransferAfterItsFeeWasEditedIs412(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 100_000)
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	body := api.TransferRequest{Date: lt.Date(2026, 11, 20), Amount: 50_000, FromWalletID: bank.ID, ToWalletID: cash.ID, Fee: lt.Ptr[int64](1_300)}
	tr := createTransfer(t, m, body)
	before := m.Do(http.MethodGet, transferPath(tr.ID), nil).Want(http.StatusOK).Header.Get("ETag")

	// A memo of the fee entry is not in the transfer's answer: same version.
	memo := lt.Expense(lt.Date(2026, 11, 20), 1_300, bank.ID)
	memo.Memo = lt.Ptr("bank fee")
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/entries/%d", *tr.FeeEntryID), memo).Want(http.StatusOK)
	m.WithHeader("If-Match", before).Do(http.MethodPut, transferPath(tr.ID), body).Want(http.StatusOK)
	before = m.Do(http.MethodGet, transferPath(tr.ID), nil).Want(http.StatusOK).Header.Get("ETag")

	m.Do(http.MethodPut, fmt.Sprintf("/api/account/entries/%d", *tr.FeeEntryID), lt.Expense(lt.Date(2026, 11, 20), 2_000, bank.ID)).Want(http.StatusOK)
	m.WithHeader("If-Match", before).Do(http.MethodPut, transferPath(tr.ID), body).WantProblem(http.StatusPreconditionFailed, "PRECONDITION_FAILED")

	var now api.Transfer
	res := m.Do(http.MethodGet, transferPath(tr.ID), nil).Want(http.StatusOK)
	res.JSON(&now)
	if now.Fee == nil || *now.Fee != 2_000 {
		t.Fatalf("fee %v after a refused stale update, want the edited 2000", now.Fee)
	}
	if res.Header.Get("ETag") == before {
		t.Fatalf("the transfer's ETag %s did not change when its fee was edited", before)
	}
	// With the current ETag the transfer's own edit goes through.
	m.WithHeader("If-Match", res.Header.Get("ETag")).Do(http.MethodPut, transferPath(tr.ID), body).Want(http.StatusOK)
}

// TestTransferEditsWhileItsFeeIsEdited: the transfer's edit and its fee
// entry's edit through the entries API, released together, lock in one
// order (transfer, then entry): both answer 200, nothing runs again after
// a deadlock, and the transfer's fee is its fee entry's amount.
func TestTransferEditsWhileItsFeeIsEdited(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 100_000)
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	body := api.TransferRequest{Date: lt.Date(2026, 11, 20), Amount: 50_000, FromWalletID: bank.ID, ToWalletID: cash.ID, Fee: lt.Ptr[int64](1_000)}
	tr := createTransfer(t, m, body)
	retried := database.Retried(env.Pool)
	for round := range 12 {
		edit := body
		edit.Fee = lt.Ptr(int64(2_000 + round))
		answers := apitest.TogetherV(3, func(i int) *apitest.Response {
			switch i {
			case 0:
				return m.Do(http.MethodPut, transferPath(tr.ID), edit)
			case 1:
				return m.Do(http.MethodPut, fmt.Sprintf("/api/account/entries/%d", *tr.FeeEntryID), lt.Expense(lt.Date(2026, 11, 20), int64(3_000+round), bank.ID))
			default:
				return m.Do(http.MethodDelete, fmt.Sprintf("/api/account/entries/%d", tr.ToEntryID), nil)
			}
		})
		if answers[0].Status != http.StatusOK || answers[1].Status != http.StatusOK {
			t.Fatalf("round %d: transfer %d %s, fee %d %s", round, answers[0].Status, answers[0].Body, answers[1].Status, answers[1].Body)
		}
		// A side of a transfer is not deleted through the entries API.
		answers[2].WantProblem(http.StatusConflict, "CONFLICT")
		var now api.Transfer
		m.Do(http.MethodGet, transferPath(tr.ID), nil).Want(http.StatusOK).JSON(&now)
		var fee api.Entry
		m.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", *tr.FeeEntryID), nil).Want(http.StatusOK).JSON(&fee)
		if now.Fee == nil || *now.Fee != fee.Amount {
			t.Fatalf("round %d: the transfer answers fee %v, its fee entry %d", round, now.Fee, fee.Amount)
		}
	}
	if n := database.Retried(env.Pool) - retried; n != 0 {
		t.Fatalf("%d transactions ran again after a deadlock: the two edits lock in different orders", n)
	}
}
