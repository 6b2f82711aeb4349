package backup_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

const shinhan = "[Web발신]\n신한카드(1234)승인 홍*동 12,500원(일시불)11/16 12:34 스타벅스 누적1,234,567원"

func backupOf(t *testing.T, m *apitest.Member) api.Backup {
	t.Helper()
	var doc api.Backup
	m.Do(http.MethodGet, "/api/account/backup", nil).Want(http.StatusOK).JSON(&doc)
	return doc
}

func restore(t *testing.T, m *apitest.Member, doc api.Backup) api.RestoreResult {
	t.Helper()
	var out api.RestoreResult
	m.Do(http.MethodPost, "/api/account/restore", doc).Want(http.StatusOK).JSON(&out)
	return out
}

func mustEqual(t *testing.T, what string, want, got any) {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		w, _ := json.MarshalIndent(want, "", " ")
		g, _ := json.MarshalIndent(got, "", " ")
		t.Fatalf("%s differs:\nwant %s\ngot  %s", what, w, g)
	}
}

// richLedger gives m wallets of several types (account number, loan,
// manual valuation, a repeated name), two-level categories (a name repeated
// under two parents), tags, entries with tags, foreign currency,
// installments and a pending one, transfers (a card bill with a fee the
// member filed under a category, and one without), recurring and quick
// entries, monthly budgets of this month and an earlier one, and one-time
// budgets.
func richLedger(t *testing.T, m *apitest.Member) {
	t.Helper()
	cash := lt.Wallet(m.Client, "현금", api.WalletTypeCash, 50000)
	var bank api.Wallet
	m.Do(http.MethodPost, "/api/account/wallets", api.WalletRequest{
		Name: "급여통장", Type: api.WalletTypeBank, OpeningBalance: lt.Ptr[int64](1000000), AccountNumber: lt.Ptr("110-234-567890"),
	}).Want(http.StatusCreated).JSON(&bank)
	card := lt.Wallet(m.Client, "신한카드", api.WalletTypeCard, 0)
	lt.Wallet(m.Client, "KB체크", api.WalletTypeCheckCard, 0)
	m.Do(http.MethodPost, "/api/account/wallets", api.WalletRequest{
		Name: "주택담보대출", Type: api.WalletTypeLoan, OpeningBalance: lt.Ptr[int64](-200000000),
		AccountNumber: lt.Ptr("LN 0001"), LoanAmount: lt.Ptr[int64](200000000), LoanRate: lt.Ptr("4.2"),
		LoanMethod: lt.Ptr(api.LoanMethodEqualPayment), LoanMonths: lt.Ptr[int32](360), LoanStart: lt.Ptr(lt.Date(2026, 1, 15)),
		LoanPayment: lt.Ptr[int64](980000),
	}).Want(http.StatusCreated)
	m.Do(http.MethodPost, "/api/account/wallets", api.WalletRequest{
		Name: "연금", Type: api.WalletTypePension, ManualValuation: lt.Ptr(true), CurrentValue: lt.Ptr[int64](12345678),
	}).Want(http.StatusCreated)
	lt.Wallet(m.Client, "지갑", api.WalletTypeCash, 1)
	lt.Wallet(m.Client, "지갑", api.WalletTypeCash, 2)

	food := lt.Category(m.Client, "식비", api.EntryTypeExpense, nil)
	lunch := lt.Category(m.Client, "점심", api.EntryTypeExpense, &food.ID)
	lt.Category(m.Client, "카페", api.EntryTypeExpense, &food.ID)
	traffic := lt.Category(m.Client, "교통", api.EntryTypeExpense, nil)
	otherTraffic := lt.Category(m.Client, "기타", api.EntryTypeExpense, &traffic.ID)
	shop := lt.Category(m.Client, "쇼핑", api.EntryTypeExpense, nil)
	lt.Category(m.Client, "기타", api.EntryTypeExpense, &shop.ID)
	salary := lt.Category(m.Client, "급여", api.EntryTypeIncome, nil)

	m.Do(http.MethodPost, "/api/account/tags", api.TagRequest{Name: "travel"}).Want(http.StatusCreated)
	m.Do(http.MethodPost, "/api/account/tags", api.TagRequest{Name: "work"}).Want(http.StatusCreated)

	e := lt.Expense(lt.Date(2026, 11, 3), 12000, card.ID)
	e.CategoryID, e.Memo, e.Tags = &lunch.ID, lt.Ptr("점심 회식"), &[]string{"work", "team"}
	lt.Entry(m.Client, e)
	e = lt.Expense(lt.Date(2026, 11, 5), 0, card.ID)
	e.Amount, e.Currency, e.OriginalAmount, e.ExchangeRate = nil, lt.Ptr("USD"), lt.Ptr("12.50"), lt.Ptr("1391.25")
	e.Tags, e.Memo = &[]string{"travel"}, lt.Ptr("AMAZON.COM")
	lt.Entry(m.Client, e)
	e = lt.Expense(lt.Date(2026, 11, 6), 1290000, card.ID)
	e.InstallmentMonths, e.CategoryID = lt.Ptr[int32](3), &otherTraffic.ID
	lt.Entry(m.Client, e)
	e = lt.Income(lt.Date(2026, 11, 10), 3000000, bank.ID)
	e.CategoryID = &salary.ID
	lt.Entry(m.Client, e)
	lt.Entry(m.Client, api.EntryRequest{Date: lt.Date(2026, 11, 10), Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](4500)})
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 1), 7000, cash.ID))
	m.Do(http.MethodPost, "/api/account/entries/notification", api.NotificationRequest{
		Text: shinhan, PostedAt: lt.Ptr(time.Date(2026, 11, 16, 12, 40, 0, 0, time.UTC)),
	}).Want(http.StatusOK)

	var bill api.Transfer
	m.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
		Date: lt.Date(2026, 11, 12), Amount: 350000, FromWalletID: bank.ID, ToWalletID: card.ID, Memo: lt.Ptr("카드대금"), Fee: lt.Ptr[int64](500),
	}).Want(http.StatusCreated).JSON(&bill)
	fee := lt.Expense(lt.Date(2026, 11, 12), 500, bank.ID)
	fee.CategoryID, fee.Memo, fee.Tags = &otherTraffic.ID, lt.Ptr("이체 수수료"), &[]string{"work"}
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/entries/%d", *bill.FeeEntryID), fee).Want(http.StatusOK)
	m.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
		Date: lt.Date(2026, 11, 2), Amount: 20000, FromWalletID: bank.ID, ToWalletID: cash.ID,
	}).Want(http.StatusCreated)

	for _, b := range []api.BudgetRequest{
		{CategoryID: food.ID, Year: 2026, Month: 11, Amount: 400000},
		{CategoryID: lunch.ID, Year: 2026, Month: 11, Amount: 100000},
		{CategoryID: traffic.ID, Year: 2026, Month: 10, Amount: 50000},
	} {
		m.Do(http.MethodPost, "/api/account/budgets", b).Want(http.StatusCreated)
	}
	m.Do(http.MethodPost, "/api/account/budgets/onetime", api.OnetimeBudgetRequest{
		Name: "제주 여행", Amount: 800000, StartDate: lt.Date(2026, 12, 20), EndDate: lt.Date(2026, 12, 27), CategoryID: &lunch.ID,
	}).Want(http.StatusCreated)
	m.Do(http.MethodPost, "/api/account/budgets/onetime", api.OnetimeBudgetRequest{
		Name: "연말", Amount: 1000000, StartDate: lt.Date(2026, 12, 1), EndDate: lt.Date(2026, 12, 31),
	}).Want(http.StatusCreated)

	for _, in := range []api.BudgetIncomeRequest{{Year: 2026, Month: 10, Amount: 4000000}, {Year: 2026, Month: 11, Amount: 3500000}} {
		m.Do(http.MethodPut, "/api/account/budgets/income", in).Want(http.StatusOK)
	}

	m.Do(http.MethodPost, "/api/account/recurrings", api.RecurringRequest{
		Name: "월세", Type: api.EntryTypeExpense, Amount: 650000, Day: 25, WalletID: &bank.ID, CategoryID: &otherTraffic.ID, Memo: lt.Ptr("집주인"),
	}).Want(http.StatusCreated)
	m.Do(http.MethodPost, "/api/account/recurrings", api.RecurringRequest{Name: "용돈", Type: api.EntryTypeIncome, Amount: 100000, Day: 31, AutoPost: lt.Ptr(false)}).
		Want(http.StatusCreated)
	m.Do(http.MethodPost, "/api/account/quick-entries", api.QuickEntryRequest{
		Name: "아메리카노", Type: api.EntryTypeExpense, Amount: 4500, WalletID: &card.ID, CategoryID: &lunch.ID, Tags: &[]string{"work", "coffee"},
	}).Want(http.StatusCreated)
	m.Do(http.MethodPost, "/api/account/quick-entries", api.QuickEntryRequest{Name: "버스", Type: api.EntryTypeExpense, Amount: 1500}).
		Want(http.StatusCreated)
}

