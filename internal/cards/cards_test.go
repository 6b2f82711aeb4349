package cards_test

import (
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

func cycleCard(name string, statementDay, paymentDay int32, payFrom int64) api.WalletRequest {
	return api.WalletRequest{Name: name, Type: api.WalletTypeCard, StatementDay: &statementDay, PaymentDay: &paymentDay, PaymentWalletID: &payFrom}
}

func createWallet(t *testing.T, m *apitest.Member, body api.WalletRequest) api.Wallet {
	t.Helper()
	var w api.Wallet
	m.Do(http.MethodPost, "/api/account/wallets", body).Want(http.StatusCreated).JSON(&w)
	return w
}

func statements(t *testing.T, m *apitest.Member, walletID int64, query string) api.CardStatementList {
	t.Helper()
	var out api.CardStatementList
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d/statements%s", walletID, query), nil).Want(http.StatusOK).JSON(&out)
	return out
}

func nextBills(t *testing.T, m *apitest.Member) api.NextCardBills {
	t.Helper()
	var out api.NextCardBills
	m.Do(http.MethodGet, "/api/account/card-bills/next", nil).Want(http.StatusOK).JSON(&out)
	return out
}

func wantField(t *testing.T, p apitest.Problem, field string) {
	t.Helper()
	for _, e := range p.Errors {
		if e.Field == field {
			return
		}
	}
	t.Errorf("problem %q names %+v, want %s", p.Detail, p.Errors, field)
}

// TestCardCycleIsValidated: the cycle's days are 1 to 31, its three fields
// go together on a CARD, and the paying wallet is one of the member's own
// that is not a CARD; each refusal is a 400 naming its field.
func TestCardCycleIsValidated(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	other := env.NewMember()
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	otherBank := lt.Wallet(other.Client, "Their bank", api.WalletTypeBank, 0)
	card := lt.Wallet(m.Client, "Plain card", api.WalletTypeCard, 0)

	for _, tc := range []struct {
		name  string
		body  string
		field string
	}{
		{"statement day 0", fmt.Sprintf(`{"name":"C","type":"CARD","statementDay":0,"paymentDay":14,"paymentWalletId":%d}`, bank.ID), "/statementDay"},
		{"statement day 32", fmt.Sprintf(`{"name":"C","type":"CARD","statementDay":32,"paymentDay":14,"paymentWalletId":%d}`, bank.ID), "/statementDay"},
		{"payment day 0", fmt.Sprintf(`{"name":"C","type":"CARD","statementDay":1,"paymentDay":0,"paymentWalletId":%d}`, bank.ID), "/paymentDay"},
		{"payment day 32", fmt.Sprintf(`{"name":"C","type":"CARD","statementDay":1,"paymentDay":32,"paymentWalletId":%d}`, bank.ID), "/paymentDay"},
		{"no paying wallet", `{"name":"C","type":"CARD","statementDay":31,"paymentDay":14}`, "/paymentWalletId"},
		{"no payment day", fmt.Sprintf(`{"name":"C","type":"CARD","statementDay":31,"paymentWalletId":%d}`, bank.ID), "/paymentDay"},
		{"only a paying wallet", fmt.Sprintf(`{"name":"C","type":"CARD","paymentWalletId":%d}`, bank.ID), "/statementDay"},
		{"another member's paying wallet", fmt.Sprintf(`{"name":"C","type":"CARD","statementDay":31,"paymentDay":14,"paymentWalletId":%d}`, otherBank.ID), "/paymentWalletId"},
		{"a missing paying wallet", `{"name":"C","type":"CARD","statementDay":31,"paymentDay":14,"paymentWalletId":999999999}`, "/paymentWalletId"},
		{"a CARD paying wallet", fmt.Sprintf(`{"name":"C","type":"CARD","statementDay":31,"paymentDay":14,"paymentWalletId":%d}`, card.ID), "/paymentWalletId"},
		{"a cycle on a BANK", fmt.Sprintf(`{"name":"C","type":"BANK","statementDay":31,"paymentDay":14,"paymentWalletId":%d}`, bank.ID), "/statementDay"},
	} {
		p := m.Raw().Do(http.MethodPost, "/api/account/wallets", tc.body).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		if len(p.Errors) == 0 {
			t.Errorf("%s: no field named", tc.name)
			continue
		}
		if p.Errors[0].Field != tc.field {
			t.Errorf("%s: names %+v, want %s", tc.name, p.Errors, tc.field)
		}
	}
	// The same on an update, and a card cannot pay itself.
	p := m.Do(http.MethodPut, fmt.Sprintf("/api/account/wallets/%d", card.ID), cycleCard("Plain card", 31, 14, card.ID)).
		WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	wantField(t, p, "/paymentWalletId")
	p = m.Do(http.MethodPut, fmt.Sprintf("/api/account/wallets/%d", card.ID), cycleCard("Plain card", 31, 14, otherBank.ID)).
		WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	wantField(t, p, "/paymentWalletId")

	// A valid cycle is answered by create, get, list and update; an update
	// without it clears it.
	c := createWallet(t, m, cycleCard("Shinhan", 31, 14, bank.ID))
	if c.StatementDay == nil || *c.StatementDay != 31 || c.PaymentDay == nil || *c.PaymentDay != 14 || c.PaymentWalletID == nil || *c.PaymentWalletID != bank.ID {
		t.Fatalf("created %+v", c)
	}
	var got api.Wallet
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", c.ID), nil).Want(http.StatusOK).JSON(&got)
	if !reflect.DeepEqual(got, c) {
		t.Errorf("get %+v, created %+v", got, c)
	}
	var list api.WalletList
	m.Do(http.MethodGet, "/api/account/wallets", nil).Want(http.StatusOK).JSON(&list)
	for _, w := range list.Items {
		if w.ID == c.ID && !reflect.DeepEqual(w, c) {
			t.Errorf("listed %+v, created %+v", w, c)
		}
		if w.ID == bank.ID && (w.StatementDay != nil || w.PaymentDay != nil || w.PaymentWalletID != nil) {
			t.Errorf("a bank with a cycle: %+v", w)
		}
	}

	// A paying wallet cannot become a CARD nor be deleted while it pays.
	p = m.Do(http.MethodPut, fmt.Sprintf("/api/account/wallets/%d", bank.ID), api.WalletRequest{Name: "Bank", Type: api.WalletTypeCard}).
		WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	wantField(t, p, "/type")
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/wallets/%d", bank.ID), nil).WantProblem(http.StatusConflict, "CONFLICT")

	m.Do(http.MethodPut, fmt.Sprintf("/api/account/wallets/%d", c.ID), api.WalletRequest{Name: "Shinhan", Type: api.WalletTypeCard}).
		Want(http.StatusOK).JSON(&got)
	if got.StatementDay != nil || got.PaymentDay != nil || got.PaymentWalletID != nil {
		t.Errorf("cycle not cleared: %+v", got)
	}
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/wallets/%d", bank.ID), nil).Want(http.StatusNoContent)
}

// TestCardStatementsAreTheMembersOwn: another member's card is a 404, and a
// wallet without a cycle a 400 naming id.
func TestCardStatementsAreTheMembersOwn(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	other := env.NewMember()
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	card := createWallet(t, m, cycleCard("Card", 15, 25, bank.ID))
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 10), 1_000, card.ID))
	if got := statements(t, m, card.ID, ""); len(got) != 1 || got[0].Total != 1_000 {
		t.Fatalf("statements %+v", got)
	}

	other.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d/statements", card.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	other.Do(http.MethodGet, "/api/account/wallets/999999999/statements", nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	if got := nextBills(t, other); got.Total != 0 || len(got.Cards) != 0 {
		t.Errorf("another member's next bills %+v", got)
	}

	p := m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d/statements", bank.ID), nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	wantField(t, p, "id")
	plain := lt.Wallet(m.Client, "Plain card", api.WalletTypeCard, 0)
	p = m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d/statements", plain.ID), nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	wantField(t, p, "id")
	p = m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d/statements?from=2026-12-01&to=2026-11-01", card.ID), nil).
		WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	wantField(t, p, "from")
}

