package ledger_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/server"
)

func TestWalletBalancesCountConfirmedEntriesOnly(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	bank := lt.Wallet(m.Client, "Salary", api.WalletTypeBank, 1000)
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	if bank.SortOrder >= cash.SortOrder {
		t.Fatalf("a new wallet is not last: %d then %d", bank.SortOrder, cash.SortOrder)
	}
	lt.Entry(m.Client, lt.Income(lt.Date(2026, 11, 1), 500, bank.ID))
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 2), 200, bank.ID))
	pending := lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 3), 7000, bank.ID))
	env.Exec(`UPDATE account_entry SET pending = true WHERE id = $1`, pending.ID)

	var list api.WalletList
	m.Do(http.MethodGet, "/api/account/wallets", nil).Want(http.StatusOK).JSON(&list)
	if len(list.Items) != 2 || list.Items[0].ID != bank.ID || list.Items[0].Balance != 1300 || list.Items[1].Balance != 0 {
		t.Fatalf("wallets %+v, want the bank first with 1000 + 500 - 200 = 1300 (the pending 7000 left out)", list.Items)
	}

	var confirmed api.Entry
	m.Do(http.MethodPost, fmt.Sprintf("/api/account/entries/%d/confirm", pending.ID), nil).Want(http.StatusOK).JSON(&confirmed)
	var got api.Wallet
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", bank.ID), nil).Want(http.StatusOK).JSON(&got)
	if confirmed.Pending || got.Balance != 1300-7000 {
		t.Fatalf("after confirming: pending %v, balance %d, want false and -5700", confirmed.Pending, got.Balance)
	}

	m.Do(http.MethodPut, "/api/account/wallets/reorder", api.ReorderWalletsJSONRequestBody{Ids: []int64{cash.ID}}).Want(http.StatusNoContent)
	m.Do(http.MethodGet, "/api/account/wallets", nil).Want(http.StatusOK).JSON(&list)
	if list.Items[0].ID != cash.ID || list.Items[1].ID != bank.ID {
		t.Fatalf("after reorder: %d, %d; want cash first", list.Items[0].ID, list.Items[1].ID)
	}
}