func TestBackupRestoredGivesBackAnEqualLedger(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	a := env.NewMember(apitest.AsPremium())
	richLedger(t, a)
	doc := backupOf(t, a)
	if doc.Version != 1 || len(doc.Wallets) != 8 || len(doc.Categories) != 8 || len(doc.Entries) != 8 ||
		len(doc.Transfers) != 2 || len(doc.Recurring) != 2 || len(doc.QuickEntries) != 2 || len(doc.Budgets) != 2 ||
		doc.OnetimeBudgets == nil || len(*doc.OnetimeBudgets) != 2 || doc.ExpectedIncomes == nil || len(*doc.ExpectedIncomes) != 2 {
		t.Fatalf("backup %+v", doc)
	}
	// Transfers by wallet name, not as their sides in entries; the fee is
	// the entry the member filed, named by its position.
	bill := doc.Transfers[1]
	if bill.From != "급여통장" || bill.To != "신한카드" || bill.Amount != 350000 || bill.FeeEntry == nil ||
		doc.Entries[*bill.FeeEntry].Amount != 500 || *doc.Entries[*bill.FeeEntry].Category != "기타" ||
		doc.Entries[*bill.FeeEntry].Memo != "이체 수수료" || doc.Transfers[0].FeeEntry != nil {
		t.Fatalf("transfers %+v", doc.Transfers)
	}
	// Whether a recurring entry posts itself travels with it.
	if r := doc.Recurring; r[0].AutoPost == nil || !*r[0].AutoPost || r[1].AutoPost == nil || *r[1].AutoPost {
		t.Fatalf("recurring autoPost %v, %v", r[0].AutoPost, r[1].AutoPost)
	}
	// This month's budgets, not October's.
	mustEqual(t, "budgets", []api.BackupBudget{
		{Category: "식비", Amount: 400000}, {Category: "점심", CategoryParent: lt.Ptr("식비"), Amount: 100000},
	}, doc.Budgets)
	// A repeated wallet name is made unique so references stay unambiguous.
	if doc.Wallets[6].Name != "지갑" || doc.Wallets[7].Name != "지갑 (2)" {
		t.Fatalf("wallet names %q, %q", doc.Wallets[6].Name, doc.Wallets[7].Name)
	}
	if doc.Wallets[1].AccountNumber == nil || *doc.Wallets[1].AccountNumber != "110-234-567890" {
		t.Fatalf("account number %v, want plain text", doc.Wallets[1].AccountNumber)
	}

	// Into another member, over whatever they had.
	b := env.NewMember(apitest.AsPremium())
	lt.Wallet(b.Client, "사라질 지갑", api.WalletTypeCash, 0)
	counts := restore(t, b, doc)
	mustEqual(t, "counts", api.RestoreResult{
		Wallets: 8, Tags: 4, Categories: 8, Entries: 8, Transfers: 2, Recurring: 2, Budgets: 2, OnetimeBudgets: 2, QuickEntries: 2,
		ExpectedIncomes: 2,
	}, counts)
	mustEqual(t, "restored backup", doc, backupOf(t, b))

	// The restored transfers are transfers: their fee is linked, their sides
	// are refused to the entry operations.
	var ta, tb api.TransferPage
	a.Do(http.MethodGet, "/api/account/transfers", nil).Want(http.StatusOK).JSON(&ta)
	b.Do(http.MethodGet, "/api/account/transfers", nil).Want(http.StatusOK).JSON(&tb)
	if len(tb.Items) != 2 || tb.Items[0].Fee == nil || *tb.Items[0].Fee != 500 || tb.Items[0].FeeEntryID == nil ||
		tb.Items[0].Memo != "카드대금" || tb.Items[1].Fee != nil || tb.Items[1].Amount != ta.Items[1].Amount {
		t.Fatalf("restored transfers %+v", tb.Items)
	}
	b.Do(http.MethodDelete, fmt.Sprintf("/api/account/entries/%d", tb.Items[0].FromEntryID), nil).
		WantProblem(http.StatusConflict, "CONFLICT")
	// Statistics see the same month: transfers count in neither income nor
	// expense, the fee does.
	var sa, sb api.MonthlyStats
	a.Do(http.MethodGet, "/api/account/stats/monthly?year=2026&month=11", nil).Want(http.StatusOK).JSON(&sa)
	b.Do(http.MethodGet, "/api/account/stats/monthly?year=2026&month=11", nil).Want(http.StatusOK).JSON(&sb)
	if sa.Expense != sb.Expense || sa.Income != sb.Income || len(sb.Transfers) != 3 {
		t.Fatalf("monthly statistics %+v, restored %+v", sa, sb)
	}

	// The same ledger gives the same balances and pending count.
	var wa, wb api.WalletList
	a.Do(http.MethodGet, "/api/account/wallets", nil).Want(http.StatusOK).JSON(&wa)
	b.Do(http.MethodGet, "/api/account/wallets", nil).Want(http.StatusOK).JSON(&wb)
	for i := range wa.Items {
		if wa.Items[i].Balance != wb.Items[i].Balance || wa.Items[i].Name != wb.Items[i].Name && i != 7 {
			t.Errorf("wallet %d: %+v vs %+v", i, wa.Items[i], wb.Items[i])
		}
	}
	var pa, pb api.PendingCount
	a.Do(http.MethodGet, "/api/account/entries/pending/count", nil).Want(http.StatusOK).JSON(&pa)
	b.Do(http.MethodGet, "/api/account/entries/pending/count", nil).Want(http.StatusOK).JSON(&pb)
	if pa.Count != 1 || pb.Count != 1 {
		t.Fatalf("pending %d and %d", pa.Count, pb.Count)
	}
	// The restored pending entry keeps its key: the same notification again
	// is a duplicate.
	var again api.NotificationResult
	b.Do(http.MethodPost, "/api/account/entries/notification", api.NotificationRequest{
		Text: shinhan, PostedAt: lt.Ptr(time.Date(2026, 11, 16, 12, 40, 0, 0, time.UTC)),
	}).Want(http.StatusOK).JSON(&again)
	if again.Outcome != "DUPLICATE" {
		t.Fatalf("notification after restore: %+v", again)
	}

	// Restoring a member's own backup over their ledger changes nothing, and
	// the first member's ledger was never touched.
	restore(t, a, doc)
	mustEqual(t, "own restore", doc, backupOf(t, a))
}

