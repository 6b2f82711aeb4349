package transfer_test

import (
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

// TestTransferListFiltersByLedgerMonthAndRange: year and month read the
// member's ledger month (from its start day), from and to a day range, and
// half pairs or both kinds at once are 400 naming the parameter.
func TestTransferListFiltersByLedgerMonthAndRange(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	m.Do(http.MethodPut, "/api/auth/profile", api.UpdateProfileRequest{Name: "Payday", MonthStartDay: lt.Ptr[int32](25)}).Want(http.StatusOK)
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	// The ledger month "2026-10" of a member paid on the 25th runs from
	// 25 October to 24 November.
	before := createTransfer(t, m, api.TransferRequest{Date: lt.Date(2026, 10, 24), Amount: 1, FromWalletID: bank.ID, ToWalletID: cash.ID})
	first := createTransfer(t, m, api.TransferRequest{Date: lt.Date(2026, 10, 25), Amount: 2, FromWalletID: bank.ID, ToWalletID: cash.ID})
	last := createTransfer(t, m, api.TransferRequest{Date: lt.Date(2026, 11, 24), Amount: 3, FromWalletID: bank.ID, ToWalletID: cash.ID})
	after := createTransfer(t, m, api.TransferRequest{Date: lt.Date(2026, 11, 25), Amount: 4, FromWalletID: bank.ID, ToWalletID: cash.ID})

	ids := func(query string) []int64 {
		t.Helper()
		var page api.TransferPage
		m.Do(http.MethodGet, "/api/account/transfers"+query, nil).Want(http.StatusOK).JSON(&page)
		out := make([]int64, len(page.Items))
		for i, tr := range page.Items {
			out[i] = tr.ID
		}
		if int(page.Total) != len(out) {
			t.Errorf("%s: total %d for %d items", query, page.Total, len(out))
		}
		return out
	}
	same := func(query string, got []int64, want ...int64) {
		t.Helper()
		if len(got) != len(want) {
			t.Errorf("%s: %v, want %v", query, got, want)
			return
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: %v, want %v", query, got, want)
				return
			}
		}
	}
	same("all", ids(""), after.ID, last.ID, first.ID, before.ID)
	same("month", ids("?year=2026&month=10"), last.ID, first.ID)
	same("next month", ids("?year=2026&month=11"), after.ID)
	same("range", ids("?from=2026-11-24&to=2026-11-25"), after.ID, last.ID)

	for query, param := range map[string]string{
		"?year=2026":       "year",
		"?month=11":        "year",
		"?from=2026-11-01": "from",
		"?to=2026-11-01":   "from",
		"?year=2026&month=11&from=2026-11-01&to=2026-11-02": "from",
		"?from=2026-11-02&to=2026-11-01":                    "to",
		"?from=2024-01-01&to=2026-11-01":                    "to",
	} {
		p := m.Do(http.MethodGet, "/api/account/transfers"+query, nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		if len(p.Errors) == 0 || p.Errors[0].Field != param {
			t.Errorf("%s: errors %+v, want one naming %q", query, p.Errors, param)
		}
	}
}
