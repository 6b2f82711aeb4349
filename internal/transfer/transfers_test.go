package transfer_test

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

func transferPath(id int64) string { return fmt.Sprintf("/api/account/transfers/%d", id) }

func createTransfer(t *testing.T, m *apitest.Member, body api.TransferRequest) api.Transfer {
	t.Helper()
	var out api.Transfer
	m.Do(http.MethodPost, "/api/account/transfers", body).Want(http.StatusCreated).JSON(&out)
	return out
}

func balance(t *testing.T, m *apitest.Member, walletID int64) int64 {
	t.Helper()
	var w api.Wallet
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", walletID), nil).Want(http.StatusOK).JSON(&w)
	return w.Balance
}

func monthEntries(t *testing.T, m *apitest.Member, query string) api.EntryPage {
	t.Helper()
	var page api.EntryPage
	m.Do(http.MethodGet, "/api/account/entries?year=2026&month=11&size=100"+query, nil).Want(http.StatusOK).JSON(&page)
	return page
}

// TestCardBillTransferLeavesExpenseTotalsAndMovesBalances: paying the card
// bill from the bank changes neither the month's income nor its expense, and
// moves both balances; the card's balance is opening − expenses + payments.
func TestCardBillTransferLeavesExpenseTotalsAndMovesBalances(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 1_000_000)
	card := lt.Wallet(m.Client, "Card", api.WalletTypeCard, 0)
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 3), 120_000, card.ID))
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 9), 80_000, card.ID))
	lt.Entry(m.Client, lt.Income(lt.Date(2026, 11, 10), 3_000_000, bank.ID))

	before := monthEntries(t, m, "")
	if before.Summary.Expense != 200_000 || before.Summary.Income != 3_000_000 {
		t.Fatalf("summary before %+v", before.Summary)
	}
	if b := balance(t, m, card.ID); b != -200_000 {
		t.Fatalf("card balance before the payment %d, want -200000 (owed)", b)
	}

	tr := createTransfer(t, m, api.TransferRequest{
		Date: lt.Date(2026, 11, 25), Amount: 150_000, FromWalletID: bank.ID, ToWalletID: card.ID, Memo: lt.Ptr("Card bill"),
	})
	if *tr.FromWalletID != bank.ID || *tr.ToWalletID != card.ID || tr.Amount != 150_000 || tr.Fee != nil || tr.FeeEntryID != nil || tr.Memo != "Card bill" {
		t.Fatalf("transfer %+v", tr)
	}

	after := monthEntries(t, m, "")
	if after.Summary != before.Summary {
		t.Fatalf("summary with the card bill %+v, without %+v", after.Summary, before.Summary)
	}
	if after.Total != before.Total+2 {
		t.Fatalf("entries %d, want the %d before and the transfer's two sides", after.Total, before.Total)
	}
	if b := balance(t, m, bank.ID); b != 1_000_000+3_000_000-150_000 {
		t.Fatalf("bank balance %d", b)
	}
	if b := balance(t, m, card.ID); b != 0-200_000+150_000 {
		t.Fatalf("card balance %d, want opening − expenses + payments = -50000", b)
	}

	// The list carries transferId on both sides, null elsewhere, and filters.
	sides := monthEntries(t, m, "&transfer=true")
	if sides.Total != 2 || sides.Summary.Income != 0 || sides.Summary.Expense != 0 {
		t.Fatalf("transfer entries %+v", sides)
	}
	for _, e := range sides.Items {
		if e.TransferID == nil || *e.TransferID != tr.ID || e.Amount != 150_000 || e.CategoryID != nil {
			t.Fatalf("side %+v", e)
		}
		switch e.ID {
		case tr.FromEntryID:
			if string(e.Type) != "expense" || *e.WalletID != bank.ID {
				t.Fatalf("from side %+v", e)
			}
		case tr.ToEntryID:
			if string(e.Type) != "income" || *e.WalletID != card.ID {
				t.Fatalf("to side %+v", e)
			}
		default:
			t.Fatalf("entry %d is not a side of transfer %d", e.ID, tr.ID)
		}
	}
	others := monthEntries(t, m, "&transfer=false")
	if others.Total != before.Total || others.Summary != before.Summary {
		t.Fatalf("entries without transfers %+v", others)
	}
	for _, e := range others.Items {
		if e.TransferID != nil {
			t.Fatalf("ordinary entry with transferId %+v", e)
		}
	}
}