func TestRestoreFailureInTheMiddleChangesNothing(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	richLedger(t, m)
	before := backupOf(t, m)

	// Wallets, tags, categories and entries are written before the
	// recurring entry that names a wallet the document lacks.
	bad := backupOf(t, m)
	bad.Recurring[1].Wallet = lt.Ptr("없는 지갑")
	p := m.Do(http.MethodPost, "/api/account/restore", bad).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	if len(p.Errors) != 1 || p.Errors[0].Field != "/recurring/1/wallet" {
		t.Fatalf("problem %+v", p)
	}
	mustEqual(t, "ledger after a failed restore", before, backupOf(t, m))

	// A failure of the database itself at the last step (quick entries).
	env.Exec(`CREATE FUNCTION fail_quick_entry() RETURNS trigger LANGUAGE plpgsql AS
		$$ BEGIN RAISE EXCEPTION 'quick entries are failing'; END $$`)
	env.Exec(`CREATE TRIGGER fail_quick_entry BEFORE INSERT ON quick_entry FOR EACH ROW EXECUTE FUNCTION fail_quick_entry()`)
	m.Do(http.MethodPost, "/api/account/restore", before).WantProblem(http.StatusInternalServerError, "INTERNAL")
	mustEqual(t, "ledger after a failed restore", before, backupOf(t, m))
}

