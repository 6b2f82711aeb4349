package cards_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/cards"
)

func seoulAt(y int, m time.Month, d, hour int) time.Time {
	return time.Date(y, m, d, hour, 0, 0, 0, apitest.Start.Location())
}

// runBillJob runs the payment-day job through the runner at the clock's
// time, which must have moved an hour since its last run.
func runBillJob(t *testing.T, env *apitest.Env) {
	t.Helper()
	if ran, err := env.App.Jobs.Run(context.Background(), cards.BillPaymentJobName); err != nil || !ran {
		t.Fatalf("%s: ran=%v err=%v", env.Clock.Now().Format(time.DateTime), ran, err)
	}
}

func transfersOf(t *testing.T, m *apitest.Member) []api.Transfer {
	t.Helper()
	var page api.TransferPage
	m.Do(http.MethodGet, "/api/account/transfers?size=100", nil).Want(http.StatusOK).JSON(&page)
	return page.Items
}

func balanceOf(t *testing.T, m *apitest.Member, walletID int64) int64 {
	t.Helper()
	var w api.Wallet
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", walletID), nil).Want(http.StatusOK).JSON(&w)
	return w.Balance
}

func statementClosing(t *testing.T, m *apitest.Member, card int64, closing string) api.CardStatement {
	t.Helper()
	for _, s := range statements(t, m, card, "") {
		if s.ClosingDate.String() == closing {
			return s
		}
	}
	t.Fatalf("card %d has no statement closing %s", card, closing)
	return api.CardStatement{}
}

// billSetup: a card closing on the 15th, paid on the 25th from a bank with
// 1,000,000; 50,000 spent on 2026-11-10 falls in the statement closing
// 11-15, due 11-25.
func billSetup(t *testing.T, env *apitest.Env) (m *apitest.Member, bank, card api.Wallet) {
	t.Helper()
	m = env.NewMember()
	bank = lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 1_000_000)
	card = createWallet(t, m, cycleCard("Card", 15, 25, bank.ID))
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 10), 50_000, card.ID))
	return m, bank, card
}

// TestBillIsProposedOnItsPaymentDayAndPaysWhenConfirmed: nothing before the
// due day; on it, one pending transfer of the statement's total from the
// paying wallet to the card, dated the due day, which moves no balance and
// pays nothing until confirmed; later runs propose nothing more; confirming
// pays the statement and moves both balances once.
func TestBillIsProposedOnItsPaymentDayAndPaysWhenConfirmed(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m, bank, card := billSetup(t, env)

	env.Clock.Set(seoulAt(2026, 11, 24, 23))
	runBillJob(t, env)
	if got := transfersOf(t, m); len(got) != 0 {
		t.Fatalf("a day before the due day: %+v", got)
	}

	env.Clock.Set(seoulAt(2026, 11, 25, 9))
	runBillJob(t, env)
	got := transfersOf(t, m)
	if len(got) != 1 {
		t.Fatalf("on the due day: %d transfers, want 1", len(got))
	}
	bill := got[0]
	if !bill.Pending || bill.Amount != 50_000 || bill.Date.String() != "2026-11-25" ||
		bill.FromWalletID == nil || *bill.FromWalletID != bank.ID || bill.ToWalletID == nil || *bill.ToWalletID != card.ID {
		t.Fatalf("proposed %+v", bill)
	}
	if b := balanceOf(t, m, bank.ID); b != 1_000_000 {
		t.Errorf("a pending bill moved the bank to %d", b)
	}
	if s := statementClosing(t, m, card.ID, "2026-11-15"); s.Paid {
		t.Errorf("a pending bill paid the statement: %+v", s)
	}

	for _, h := range []int{10, 11} {
		env.Clock.Set(seoulAt(2026, 11, 25, h))
		runBillJob(t, env)
	}
	env.Clock.Set(seoulAt(2026, 11, 26, 9))
	runBillJob(t, env)
	if got := transfersOf(t, m); len(got) != 1 {
		t.Fatalf("after more runs: %d transfers, want 1", len(got))
	}

	// Its sides are confirmed with the transfer only.
	m.Do(http.MethodPost, fmt.Sprintf("/api/account/entries/%d/confirm", bill.FromEntryID), nil).WantProblem(http.StatusConflict, "CONFLICT")
	var confirmed api.Transfer
	m.Do(http.MethodPost, fmt.Sprintf("/api/account/transfers/%d/confirm", bill.ID), nil).Want(http.StatusOK).JSON(&confirmed)
	if confirmed.Pending || confirmed.Amount != 50_000 {
		t.Fatalf("confirmed %+v", confirmed)
	}
	if s := statementClosing(t, m, card.ID, "2026-11-15"); !s.Paid {
		t.Errorf("the confirmed bill did not pay the statement: %+v", s)
	}
	// Confirming again changes nothing.
	m.Do(http.MethodPost, fmt.Sprintf("/api/account/transfers/%d/confirm", bill.ID), nil).Want(http.StatusOK)
	if b := balanceOf(t, m, bank.ID); b != 950_000 {
		t.Errorf("bank %d after the bill, want 950,000", b)
	}
	if b := balanceOf(t, m, card.ID); b != 0 {
		t.Errorf("card %d after the bill, want 0", b)
	}
}