// TestTransferFeeIsAnExpense: a fee is an ordinary expense of the from
// wallet, counted in expense totals, that follows the transfer's changes.
func TestTransferFeeIsAnExpense(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 100_000)
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	tr := createTransfer(t, m, api.TransferRequest{
		Date: lt.Date(2026, 11, 20), Amount: 50_000, FromWalletID: bank.ID, ToWalletID: cash.ID, Fee: lt.Ptr[int64](1_300), Memo: lt.Ptr("ATM"),
	})
	if tr.Fee == nil || *tr.Fee != 1_300 || tr.FeeEntryID == nil {
		t.Fatalf("transfer %+v", tr)
	}
	var fee api.Entry
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", *tr.FeeEntryID), nil).Want(http.StatusOK).JSON(&fee)
	if string(fee.Type) != "expense" || fee.Amount != 1_300 || *fee.WalletID != bank.ID || fee.TransferID != nil {
		t.Fatalf("fee entry %+v", fee)
	}
	if s := monthEntries(t, m, "").Summary; s.Expense != 1_300 || s.Income != 0 {
		t.Fatalf("summary %+v, want the fee as the only expense", s)
	}
	if b := balance(t, m, bank.ID); b != 100_000-50_000-1_300 {
		t.Fatalf("bank balance %d", b)
	}
	if b := balance(t, m, cash.ID); b != 50_000 {
		t.Fatalf("cash balance %d", b)
	}

	// A changed fee changes the same entry; a fee of 0 removes it; a new
	// one is created.
	body := api.TransferRequest{Date: lt.Date(2026, 11, 21), Amount: 60_000, FromWalletID: bank.ID, ToWalletID: cash.ID, Fee: lt.Ptr[int64](900)}
	var up api.Transfer
	m.Do(http.MethodPut, transferPath(tr.ID), body).Want(http.StatusOK).JSON(&up)
	if *up.FeeEntryID != *tr.FeeEntryID || *up.Fee != 900 || up.FromEntryID != tr.FromEntryID || up.ToEntryID != tr.ToEntryID || up.Amount != 60_000 || up.Memo != "" {
		t.Fatalf("updated %+v", up)
	}
	body.Fee = lt.Ptr[int64](0)
	m.Do(http.MethodPut, transferPath(tr.ID), body).Want(http.StatusOK).JSON(&up)
	if up.Fee != nil || up.FeeEntryID != nil {
		t.Fatalf("fee not removed: %+v", up)
	}
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", *tr.FeeEntryID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	body.Fee = lt.Ptr[int64](500)
	m.Do(http.MethodPut, transferPath(tr.ID), body).Want(http.StatusOK).JSON(&up)
	if up.Fee == nil || *up.Fee != 500 {
		t.Fatalf("fee not added back: %+v", up)
	}
	if b := balance(t, m, bank.ID); b != 100_000-60_000-500 {
		t.Fatalf("bank balance after updates %d", b)
	}

	// The fee entry is ordinary: the member may delete it; the transfer then has none.
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/entries/%d", *up.FeeEntryID), nil).Want(http.StatusNoContent)
	var got api.Transfer
	m.Do(http.MethodGet, transferPath(tr.ID), nil).Want(http.StatusOK).JSON(&got)
	if got.Fee != nil || got.FeeEntryID != nil {
		t.Fatalf("transfer after its fee entry was deleted %+v", got)
	}
	body.Fee = lt.Ptr[int64](700)
	m.Do(http.MethodPut, transferPath(tr.ID), body).Want(http.StatusOK).JSON(&up)

	// Deleting the transfer deletes its sides and its fee entry.
	m.Do(http.MethodDelete, transferPath(tr.ID), nil).Want(http.StatusNoContent)
	m.Do(http.MethodGet, transferPath(tr.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	if page := monthEntries(t, m, ""); page.Total != 0 {
		t.Fatalf("entries left after deleting the transfer: %+v", page.Items)
	}
	if b := balance(t, m, bank.ID); b != 100_000 {
		t.Fatalf("bank balance after delete %d", b)
	}
}

// TestTransferLifecycle: list, get, update moving the wallets, and the
// sides refuse direct changes with a 409 naming the transfer.
func TestTransferLifecycle(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	savings := lt.Wallet(m.Client, "Savings", api.WalletTypeSavings, 0)
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	a := createTransfer(t, m, api.TransferRequest{Date: lt.Date(2026, 11, 1), Amount: 10, FromWalletID: bank.ID, ToWalletID: savings.ID})
	b := createTransfer(t, m, api.TransferRequest{Date: lt.Date(2026, 11, 5), Amount: 20, FromWalletID: bank.ID, ToWalletID: cash.ID})
	c := createTransfer(t, m, api.TransferRequest{Date: lt.Date(2026, 11, 3), Amount: 30, FromWalletID: cash.ID, ToWalletID: bank.ID})

	var page api.TransferPage
	m.Do(http.MethodGet, "/api/account/transfers?size=2", nil).Want(http.StatusOK).JSON(&page)
	if page.Total != 3 || len(page.Items) != 2 || page.Items[0].ID != b.ID || page.Items[1].ID != c.ID {
		t.Fatalf("first page %+v", page)
	}
	m.Do(http.MethodGet, "/api/account/transfers?size=2&page=2", nil).Want(http.StatusOK).JSON(&page)
	if len(page.Items) != 1 || !reflect.DeepEqual(page.Items[0], a) {
		t.Fatalf("second page %+v, want %+v", page, a)
	}

	var up api.Transfer
	m.Do(http.MethodPut, transferPath(a.ID), api.TransferRequest{
		Date: lt.Date(2026, 11, 2), Amount: 15, FromWalletID: savings.ID, ToWalletID: cash.ID, Memo: lt.Ptr("back"),
	}).Want(http.StatusOK).JSON(&up)
	if *up.FromWalletID != savings.ID || *up.ToWalletID != cash.ID || up.Amount != 15 || up.FromEntryID != a.FromEntryID {
		t.Fatalf("updated %+v", up)
	}
	var side api.Entry
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", up.ToEntryID), nil).Want(http.StatusOK).JSON(&side)
	if *side.WalletID != cash.ID || side.Amount != 15 || side.Memo != "back" || side.Date != lt.Date(2026, 11, 2) || *side.TransferID != a.ID {
		t.Fatalf("to side after update %+v", side)
	}
	// bank: -20 +30; savings: -15; cash: +20 -30 +15.
	for w, want := range map[int64]int64{bank.ID: 10, savings.ID: -15, cash.ID: 5} {
		if got := balance(t, m, w); got != want {
			t.Errorf("wallet %d balance %d, want %d", w, got, want)
		}
	}

	// One side changes only through its transfer; the 409 says which.
	for _, id := range []int64{up.FromEntryID, up.ToEntryID} {
		p := m.Do(http.MethodPut, fmt.Sprintf("/api/account/entries/%d", id), lt.Expense(lt.Date(2026, 11, 2), 1, bank.ID)).
			WantProblem(http.StatusConflict, "CONFLICT")
		if !strings.Contains(p.Detail, transferPath(a.ID)) {
			t.Errorf("409 detail %q does not name transfer %d", p.Detail, a.ID)
		}
		p = m.Do(http.MethodDelete, fmt.Sprintf("/api/account/entries/%d", id), nil).WantProblem(http.StatusConflict, "CONFLICT")
		if !strings.Contains(p.Detail, transferPath(a.ID)) {
			t.Errorf("409 detail %q does not name transfer %d", p.Detail, a.ID)
		}
	}

	m.Do(http.MethodDelete, transferPath(a.ID), nil).Want(http.StatusNoContent)
	m.Do(http.MethodDelete, transferPath(a.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	m.Do(http.MethodPut, transferPath(a.ID), api.TransferRequest{Date: lt.Date(2026, 11, 2), Amount: 1, FromWalletID: bank.ID, ToWalletID: cash.ID}).
		WantProblem(http.StatusNotFound, "NOT_FOUND")
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", up.FromEntryID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
}

// TestTransferRefusesBadInputAndOtherMembersRecords.
func TestTransferRefusesBadInputAndOtherMembersRecords(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	other := env.NewMember()
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	card := lt.Wallet(m.Client, "Card", api.WalletTypeCard, 0)
	foreign := lt.Wallet(other.Client, "Theirs", api.WalletTypeBank, 0)
	good := func() api.TransferRequest {
		return api.TransferRequest{Date: lt.Date(2026, 11, 25), Amount: 1000, FromWalletID: bank.ID, ToWalletID: card.ID}
	}
	tr := createTransfer(t, m, good())

	bad := map[string]func(*api.TransferRequest){
		"same wallet":    func(b *api.TransferRequest) { b.ToWalletID = b.FromWalletID },
		"long memo":      func(b *api.TransferRequest) { b.Memo = lt.Ptr(strings.Repeat("가", 201)) },
		"control memo":   func(b *api.TransferRequest) { b.Memo = lt.Ptr("card\x1bbill") },
		"bidi memo":      func(b *api.TransferRequest) { b.Memo = lt.Ptr("card\u2028bill") },
		"negative fee":   func(b *api.TransferRequest) { b.Fee = lt.Ptr[int64](-1) },
		"huge fee":       func(b *api.TransferRequest) { b.Fee = lt.Ptr[int64](1_000_000_000_000_001) },
		"huge amount":    func(b *api.TransferRequest) { b.Amount = 1_000_000_000_000_001 },
		"negative sum":   func(b *api.TransferRequest) { b.Amount = -5 },
		"huge memo":      func(b *api.TransferRequest) { b.Memo = lt.Ptr(strings.Repeat("x", 100_000)) },
		"zero wallet id": func(b *api.TransferRequest) { b.FromWalletID = 0 },
	}
	for name, change := range bad {
		body := good()
		change(&body)
		m.Raw().Do(http.MethodPost, "/api/account/transfers", body).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		m.Raw().Do(http.MethodPut, transferPath(tr.ID), body).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		_ = name
	}
	for name, raw := range map[string]string{
		"malformed":      `{"date":`,
		"missing date":   fmt.Sprintf(`{"amount":1,"fromWalletId":%d,"toWalletId":%d}`, bank.ID, card.ID),
		"missing wallet": `{"date":"2026-11-25","amount":1,"fromWalletId":1}`,
		"bad date":       fmt.Sprintf(`{"date":"2026-13-40","amount":1,"fromWalletId":%d,"toWalletId":%d}`, bank.ID, card.ID),
		"string amount":  fmt.Sprintf(`{"date":"2026-11-25","amount":"1","fromWalletId":%d,"toWalletId":%d}`, bank.ID, card.ID),
		"NUL memo":       fmt.Sprintf(`{"date":"2026-11-25","amount":1,"fromWalletId":%d,"toWalletId":%d,"memo":"a\u0000b"}`, bank.ID, card.ID),
	} {
		res := m.Raw().Do(http.MethodPost, "/api/account/transfers", raw)
		if res.Status != http.StatusBadRequest || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/problem+json") {
			t.Errorf("%s: %d %s", name, res.Status, res.Body)
		}
	}
	m.Raw().Do(http.MethodGet, "/api/account/transfers?size=101", nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")

	// Another member's wallet on either side, or a missing one, is a 404, and nothing is written.
	for _, change := range []func(*api.TransferRequest){
		func(b *api.TransferRequest) { b.FromWalletID = foreign.ID },
		func(b *api.TransferRequest) { b.ToWalletID = foreign.ID },
		func(b *api.TransferRequest) { b.ToWalletID = 1 << 50 },
	} {
		body := good()
		change(&body)
		m.Do(http.MethodPost, "/api/account/transfers", body).WantProblem(http.StatusNotFound, "NOT_FOUND")
		m.Do(http.MethodPut, transferPath(tr.ID), body).WantProblem(http.StatusNotFound, "NOT_FOUND")
	}
	// Another member's transfer is a 404 to every operation.
	other.Do(http.MethodGet, transferPath(tr.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	otherBody := api.TransferRequest{Date: lt.Date(2026, 11, 25), Amount: 1, FromWalletID: foreign.ID, ToWalletID: lt.Wallet(other.Client, "Cash", api.WalletTypeCash, 0).ID}
	other.Do(http.MethodPut, transferPath(tr.ID), otherBody).WantProblem(http.StatusNotFound, "NOT_FOUND")
	other.Do(http.MethodDelete, transferPath(tr.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	var page api.TransferPage
	other.Do(http.MethodGet, "/api/account/transfers", nil).Want(http.StatusOK).JSON(&page)
	if page.Total != 0 {
		t.Fatalf("other member sees %+v", page)
	}

	var got api.Transfer
	m.Do(http.MethodGet, transferPath(tr.ID), nil).Want(http.StatusOK).JSON(&got)
	if !reflect.DeepEqual(got, tr) {
		t.Fatalf("transfer changed by refused requests: %+v, was %+v", got, tr)
	}
	if n := monthEntries(t, m, "").Total; n != 2 {
		t.Fatalf("%d entries after refused requests, want the 2 sides", n)
	}
}

// TestParallelTransferChangesNeverHalfWrite: concurrent updates and a
// deletion of one transfer leave either no transfer and no sides, or a
// transfer whose sides and fee all agree with one of the requests.
func TestParallelTransferChangesNeverHalfWrite(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	wallets := []api.Wallet{
		lt.Wallet(m.Client, "A", api.WalletTypeBank, 0),
		lt.Wallet(m.Client, "B", api.WalletTypeCard, 0),
		lt.Wallet(m.Client, "C", api.WalletTypeCash, 0),
	}
	for round := range 4 {
		tr := createTransfer(t, m, api.TransferRequest{Date: lt.Date(2026, 11, 1), Amount: 1, FromWalletID: wallets[0].ID, ToWalletID: wallets[1].ID, Fee: lt.Ptr[int64](1)})
		deleting := round%2 == 1
		answers := apitest.TogetherV(8, func(i int) *apitest.Response {
			if deleting && i == 5 {
				return m.Do(http.MethodDelete, transferPath(tr.ID), nil)
			}
			body := api.TransferRequest{
				Date: lt.Date(2026, 11, 1+i), Amount: int64(100 * (i + 1)),
				FromWalletID: wallets[i%3].ID, ToWalletID: wallets[(i+1)%3].ID, Fee: lt.Ptr(int64(i % 3)),
			}
			return m.Do(http.MethodPut, transferPath(tr.ID), body)
		})
		for i, res := range answers {
			switch {
			case deleting && i == 5:
				if res.Status != http.StatusNoContent {
					t.Errorf("round %d: delete: %d %s", round, res.Status, res.Body)
				}
			case res.Status == http.StatusNotFound && !deleting:
				t.Errorf("round %d: update %d found no transfer, and nothing deleted it", round, i)
			case res.Status != http.StatusOK && res.Status != http.StatusNotFound:
				t.Errorf("round %d: update %d: %d %s", round, i, res.Status, res.Body)
			}
		}
		var sides, amountsAgree, feeEntries int
		err := env.Pool.QueryRow(context.Background(), `
			SELECT count(e.*),
			       count(e.*) FILTER (WHERE e.amount = t.amount AND e.entry_date = t.transfer_date),
			       (SELECT count(*) FROM account_entry WHERE member_id = $2 AND transfer_id IS NULL)
			FROM transfer t JOIN account_entry e ON e.transfer_id = t.id WHERE t.id = $1`, tr.ID, m.ID).Scan(&sides, &amountsAgree, &feeEntries)
		if err != nil {
			t.Fatal(err)
		}
		// The deletion always goes through, whichever update came before
		// or after it: the transfer is gone exactly in the deleting rounds.
		res := m.Do(http.MethodGet, transferPath(tr.ID), nil)
		if want := map[bool]int{true: http.StatusNotFound, false: http.StatusOK}[deleting]; res.Status != want {
			t.Fatalf("round %d: the transfer reads back %d, want %d", round, res.Status, want)
		}
		if res.Status == http.StatusNotFound {
			if sides != 0 || feeEntries != 0 {
				t.Fatalf("round %d: deleted transfer left %d sides and %d fee entries", round, sides, feeEntries)
			}
			continue
		}
		var got api.Transfer
		res.Want(http.StatusOK).JSON(&got)
		i := int(got.Amount/100) - 1
		wantFee := int64(i % 3)
		if sides != 2 || amountsAgree != 2 || *got.FromWalletID != wallets[i%3].ID || *got.ToWalletID != wallets[(i+1)%3].ID ||
			got.Date != lt.Date(2026, 11, 1+i) || (wantFee == 0) != (got.Fee == nil) || (got.Fee != nil && *got.Fee != wantFee) ||
			int64(feeEntries) != min(wantFee, 1) {
			t.Fatalf("round %d: half-written transfer %+v (sides %d, agreeing %d, fee entries %d)", round, got, sides, amountsAgree, feeEntries)
		}
		m.Do(http.MethodDelete, transferPath(tr.ID), nil).Want(http.StatusNoContent)
	}
}

// TestDeletingATransferWalletMovesItsSide: a wallet with a transfer side is
// deleted only by moving its entries, and the transfer then names the wallet
// they moved to.
func TestDeletingATransferWalletMovesItsSide(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	card := lt.Wallet(m.Client, "Card", api.WalletTypeCard, 0)
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	tr := createTransfer(t, m, api.TransferRequest{Date: lt.Date(2026, 11, 25), Amount: 700, FromWalletID: bank.ID, ToWalletID: card.ID})
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/wallets/%d", bank.ID), nil).WantProblem(http.StatusConflict, "CONFLICT")
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/wallets/%d?moveTo=%d", bank.ID, cash.ID), nil).Want(http.StatusNoContent)
	var got api.Transfer
	m.Do(http.MethodGet, transferPath(tr.ID), nil).Want(http.StatusOK).JSON(&got)
	if *got.FromWalletID != cash.ID || *got.ToWalletID != card.ID {
		t.Fatalf("transfer after its wallet moved %+v", got)
	}
	if b := balance(t, m, cash.ID); b != -700 {
		t.Fatalf("cash balance %d", b)
	}
}