func TestRestoreRefusesBadDocuments(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	lt.Wallet(m.Client, "현금", api.WalletTypeCash, 1000)
	before := backupOf(t, m)
	empty := api.Backup{
		Version: 1, Wallets: []api.BackupWallet{}, Tags: []string{}, Categories: []api.BackupCategory{},
		Entries: []api.BackupEntry{}, Recurring: []api.BackupRecurring{}, QuickEntries: []api.BackupQuickEntry{},
		Budgets: []api.BackupBudget{}, Transfers: []api.BackupTransfer{},
	}
	m.Do(http.MethodPost, "/api/account/restore", empty).WantProblem(http.StatusBadRequest, "EMPTY_BACKUP")
	for _, body := range []string{`{}`, " { \n } "} {
		m.Raw().Do(http.MethodPost, "/api/account/restore", []byte(body)).WantProblem(http.StatusBadRequest, "EMPTY_BACKUP")
	}
	// Any other document missing what is required names it.
	m.Raw().Do(http.MethodPost, "/api/account/restore", []byte(`{"version": 1}`)).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")

	wallet := func(name string) api.BackupWallet {
		return api.BackupWallet{Name: name, Type: api.WalletTypeValue(api.WalletTypeCash)}
	}
	entry := func() api.BackupEntry {
		return api.BackupEntry{Date: lt.Date(2026, 11, 1), Type: api.BackupEntryType("expense"), Amount: 1, Tags: []string{}}
	}
	for name, tc := range map[string]struct {
		edit  func(d *api.Backup)
		field string
	}{
		"repeated wallet": {func(d *api.Backup) { d.Wallets = []api.BackupWallet{wallet("a"), wallet(" a ")} }, "/wallets/1/name"},
		"control in name": {func(d *api.Backup) { d.Wallets = []api.BackupWallet{wallet("a\x1bb")} }, "/wallets/0/name"},
		// The backup's enums are open for a reader; restore still knows its values.
		"unknown wallet type": {func(d *api.Backup) { d.Wallets = []api.BackupWallet{{Name: "a", Type: "CRYPTO"}} }, "/wallets/0/type"},
		"unknown loan method": {func(d *api.Backup) {
			d.Wallets = []api.BackupWallet{{Name: "a", Type: "LOAN", LoanAmount: lt.Ptr[int64](1000), LoanRate: lt.Ptr("3"),
				LoanMethod: lt.Ptr[api.NullableLoanMethodValue]("BALLOON"), LoanMonths: lt.Ptr[int32](12), LoanStart: lt.Ptr(lt.Date(2026, 1, 1))}}
		}, "/wallets/0/loanMethod"},
		"unknown entry type": {func(d *api.Backup) {
			e := entry()
			e.Type = "transfer"
			d.Entries = []api.BackupEntry{e}
		}, "/entries/0/type"},
		"unknown wallet": {func(d *api.Backup) {
			e := entry()
			e.Wallet = lt.Ptr("none")
			d.Entries = []api.BackupEntry{e}
		}, "/entries/0/wallet"},
		"unknown category": {func(d *api.Backup) {
			d.Categories = []api.BackupCategory{{Name: "식비", Type: api.BackupEntryType("income")}}
			e := entry()
			e.Category = lt.Ptr("식비") // an income category for an expense
			d.Entries = []api.BackupEntry{e}
		}, "/entries/0/category"},
		"sub-category of a sub-category": {func(d *api.Backup) {
			d.Categories = []api.BackupCategory{
				{Name: "a", Type: api.BackupEntryType("expense")}, {Name: "b", Type: api.BackupEntryType("expense"), Parent: lt.Ptr("a")},
				{Name: "c", Type: api.BackupEntryType("expense"), Parent: lt.Ptr("b")},
			}
		}, "/categories/2/parent"},
		"installments on cash": {func(d *api.Backup) {
			d.Wallets = []api.BackupWallet{wallet("a")}
			e := entry()
			e.Wallet, e.InstallmentMonths = lt.Ptr("a"), lt.Ptr[int32](3)
			d.Entries = []api.BackupEntry{e}
		}, "/entries/0/installmentMonths"},
		"repeated notification key": {func(d *api.Backup) {
			e := entry()
			e.NotifKey = lt.Ptr("k")
			d.Entries = []api.BackupEntry{e, e}
		}, "/entries/1/notifKey"},
		"hostile memo": {func(d *api.Backup) {
			e := entry()
			e.Memo = "a\x1bb"
			d.Entries = []api.BackupEntry{e}
		}, "/entries/0/memo"},
		"transfer from no wallet": {func(d *api.Backup) {
			d.Wallets = []api.BackupWallet{wallet("a")}
			d.Transfers = []api.BackupTransfer{{Date: lt.Date(2026, 11, 1), Amount: 1, From: "b", To: "a"}}
		}, "/transfers/0/from"},
		"transfer to no wallet": {func(d *api.Backup) {
			d.Wallets = []api.BackupWallet{wallet("a")}
			d.Transfers = []api.BackupTransfer{{Date: lt.Date(2026, 11, 1), Amount: 1, From: "a", To: "b"}}
		}, "/transfers/0/to"},
		"fee entry past the entries": {func(d *api.Backup) {
			d.Wallets = []api.BackupWallet{wallet("a"), wallet("b")}
			d.Entries = []api.BackupEntry{entry()}
			d.Transfers = []api.BackupTransfer{{Date: lt.Date(2026, 11, 1), Amount: 1, From: "a", To: "b", FeeEntry: lt.Ptr[int32](1)}}
		}, "/transfers/0/feeEntry"},
		"fee entry of two transfers": {func(d *api.Backup) {
			d.Wallets = []api.BackupWallet{wallet("a"), wallet("b")}
			d.Entries = []api.BackupEntry{entry()}
			tr := api.BackupTransfer{Date: lt.Date(2026, 11, 1), Amount: 1, From: "a", To: "b", FeeEntry: lt.Ptr[int32](0)}
			d.Transfers = []api.BackupTransfer{tr, tr}
		}, "/transfers/1/feeEntry"},
		"hostile transfer memo": {func(d *api.Backup) {
			d.Wallets = []api.BackupWallet{wallet("a"), wallet("b")}
			d.Transfers = []api.BackupTransfer{{Date: lt.Date(2026, 11, 1), Amount: 1, From: "a", To: "b", Memo: "a\x1bb"}}
		}, "/transfers/0/memo"},
		"budget of an income category": {func(d *api.Backup) {
			d.Categories = []api.BackupCategory{{Name: "급여", Type: api.BackupEntryType("income")}}
			d.Budgets = []api.BackupBudget{{Category: "급여", Amount: 1}}
		}, "/budgets/0/category"},
		"category budgeted twice": {func(d *api.Backup) {
			d.Categories = []api.BackupCategory{{Name: "식비", Type: api.BackupEntryType("expense")}}
			d.Budgets = []api.BackupBudget{{Category: "식비", Amount: 1}, {Category: " 식비", Amount: 2}}
		}, "/budgets/1/category"},
		"one-time budget ending before it starts": {func(d *api.Backup) {
			d.OnetimeBudgets = &[]api.BackupOnetimeBudget{{Name: "a", Amount: 1, StartDate: lt.Date(2026, 12, 2), EndDate: lt.Date(2026, 12, 1)}}
		}, "/onetimeBudgets/0/endDate"},
		"one-time budget of no category": {func(d *api.Backup) {
			d.OnetimeBudgets = &[]api.BackupOnetimeBudget{{Name: "a", Amount: 1, StartDate: lt.Date(2026, 12, 1), EndDate: lt.Date(2026, 12, 1), Category: lt.Ptr("없음")}}
		}, "/onetimeBudgets/0/category"},
	} {
		d := empty
		tc.edit(&d)
		r := m.Raw().Do(http.MethodPost, "/api/account/restore", d)
		var p apitest.Problem
		if r.Status != http.StatusBadRequest {
			t.Errorf("%s: status %d", name, r.Status)
			continue
		}
		r.JSON(&p)
		if p.Code != "VALIDATION_FAILED" || len(p.Errors) == 0 || p.Errors[0].Field != tc.field {
			t.Errorf("%s: %+v, want %s", name, p, tc.field)
		}
	}
	// Version 2 is refused by the contract.
	d := before
	d.Version = 2
	m.Raw().Do(http.MethodPost, "/api/account/restore", d).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	mustEqual(t, "ledger after refused restores", before, backupOf(t, m))

	free := env.NewMember()
	free.Do(http.MethodGet, "/api/account/backup", nil).WantProblem(http.StatusForbidden, "PREMIUM_REQUIRED")
	free.Do(http.MethodPost, "/api/account/restore", before).WantProblem(http.StatusForbidden, "PREMIUM_REQUIRED")
}