// TestBillIsNeverPaidTwice: a statement paid by hand is not proposed; one
// paid in part is proposed for what it still owes; a proposal whose
// statement was paid by hand meanwhile cannot be confirmed (409, it stays
// pending), and a proposal deleted is not proposed again.
func TestBillIsNeverPaidTwice(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)

	// Paid by hand before the due day: nothing proposed.
	m, bank, card := billSetup(t, env)
	m.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
		Date: lt.Date(2026, 11, 20), Amount: 50_000, FromWalletID: bank.ID, ToWalletID: card.ID,
	}).Want(http.StatusCreated)
	// Paid in part: the rest is proposed.
	m2, bank2, card2 := billSetup(t, env)
	m2.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
		Date: lt.Date(2026, 11, 20), Amount: 20_000, FromWalletID: bank2.ID, ToWalletID: card2.ID,
	}).Want(http.StatusCreated)
	// Paid by hand after the proposal.
	m3, bank3, card3 := billSetup(t, env)

	env.Clock.Set(seoulAt(2026, 11, 25, 9))
	runBillJob(t, env)
	if got := transfersOf(t, m); len(got) != 1 || got[0].Pending {
		t.Errorf("a statement paid by hand: %+v", got)
	}
	got2 := transfersOf(t, m2)
	if len(got2) != 2 || !got2[0].Pending || got2[0].Amount != 30_000 {
		t.Errorf("a statement paid in part: %+v", got2)
	}

	got3 := transfersOf(t, m3)
	if len(got3) != 1 || !got3[0].Pending {
		t.Fatalf("proposed %+v", got3)
	}
	m3.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
		Date: lt.Date(2026, 11, 25), Amount: 50_000, FromWalletID: bank3.ID, ToWalletID: card3.ID,
	}).Want(http.StatusCreated)
	p := m3.Do(http.MethodPost, fmt.Sprintf("/api/account/transfers/%d/confirm", got3[0].ID), nil).WantProblem(http.StatusConflict, "CONFLICT")
	if p.Detail == "" {
		t.Error("the 409 does not say why")
	}
	var still api.Transfer
	m3.Do(http.MethodGet, fmt.Sprintf("/api/account/transfers/%d", got3[0].ID), nil).Want(http.StatusOK).JSON(&still)
	if !still.Pending {
		t.Errorf("a refused confirmation confirmed: %+v", still)
	}
	if b := balanceOf(t, m3, bank3.ID); b != 950_000 {
		t.Errorf("bank %d, want 950,000 (paid once)", b)
	}
	m3.Do(http.MethodDelete, fmt.Sprintf("/api/account/transfers/%d", got3[0].ID), nil).Want(http.StatusNoContent)
	// The hand payment is taken back: the statement is unpaid again, but a
	// declined proposal is not made again.
	for _, tr := range transfersOf(t, m3) {
		m3.Do(http.MethodDelete, fmt.Sprintf("/api/account/transfers/%d", tr.ID), nil).Want(http.StatusNoContent)
	}
	env.Clock.Set(seoulAt(2026, 11, 25, 11))
	runBillJob(t, env)
	if got := transfersOf(t, m3); len(got) != 0 {
		t.Errorf("a declined bill proposed again: %+v", got)
	}
}