func TestDeleteWalletInUseNeedsMoveTo(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	from := lt.Wallet(m.Client, "Old", api.WalletTypeBank, 0)
	to := lt.Wallet(m.Client, "New", api.WalletTypeBank, 100)
	lt.Entry(m.Client, lt.Income(lt.Date(2026, 11, 1), 500, from.ID))
	path := fmt.Sprintf("/api/account/wallets/%d", from.ID)

	m.Do(http.MethodDelete, path, nil).WantProblem(http.StatusConflict, "CONFLICT")
	m.Do(http.MethodDelete, path+fmt.Sprintf("?moveTo=%d", from.ID), nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	m.Do(http.MethodDelete, path+"?moveTo=987654321", nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	m.Do(http.MethodDelete, path+fmt.Sprintf("?moveTo=%d", to.ID), nil).Want(http.StatusNoContent)

	var got api.Wallet
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", to.ID), nil).Want(http.StatusOK).JSON(&got)
	if got.Balance != 600 {
		t.Fatalf("balance %d, want the moved 500 on top of 100", got.Balance)
	}
	m.Do(http.MethodGet, path, nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	// Installments stay on cards.
	card := lt.Wallet(m.Client, "Card", api.WalletTypeCard, 0)
	inst := lt.Expense(lt.Date(2026, 11, 2), 30000, card.ID)
	inst.InstallmentMonths = lt.Ptr[int32](3)
	lt.Entry(m.Client, inst)
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/wallets/%d?moveTo=%d", card.ID, to.ID), nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	// An unused wallet goes without moveTo.
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/wallets/%d", lt.Wallet(m.Client, "Spare", api.WalletTypeCash, 0).ID), nil).Want(http.StatusNoContent)
}

// TestFreeWalletLimitIsExactUnderParallelCreation: 20 creations at once by a
// FREE member leave exactly 2 wallets of the type.
func TestFreeWalletLimitIsExactUnderParallelCreation(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	answers := apitest.TogetherV(20, func(i int) *apitest.Response {
		return m.Do(http.MethodPost, "/api/account/wallets", api.CreateWalletJSONRequestBody{Name: fmt.Sprintf("Card %d", i), Type: api.WalletTypeCard})
	})
	created := 0
	statuses := make([]int, len(answers))
	for i, res := range answers {
		statuses[i] = res.Status
		switch res.Status {
		case http.StatusCreated:
			created++
		case http.StatusBadRequest:
			res.WantProblem(http.StatusBadRequest, "FREE_LIMIT_EXCEEDED")
		default:
			t.Errorf("status %d: %s", res.Status, res.Body)
		}
	}
	var n int
	if err := env.Pool.QueryRow(context.Background(), `SELECT count(*) FROM wallet WHERE member_id = $1 AND type = 'CARD'`, m.ID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if created != ledger.FreeLimit || n != ledger.FreeLimit {
		t.Fatalf("%d created, %d stored; want exactly %d (statuses %v)", created, n, ledger.FreeLimit, statuses)
	}
	// The limit is per type.
	lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	m.Do(http.MethodPost, "/api/account/wallets", api.CreateWalletJSONRequestBody{Name: "Third", Type: api.WalletTypeCard}).
		WantProblem(http.StatusBadRequest, "FREE_LIMIT_EXCEEDED")

	for _, who := range []*apitest.Member{env.NewMember(apitest.AsPremium()), env.NewMember(apitest.AsAdmin())} {
		for i := range 3 {
			lt.Wallet(who.Client, fmt.Sprintf("Card %d", i), api.WalletTypeCard, 0)
		}
	}
}

func TestLoanFieldsGoTogether(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	start := lt.Date(2026, 1, 31)
	full := func() api.WalletRequest {
		return api.WalletRequest{
			Name: "Loan", Type: api.WalletTypeLoan, LoanAmount: lt.Ptr[int64](1_200_000), LoanRate: lt.Ptr("12"),
			LoanMethod: lt.Ptr(api.LoanMethodEqualPrincipal), LoanMonths: lt.Ptr[int32](12), LoanStart: &start,
		}
	}
	for name, tc := range map[string]struct {
		edit  func(*api.WalletRequest)
		field string
	}{
		"no rate":  {func(r *api.WalletRequest) { r.LoanRate = nil }, "/loanRate"},
		"no start": {func(r *api.WalletRequest) { r.LoanStart = nil }, "/loanStart"},
		"payment alone": {func(r *api.WalletRequest) {
			*r = api.WalletRequest{Name: "x", Type: api.WalletTypeLoan, LoanPayment: lt.Ptr[int64](5)}
		}, "/loanPayment"},
		"manual, no value":   {func(r *api.WalletRequest) { r.ManualValuation = lt.Ptr(true) }, "/currentValue"},
		"control characters": {func(r *api.WalletRequest) { r.Name = "a\x07b" }, "/name"},
		"only spaces":        {func(r *api.WalletRequest) { r.Name = "   " }, "/name"},
	} {
		body := full()
		tc.edit(&body)
		p := m.Do(http.MethodPost, "/api/account/wallets", body).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		if len(p.Errors) != 1 || p.Errors[0].Field != tc.field {
			t.Errorf("%s: errors %+v, want %s", name, p.Errors, tc.field)
		}
	}
	for name, raw := range map[string]string{
		"rate over 100":   `{"name":"L","type":"LOAN","loanRate":"100.5"}`,
		"months 0":        `{"name":"L","type":"LOAN","loanMonths":0}`,
		"unknown type":    `{"name":"L","type":"GOLD"}`,
		"unknown method":  `{"name":"L","type":"LOAN","loanMethod":"BALLOON"}`,
		"huge name":       `{"name":"` + strings.Repeat("x", 51) + `","type":"CASH"}`,
		"NUL in name":     `{"name":"a\u0000b","type":"CASH"}`,
		"account letters": `{"name":"L","type":"BANK","accountNumber":"12:34"}`,
		"account long":    `{"name":"L","type":"BANK","accountNumber":"` + strings.Repeat("1", 65) + `"}`,
	} {
		res := m.Raw().Do(http.MethodPost, "/api/account/wallets", raw)
		if res.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s, want 400", name, res.Status, res.Body)
		}
	}
	var w api.Wallet
	m.Do(http.MethodPost, "/api/account/wallets", full()).Want(http.StatusCreated).JSON(&w)
	if w.LoanRate == nil || *w.LoanRate != "12" || w.LoanStart == nil || !w.LoanStart.Time.Equal(start.Time) {
		t.Fatalf("loan fields not kept: %+v", w)
	}
	// An update replaces every field: without loan fields the loan is gone.
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/wallets/%d", w.ID), api.WalletRequest{Name: "Paid off", Type: api.WalletTypeLoan}).Want(http.StatusOK).JSON(&w)
	if w.LoanAmount != nil || w.Name != "Paid off" {
		t.Fatalf("after update: %+v", w)
	}
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d/loan-schedule", w.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
}

func TestAccountNumberIsSealed(t *testing.T) {
	t.Parallel()
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	env := apitest.New(t, apitest.WithConfig(func(cfg *config.Config) { cfg.AccountCryptoKey = key }))
	m := env.NewMember(apitest.AsPremium())
	create := func(number string) api.Wallet {
		var w api.Wallet
		m.Do(http.MethodPost, "/api/account/wallets", api.WalletRequest{Name: "Bank", Type: api.WalletTypeSavings, AccountNumber: &number}).
			Want(http.StatusCreated).JSON(&w)
		return w
	}
	stored := func(id int64) string {
		var s string
		if err := env.Pool.QueryRow(context.Background(), `SELECT account_number FROM wallet WHERE id = $1`, id).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	longest := strings.Repeat("9", ledger.MaxAccountNumber)
	a, b := create("110-234-567890"), create("110-234-567890")
	c := create(longest)
	sa, sb := stored(a.ID), stored(b.ID)
	if !strings.HasPrefix(sa, "v1:") || strings.Contains(sa, "567890") || sa == sb {
		t.Fatalf("stored %q and %q: want sealed, versioned and different nonces", sa, sb)
	}
	if len(stored(c.ID)) > 255 {
		t.Fatalf("the longest number takes %d characters sealed", len(stored(c.ID)))
	}
	if *a.AccountNumber != "110-234-567890" || *c.AccountNumber != longest {
		t.Fatalf("answered %q, %q", *a.AccountNumber, *c.AccountNumber)
	}

	// A value stored before the key existed reads back as it is.
	env.Exec(`UPDATE wallet SET account_number = '333-444' WHERE id = $1`, b.ID)
	var got api.Wallet
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", b.ID), nil).Want(http.StatusOK).JSON(&got)
	if *got.AccountNumber != "333-444" {
		t.Fatalf("plain value read back as %q", *got.AccountNumber)
	}

	// A tampered value is an error, never garbage.
	tampered := sa[:len(sa)-2] + map[bool]string{true: "AA", false: "BB"}[!strings.HasSuffix(sa, "AA")]
	env.Exec(`UPDATE wallet SET account_number = $2 WHERE id = $1`, a.ID, tampered)
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", a.ID), nil).WantProblem(http.StatusInternalServerError, "INTERNAL")
}

func TestAccountCrypto(t *testing.T) {
	t.Parallel()
	plain, err := ledger.NewAccountCrypto(nil)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := plain.Seal(1, "123-45"); s != "123-45" {
		t.Fatalf("without a key the value is stored as %q", s)
	}
	key := bytes.Repeat([]byte{7}, 32)
	c, err := ledger.NewAccountCrypto(key)
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := c.Seal(1, "123-45")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := c.Open(1, sealed); err != nil || got != "123-45" {
		t.Fatalf("open: %q %v", got, err)
	}
	if _, err := c.Open(2, sealed); err == nil {
		t.Fatal("another member's sealed value opened")
	}
	if _, err := plain.Open(1, sealed); err == nil {
		t.Fatal("a sealed value opened without the key")
	}
	if _, err := c.Open(1, "v1:!!"); err == nil {
		t.Fatal("garbage opened")
	}
	if _, err := ledger.NewAccountCrypto([]byte("short")); err == nil {
		t.Fatal("a short key was accepted")
	}
}

func TestChangingAWalletTypeCountsAgainstTheNewTypesLimit(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	lt.Wallet(m.Client, "Card 1", api.WalletTypeCard, 0)
	lt.Wallet(m.Client, "Card 2", api.WalletTypeCard, 0)
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	path := fmt.Sprintf("/api/account/wallets/%d", cash.ID)
	m.Do(http.MethodPut, path, api.WalletRequest{Name: "Card 3", Type: api.WalletTypeCard}).WantProblem(http.StatusBadRequest, "FREE_LIMIT_EXCEEDED")
	// Keeping the type is always allowed.
	m.Do(http.MethodPut, path, api.WalletRequest{Name: "Pocket", Type: api.WalletTypeCash}).Want(http.StatusOK)
}

// TestCardWithInstallmentsKeepsItsType: installments belong on CARD
// expenses only, so a card whose entries carry them cannot become another
// type; without them it can.
func TestCardWithInstallmentsKeepsItsType(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	card := lt.Wallet(m.Client, "Card", api.WalletTypeCard, 0)
	inst := lt.Expense(lt.Date(2026, 11, 2), 30000, card.ID)
	inst.InstallmentMonths = lt.Ptr[int32](3)
	lt.Entry(m.Client, inst)
	path := fmt.Sprintf("/api/account/wallets/%d", card.ID)

	p := m.Do(http.MethodPut, path, api.WalletRequest{Name: "Card", Type: api.WalletTypeCheckCard}).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	if len(p.Errors) != 1 || p.Errors[0].Field != "/type" {
		t.Fatalf("errors %+v, want /type", p.Errors)
	}
	var got api.Wallet
	m.Do(http.MethodGet, path, nil).Want(http.StatusOK).JSON(&got)
	if got.Type != "CARD" {
		t.Fatalf("type %s after a refused change", got.Type)
	}
	// Keeping the type is allowed.
	m.Do(http.MethodPut, path, api.WalletRequest{Name: "Visa", Type: api.WalletTypeCard}).Want(http.StatusOK)

	plain := lt.Wallet(m.Client, "Other card", api.WalletTypeCard, 0)
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 3), 500, plain.ID))
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/wallets/%d", plain.ID), api.WalletRequest{Name: "Debit", Type: api.WalletTypeCheckCard}).
		Want(http.StatusOK).JSON(&got)
	if got.Type != "CHECK_CARD" {
		t.Fatalf("type %s, want CHECK_CARD for a card without installments", got.Type)
	}
}

// TestEveryWalletTypeOfTheContract: each value of the contract's WalletType
// enum is created and read back in the list, so a type added to the contract
// and not to the service fails here.
func TestEveryWalletTypeOfTheContract(t *testing.T) {
	t.Parallel()
	doc, err := server.ParseContract()
	if err != nil {
		t.Fatal(err)
	}
	enum := doc.Components.Schemas["WalletType"].Value.Enum
	if len(enum) == 0 {
		t.Fatal("the contract's WalletType has no enum")
	}
	env := apitest.New(t)
	m := env.NewMember()
	want := map[int64]string{}
	for _, v := range enum {
		typ := v.(string)
		w := lt.Wallet(m.Client, "Wallet "+typ, api.WalletType(typ), 0)
		if string(w.Type) != typ {
			t.Errorf("created %s, answered %s", typ, w.Type)
		}
		want[w.ID] = typ
	}
	var list api.WalletList
	m.Do(http.MethodGet, "/api/account/wallets", nil).Want(http.StatusOK).JSON(&list)
	if len(list.Items) != len(enum) {
		t.Fatalf("%d wallets listed, want one of each of %v", len(list.Items), enum)
	}
	for _, w := range list.Items {
		if string(w.Type) != want[w.ID] {
			t.Errorf("wallet %d listed as %s, want %s", w.ID, w.Type, want[w.ID])
		}
	}
}

func TestManualValuationReadsBack(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	var w api.Wallet
	m.Do(http.MethodPost, "/api/account/wallets", api.WalletRequest{
		Name: "Pension", Type: api.WalletTypePension, OpeningBalance: lt.Ptr[int64](1_000_000),
		ManualValuation: lt.Ptr(true), CurrentValue: lt.Ptr[int64](5_250_000),
	}).Want(http.StatusCreated).JSON(&w)
	check := func(how string, got api.Wallet) {
		t.Helper()
		if !got.ManualValuation || got.CurrentValue == nil || *got.CurrentValue != 5_250_000 || got.OpeningBalance != 1_000_000 {
			t.Errorf("%s: manualValuation %v, currentValue %v, openingBalance %d; want true, 5250000, 1000000",
				how, got.ManualValuation, got.CurrentValue, got.OpeningBalance)
		}
	}
	check("created", w)
	var one api.Wallet
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", w.ID), nil).Want(http.StatusOK).JSON(&one)
	check("GET one", one)
	var list api.WalletList
	m.Do(http.MethodGet, "/api/account/wallets", nil).Want(http.StatusOK).JSON(&list)
	if len(list.Items) != 1 {
		t.Fatalf("%d wallets listed", len(list.Items))
	}
	check("GET list", list.Items[0])
}

// TestDeleteWalletWithMoveToIsOneTransaction: when the deletion fails after
// the entries moved, the move is undone with it.
func TestDeleteWalletWithMoveToIsOneTransaction(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	from := lt.Wallet(m.Client, "Old", api.WalletTypeBank, 100)
	to := lt.Wallet(m.Client, "New", api.WalletTypeBank, 0)
	e := lt.Entry(m.Client, lt.Income(lt.Date(2026, 11, 1), 500, from.ID))
	var rec api.Recurring
	m.Do(http.MethodPost, "/api/account/recurrings", api.RecurringRequest{Name: "Rent", Type: api.EntryTypeExpense, Amount: 1000, Day: 1, WalletID: &from.ID}).
		Want(http.StatusCreated).JSON(&rec)

	env.Exec(`CREATE FUNCTION fail_wallet_delete() RETURNS trigger LANGUAGE plpgsql AS
		$$ BEGIN RAISE EXCEPTION 'wallet deletion is failing'; END $$`)
	env.Exec(`CREATE TRIGGER fail_wallet_delete BEFORE DELETE ON wallet FOR EACH ROW EXECUTE FUNCTION fail_wallet_delete()`)
	path := fmt.Sprintf("/api/account/wallets/%d", from.ID)
	m.Do(http.MethodDelete, path+fmt.Sprintf("?moveTo=%d", to.ID), nil).WantProblem(http.StatusInternalServerError, "INTERNAL")

	var got api.Entry
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", e.ID), nil).Want(http.StatusOK).JSON(&got)
	var recs api.RecurringList
	m.Do(http.MethodGet, "/api/account/recurrings", nil).Want(http.StatusOK).JSON(&recs)
	var old, moved api.Wallet
	m.Do(http.MethodGet, path, nil).Want(http.StatusOK).JSON(&old)
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", to.ID), nil).Want(http.StatusOK).JSON(&moved)
	if got.WalletID == nil || *got.WalletID != from.ID {
		t.Fatalf("entry wallet %s, want still %d", idOf(got.WalletID), from.ID)
	}
	if recs.Items[0].WalletID == nil || *recs.Items[0].WalletID != from.ID {
		t.Fatalf("recurring wallet %s, want still %d", idOf(recs.Items[0].WalletID), from.ID)
	}
	if old.Balance != 600 || moved.Balance != 0 {
		t.Fatalf("balances %d and %d, want 600 and 0 as before", old.Balance, moved.Balance)
	}

	// Without the failure the same request goes through.
	env.Exec(`DROP TRIGGER fail_wallet_delete ON wallet`)
	m.Do(http.MethodDelete, path+fmt.Sprintf("?moveTo=%d", to.ID), nil).Want(http.StatusNoContent)
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", e.ID), nil).Want(http.StatusOK).JSON(&got)
	if *got.WalletID != to.ID {
		t.Fatalf("entry wallet %d after the deletion, want %d", *got.WalletID, to.ID)
	}
}

// idOf prints an optional id for a failure message.
func idOf(id *int64) string {
	if id == nil {
		return "null"
	}
	return fmt.Sprint(*id)
}