// Restore deletes investments without recreating them, and replaces the
// member's transfers with the document's, leaving nothing of the old ones.
func TestRestoreDeletesInvestmentsAndReplacesTransfers(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 100000)
	card := lt.Wallet(m.Client, "Card", api.WalletTypeCard, 0)
	var old api.Transfer
	m.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
		Date: lt.Date(2026, 11, 12), Amount: 5000, FromWalletID: bank.ID, ToWalletID: card.ID,
	}).Want(http.StatusCreated).JSON(&old)
	var stock api.Stock
	m.Do(http.MethodPost, "/api/account/invest/stocks", api.StockRequest{Code: "005930", Name: "Held"}).
		Want(http.StatusCreated).JSON(&stock)
	m.Do(http.MethodPost, "/api/account/invest/trades", api.TradeRequest{
		StockID: stock.ID, Side: api.TradeSideBuy, Date: lt.Date(2026, 11, 10), Quantity: "1", Price: "100",
	}).Want(http.StatusCreated)
	doc := backupOf(t, m)
	restore(t, m, doc)

	count := func(sql string) int {
		t.Helper()
		var n int
		if err := env.Pool.QueryRow(context.Background(), sql, m.ID, old.ID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for what, sql := range map[string]string{
		"stocks":                 "SELECT count(*) FROM stock WHERE member_id = $1 AND $2::bigint IS NOT NULL",
		"trades":                 "SELECT count(*) FROM invest_trade WHERE member_id = $1 AND $2::bigint IS NOT NULL",
		"the old transfer":       "SELECT count(*) FROM transfer WHERE member_id = $1 AND id = $2",
		"the old transfer sides": "SELECT count(*) FROM account_entry WHERE member_id = $1 AND transfer_id = $2",
	} {
		if n := count(sql); n != 0 {
			t.Errorf("%s: %d rows after restore, want none", what, n)
		}
	}
	if n := count("SELECT count(*) FROM account_entry WHERE member_id = $1 AND transfer_id IS NOT NULL AND transfer_id <> $2"); n != 2 {
		t.Errorf("%d transfer sides after restore, want the 2 of the restored transfer", n)
	}
	mustEqual(t, "backup after restore", doc, backupOf(t, m))
}

// A backup holds the budgets of the current ledger month, or of the latest
// earlier month that has some; a restore puts them into the month current
// at its time.
func TestRestorePutsBudgetsIntoTheCurrentMonth(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	food := lt.Category(m.Client, "식비", api.EntryTypeExpense, nil)
	traffic := lt.Category(m.Client, "교통", api.EntryTypeExpense, nil)
	for _, b := range []api.BudgetRequest{
		{CategoryID: food.ID, Year: 2026, Month: 9, Amount: 1},
		{CategoryID: food.ID, Year: 2026, Month: 10, Amount: 300000},
		{CategoryID: traffic.ID, Year: 2026, Month: 10, Amount: 80000},
		{CategoryID: food.ID, Year: 2026, Month: 12, Amount: 999}, // a later month is not "current"
	} {
		m.Do(http.MethodPost, "/api/account/budgets", b).Want(http.StatusCreated)
	}
	doc := backupOf(t, m) // today is in November, which has no budgets
	mustEqual(t, "budgets", []api.BackupBudget{{Category: "식비", Amount: 300000}, {Category: "교통", Amount: 80000}}, doc.Budgets)

	env.Clock.Set(time.Date(2027, 1, 31, 23, 59, 0, 0, apitest.Start.Location()))
	restore(t, m, doc)
	budgets := func(year, month int) []api.Budget {
		var out api.BudgetList
		m.Do(http.MethodGet, fmt.Sprintf("/api/account/budgets?year=%d&month=%d", year, month), nil).Want(http.StatusOK).JSON(&out)
		return out.Items
	}
	jan := budgets(2027, 1)
	if len(jan) != 2 || jan[0].Amount+jan[1].Amount != 380000 {
		t.Fatalf("January's budgets after the restore: %+v", jan)
	}
	for _, month := range []int{9, 10, 11, 12} {
		if got := budgets(2026, month); len(got) != 0 {
			t.Errorf("2026-%02d keeps budgets after the restore: %+v", month, got)
		}
	}

	// With payday months starting on the 25th, 25 January is in "January"
	// and 24 January in "December".
	m.Do(http.MethodPut, "/api/auth/profile", api.UpdateProfileRequest{Name: "Payday", MonthStartDay: lt.Ptr[int32](25)}).Want(http.StatusOK)
	env.Clock.Set(time.Date(2027, 1, 24, 12, 0, 0, 0, apitest.Start.Location()))
	restore(t, m, doc)
	if dec := budgets(2026, 12); len(dec) != 2 {
		t.Fatalf("budgets restored on 24 January with a start day of 25: %+v", dec)
	}
}

// A transfer whose two sides came to one wallet (the other wallet deleted
// with its entries moved) is backed up and restored as it was.
func TestTransferWithinOneWalletSurvivesARestore(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 100000)
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	m.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
		Date: lt.Date(2026, 11, 12), Amount: 5000, FromWalletID: bank.ID, ToWalletID: cash.ID,
	}).Want(http.StatusCreated)
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/wallets/%d?moveTo=%d", cash.ID, bank.ID), nil).Want(http.StatusNoContent)
	doc := backupOf(t, m)
	if len(doc.Transfers) != 1 || doc.Transfers[0].From != "Bank" || doc.Transfers[0].To != "Bank" {
		t.Fatalf("transfers %+v", doc.Transfers)
	}
	restore(t, m, doc)
	mustEqual(t, "backup after restore", doc, backupOf(t, m))
}