// TestBillConfirmationIsTheMembersOwn: another member's transfer and a
// missing one are 404; a member's own confirmed transfer answers unchanged.
func TestBillConfirmationIsTheMembersOwn(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m, _, _ := billSetup(t, env)
	other := env.NewMember()
	env.Clock.Set(seoulAt(2026, 11, 25, 9))
	runBillJob(t, env)
	bill := transfersOf(t, m)[0]
	other.Do(http.MethodPost, fmt.Sprintf("/api/account/transfers/%d/confirm", bill.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	other.Do(http.MethodPost, "/api/account/transfers/999999999/confirm", nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	var still api.Transfer
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/transfers/%d", bill.ID), nil).Want(http.StatusOK).JSON(&still)
	if !still.Pending {
		t.Errorf("another member confirmed it: %+v", still)
	}
	own := lt.Wallet(other.Client, "Own", api.WalletTypeBank, 0)
	own2 := lt.Wallet(other.Client, "Own 2", api.WalletTypeCash, 0)
	var tr api.Transfer
	other.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{Date: lt.Date(2026, 11, 20), Amount: 1, FromWalletID: own.ID, ToWalletID: own2.ID}).
		Want(http.StatusCreated).JSON(&tr)
	var again api.Transfer
	other.Do(http.MethodPost, fmt.Sprintf("/api/account/transfers/%d/confirm", tr.ID), nil).Want(http.StatusOK).JSON(&again)
	if again.Pending || again.Amount != 1 {
		t.Errorf("a confirmed transfer confirmed: %+v", again)
	}
}

// TestBillsProposedOnceUnderParallelRuns: runs of the job on several
// replicas at once, bypassing the runner's lock (as after a lock lost to a
// restart), and confirmations of one proposal in parallel: one proposal per
// statement, confirmed once, no error.
func TestBillsProposedOnceUnderParallelRuns(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	var members []*apitest.Member
	var banks []api.Wallet
	for range 3 {
		m, bank, _ := billSetup(t, env)
		members, banks = append(members, m), append(banks, bank)
	}
	now := seoulAt(2026, 11, 25, 9)
	results := apitest.TogetherV(4, func(int) error {
		_, err := cards.ProposeBills(context.Background(), env.Pool, now, apitest.Start.Location())
		return err
	})
	for _, err := range results {
		if err != nil {
			t.Fatal(err)
		}
	}
	for i, m := range members {
		got := transfersOf(t, m)
		if len(got) != 1 {
			t.Fatalf("member %d: %d proposals, want 1", i, len(got))
		}
		codes := apitest.TogetherV(4, func(int) int {
			return m.Raw().Do(http.MethodPost, fmt.Sprintf("/api/account/transfers/%d/confirm", got[0].ID), nil).Status
		})
		for _, c := range codes {
			if c != http.StatusOK {
				t.Errorf("member %d: parallel confirmations answered %v", i, codes)
				break
			}
		}
		if b := balanceOf(t, m, banks[i].ID); b != 950_000 {
			t.Errorf("member %d: bank %d, want 950,000", i, b)
		}
	}
}

func closings(t *testing.T, m *apitest.Member, card int64) []string {
	t.Helper()
	var out []string
	for _, s := range statements(t, m, card, "") {
		out = append(out, fmt.Sprintf("%s..%s due %s total %d paid %v", s.From, s.ClosingDate, s.DueDate, s.Total, s.Paid))
	}
	return out
}

func setCycle(t *testing.T, m *apitest.Member, card api.Wallet, statementDay, paymentDay int32, payFrom int64) {
	t.Helper()
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/wallets/%d", card.ID), cycleCard(card.Name, statementDay, paymentDay, payFrom)).Want(http.StatusOK)
}

// TestEditingTheCycleMovesOnlyUnpaidStatements: the statements paid when
// the cycle is edited keep their dates; the rest follow the new cycle from
// the day after the last paid one; editing again keeps the same paid run;
// clearing the cycle forgets it.
func TestEditingTheCycleMovesOnlyUnpaidStatements(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 1_000_000)
	card := createWallet(t, m, cycleCard("Card", 15, 25, bank.ID))
	for _, e := range []struct {
		day    int
		month  time.Month
		amount int64
	}{{10, 9, 100}, {10, 10, 200}, {20, 10, 300}, {10, 11, 400}, {16, 11, 50}} {
		lt.Entry(m.Client, lt.Expense(lt.Date(2026, e.month, e.day), e.amount, card.ID))
	}
	// 300 on 10-20 pays the statements closing 09-15 (100) and 10-15 (200).
	m.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
		Date: lt.Date(2026, 10, 20), Amount: 300, FromWalletID: bank.ID, ToWalletID: card.ID,
	}).Want(http.StatusCreated)
	want := func(what string, lines ...string) {
		t.Helper()
		got := closings(t, m, card.ID)
		if fmt.Sprint(got) != fmt.Sprint(lines) {
			t.Errorf("%s:\n got %q\nwant %q", what, got, lines)
		}
	}
	// Newest first.
	want("before the edit",
		"2026-11-16..2026-12-15 due 2026-12-25 total 50 paid false",
		"2026-10-16..2026-11-15 due 2026-11-25 total 700 paid false",
		"2026-09-16..2026-10-15 due 2026-10-25 total 200 paid true",
		"2026-08-16..2026-09-15 due 2026-09-25 total 100 paid true")

	setCycle(t, m, card, 31, 14, bank.ID)
	want("closing on the 31st",
		"2026-11-01..2026-11-30 due 2026-12-14 total 450 paid false",
		"2026-10-16..2026-10-31 due 2026-11-14 total 300 paid false",
		"2026-09-16..2026-10-15 due 2026-10-25 total 200 paid true",
		"2026-08-16..2026-09-15 due 2026-09-25 total 100 paid true")

	setCycle(t, m, card, 20, 5, bank.ID)
	want("closing on the 20th",
		"2026-10-21..2026-11-20 due 2026-12-05 total 450 paid false",
		"2026-10-16..2026-10-20 due 2026-11-05 total 300 paid false",
		"2026-09-16..2026-10-15 due 2026-10-25 total 200 paid true",
		"2026-08-16..2026-09-15 due 2026-09-25 total 100 paid true")

	// Cleared and set again: the paid run is forgotten with the cycle.
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/wallets/%d", card.ID), api.WalletRequest{Name: "Card", Type: api.WalletTypeCard}).Want(http.StatusOK)
	setCycle(t, m, card, 20, 5, bank.ID)
	want("set again on the 20th",
		"2026-10-21..2026-11-20 due 2026-12-05 total 450 paid false",
		"2026-09-21..2026-10-20 due 2026-11-05 total 500 paid false",
		"2026-08-21..2026-09-20 due 2026-10-05 total 100 paid true")
	// Changing only the paying wallet moves nothing.
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	setCycle(t, m, card, 20, 5, cash.ID)
	want("paid from cash",
		"2026-10-21..2026-11-20 due 2026-12-05 total 450 paid false",
		"2026-09-21..2026-10-20 due 2026-11-05 total 500 paid false",
		"2026-08-21..2026-09-20 due 2026-10-05 total 100 paid true")
}

// TestABillPastWhatATransferHoldsIsProposedUpToIt: a statement owing more
// than 10^15 won is proposed at 10^15 (what the API lets a transfer hold,
// so the member can save it unchanged), the rest left to pay by hand.
func TestABillPastWhatATransferHoldsIsProposedUpToIt(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	card := createWallet(t, m, cycleCard("Card", 15, 25, bank.ID))
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 10), 1_000_000_000_000_000, card.ID))
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 11), 7, card.ID))
	env.Clock.Set(seoulAt(2026, 11, 25, 9))
	runBillJob(t, env)
	got := transfersOf(t, m)
	if len(got) != 1 || got[0].Amount != 1_000_000_000_000_000 || !got[0].Pending {
		t.Fatalf("proposed %+v", got)
	}
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/transfers/%d", got[0].ID), api.TransferRequest{
		Date: got[0].Date, Amount: got[0].Amount, FromWalletID: bank.ID, ToWalletID: card.ID, Memo: &got[0].Memo,
	}).Want(http.StatusOK)
}