func item(entryID int64, date string, amount int64, slice *api.CardInstallmentSlice, awaiting bool) api.CardStatementItem {
	var d api.CardStatementItem
	d.EntryID, d.Amount, d.Installment, d.AwaitingRate = entryID, amount, slice, awaiting
	if err := d.Date.UnmarshalText([]byte(date)); err != nil {
		panic(err)
	}
	return d
}

func slice(n, of int32) *api.CardInstallmentSlice {
	return &api.CardInstallmentSlice{Number: n, Of: of}
}

func dates(s api.CardStatement) string {
	return fmt.Sprintf("%s %s..%s due %s", s.ClosingDate, s.From, s.To, s.DueDate)
}

// TestCardStatementsWorkedExample, by hand. The card closes on the 31st (a
// month's last day) and is paid on the 14th; today is 2026-11-16.
//
//	09-05  30,000                       → September (09-01..09-30, due 10-14)
//	09-20 100,000 in 3 months: 33,334 + 33,333 + 33,333 (the remainder, 1, first)
//	10-02  refund 5,000                 → October (10-01..10-31, due 11-14)
//	10-31  12,000 (the closing day)     → October
//	11-01   7,000                       → November (11-01..11-30, due 12-14), open
//	11-05  a foreign purchase awaiting its rate: listed, 0
//	11-06  a pending 9,999 not confirmed: not listed
//
// September 30,000 + 33,334 = 63,334; October 33,333 − 5,000 + 12,000 =
// 40,333; November 33,333 + 7,000 + 0 = 40,333. A 63,334 payment on 10-14
// pays September; October is then the next bill, paid once 40,000 (11-15)
// and 333 (11-16) have come in, after which the open November statement is.
func TestCardStatementsWorkedExample(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 1_000_000)
	card := createWallet(t, m, cycleCard("Card", 31, 14, bank.ID))
	e1 := lt.Entry(m.Client, lt.Expense(lt.Date(2026, 9, 5), 30_000, card.ID))
	purchase := lt.Expense(lt.Date(2026, 9, 20), 100_000, card.ID)
	purchase.InstallmentMonths = lt.Ptr[int32](3)
	p := lt.Entry(m.Client, purchase)
	refund := lt.Entry(m.Client, lt.Income(lt.Date(2026, 10, 2), 5_000, card.ID))
	e4 := lt.Entry(m.Client, lt.Expense(lt.Date(2026, 10, 31), 12_000, card.ID))
	e5 := lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 1), 7_000, card.ID))
	var awaiting, pending int64
	if err := env.Pool.QueryRow(t.Context(), `INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, currency, original_amount, pending)
		VALUES ($1, $2, 'expense', 0, '2026-11-05', 'USD', 12.5, true) RETURNING id`, m.ID, card.ID).Scan(&awaiting); err != nil {
		t.Fatal(err)
	}
	if err := env.Pool.QueryRow(t.Context(), `INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, pending)
		VALUES ($1, $2, 'expense', 9999, '2026-11-06', true) RETURNING id`, m.ID, card.ID).Scan(&pending); err != nil {
		t.Fatal(err)
	}

	got := statements(t, m, card.ID, "")
	want := []struct {
		dates string
		total int64
		items []api.CardStatementItem
	}{
		{"2026-11-30 2026-11-01..2026-11-30 due 2026-12-14", 40_333, []api.CardStatementItem{
			item(p.ID, "2026-09-20", 33_333, slice(3, 3), false), item(e5.ID, "2026-11-01", 7_000, nil, false), item(awaiting, "2026-11-05", 0, nil, true)}},
		{"2026-10-31 2026-10-01..2026-10-31 due 2026-11-14", 40_333, []api.CardStatementItem{
			item(p.ID, "2026-09-20", 33_333, slice(2, 3), false), item(refund.ID, "2026-10-02", -5_000, nil, false), item(e4.ID, "2026-10-31", 12_000, nil, false)}},
		{"2026-09-30 2026-09-01..2026-09-30 due 2026-10-14", 63_334, []api.CardStatementItem{
			item(e1.ID, "2026-09-05", 30_000, nil, false), item(p.ID, "2026-09-20", 33_334, slice(1, 3), false)}},
	}
	if len(got) != len(want) {
		t.Fatalf("%d statements, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		if dates(got[i]) != w.dates || got[i].Total != w.total || got[i].Paid || !reflect.DeepEqual(got[i].Items, w.items) {
			t.Errorf("statement %d: %s total %d paid %v items %+v\nwant %s total %d unpaid items %+v", i, dates(got[i]), got[i].Total, got[i].Paid, got[i].Items, w.dates, w.total, w.items)
		}
	}
	if got := statements(t, m, card.ID, "?from=2026-10-01&to=2026-10-31"); len(got) != 1 || got[0].Total != 40_333 {
		t.Errorf("October alone: %+v", got)
	}
	if got := statements(t, m, card.ID, "?from=2026-11-30"); len(got) != 1 || got[0].Total != 40_333 {
		t.Errorf("from November: %+v", got)
	}

	// Nothing paid: September, the oldest closed statement, is the next bill.
	next := nextBills(t, m)
	if next.Total != 63_334 || len(next.Cards) != 1 || next.Cards[0].ClosingDate.String() != "2026-09-30" || next.Cards[0].DueDate.String() != "2026-10-14" {
		t.Fatalf("next bills %+v", next)
	}

	pay := func(date api.TransferRequest) {
		t.Helper()
		m.Do(http.MethodPost, "/api/account/transfers", date).Want(http.StatusCreated)
	}
	pay(api.TransferRequest{Date: lt.Date(2026, 10, 14), Amount: 63_334, FromWalletID: bank.ID, ToWalletID: card.ID})
	paid := func() []bool {
		var out []bool
		for _, s := range statements(t, m, card.ID, "") {
			out = append(out, s.Paid)
		}
		return out
	}
	if got := paid(); !reflect.DeepEqual(got, []bool{false, false, true}) {
		t.Errorf("paid after September's payment: %v", got)
	}
	next = nextBills(t, m)
	if next.Total != 40_333 || next.Cards[0].ClosingDate.String() != "2026-10-31" || next.Cards[0].DueDate.String() != "2026-11-14" {
		t.Errorf("next bills after September's payment %+v", next)
	}

	pay(api.TransferRequest{Date: lt.Date(2026, 11, 15), Amount: 40_000, FromWalletID: bank.ID, ToWalletID: card.ID})
	if got := paid(); !reflect.DeepEqual(got, []bool{false, false, true}) {
		t.Errorf("paid after 40,000 of October's 40,333: %v", got)
	}
	pay(api.TransferRequest{Date: lt.Date(2026, 11, 16), Amount: 333, FromWalletID: bank.ID, ToWalletID: card.ID})
	if got := paid(); !reflect.DeepEqual(got, []bool{false, true, true}) {
		t.Errorf("paid after October's payment: %v", got)
	}

	// A second card with a cycle adds its own next bill: closing on the 15th,
	// its 1,000 of 11-10 is closed (11-15) and unpaid; the first card's next
	// bill is now its open November statement.
	second := createWallet(t, m, cycleCard("Second", 15, 25, bank.ID))
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 10), 1_000, second.ID))
	lt.Wallet(m.Client, "No cycle", api.WalletTypeCard, 0)
	next = nextBills(t, m)
	wantCards := []api.NextCardBill{
		{WalletID: card.ID, Total: 40_333}, {WalletID: second.ID, Total: 1_000},
	}
	_ = wantCards[0].ClosingDate.UnmarshalText([]byte("2026-11-30"))
	_ = wantCards[0].DueDate.UnmarshalText([]byte("2026-12-14"))
	_ = wantCards[1].ClosingDate.UnmarshalText([]byte("2026-11-15"))
	_ = wantCards[1].DueDate.UnmarshalText([]byte("2026-11-25"))
	if next.Total != 41_333 || !reflect.DeepEqual(next.Cards, wantCards) {
		t.Errorf("next bills %+v, want total 41333 and %+v", next, wantCards)
	}
}