// A backup written before the type values became lower case carries INCOME
// and EXPENSE: it restores, and the ledger then answers income and expense.
func TestRestoreReadsUpperCaseTypesOfOlderBackups(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	doc := api.Backup{
		Version: 1, Wallets: []api.BackupWallet{}, Tags: []string{},
		Categories: []api.BackupCategory{{Name: "식비", Type: api.BackupEntryType("EXPENSE")}, {Name: "급여", Type: api.BackupEntryType("INCOME")}},
		Entries: []api.BackupEntry{
			{Date: lt.Date(2026, 11, 1), Type: api.BackupEntryType("EXPENSE"), Amount: 9000, Category: lt.Ptr("식비"), Tags: []string{}},
			{Date: lt.Date(2026, 11, 2), Type: api.BackupEntryType("INCOME"), Amount: 100, Category: lt.Ptr("급여"), Tags: []string{}},
		},
		Recurring:    []api.BackupRecurring{{Name: "월세", Type: api.BackupEntryType("EXPENSE"), Amount: 1, Day: 25}},
		QuickEntries: []api.BackupQuickEntry{{Name: "버스", Type: api.BackupEntryType("EXPENSE"), Amount: 1500, Tags: []string{}}},
		Budgets:      []api.BackupBudget{}, Transfers: []api.BackupTransfer{},
	}
	if c := restore(t, m, doc); c.Entries != 2 || c.Categories != 2 {
		t.Fatalf("restored %+v", c)
	}
	got := backupOf(t, m)
	var types []api.BackupEntryType
	for _, c := range got.Categories {
		types = append(types, c.Type)
	}
	for _, e := range got.Entries {
		types = append(types, e.Type)
	}
	types = append(types, got.Recurring[0].Type, got.QuickEntries[0].Type)
	mustEqual(t, "types", []api.BackupEntryType{"expense", "income", "expense", "income", "expense", "expense"}, types)
}