// TestPayingWalletCannotBecomeACardMeanwhile: a card set to be paid from a
// bank while, in parallel, the bank is made a CARD: the two writes go one
// after the other (the member's reservation lock), so exactly one succeeds
// and no card is ever paid from a CARD.
func TestPayingWalletCannotBecomeACardMeanwhile(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	for round := range 8 {
		bank := lt.Wallet(m.Client, fmt.Sprintf("Bank %d", round), api.WalletTypeBank, 0)
		card := lt.Wallet(m.Client, fmt.Sprintf("Card %d", round), api.WalletTypeCard, 0)
		statuses := make(chan int, 2)
		go func() {
			statuses <- m.Do(http.MethodPut, fmt.Sprintf("/api/account/wallets/%d", card.ID), cycleCard(card.Name, 31, 14, bank.ID)).Status
		}()
		go func() {
			statuses <- m.Do(http.MethodPut, fmt.Sprintf("/api/account/wallets/%d", bank.ID), api.WalletRequest{Name: bank.Name, Type: api.WalletTypeCard}).Status
		}()
		a, b := <-statuses, <-statuses
		if (a == http.StatusOK) == (b == http.StatusOK) || (a != http.StatusBadRequest && b != http.StatusBadRequest) {
			t.Fatalf("round %d: statuses %d and %d, want one 200 and one 400", round, a, b)
		}
		var n int
		if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM wallet c JOIN wallet p ON p.id = c.payment_wallet_id
			WHERE c.member_id = $1 AND p.type = 'CARD'`, m.ID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Fatalf("round %d: a card is paid from a CARD", round)
		}
	}
}
