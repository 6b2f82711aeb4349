package backup_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/ledger/ledgertest"
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
// installments and a pending one, recurring and quick entries.
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
		Text: shinhan, PostedAt: time.Date(2026, 11, 16, 12, 40, 0, 0, time.UTC),
	}).Want(http.StatusOK)

	m.Do(http.MethodPost, "/api/account/recurrings", api.RecurringRequest{
		Name: "월세", Type: api.EntryTypeExpense, Amount: 650000, Day: 25, WalletID: &bank.ID, CategoryID: &otherTraffic.ID, Memo: lt.Ptr("집주인"),
	}).Want(http.StatusCreated)
	m.Do(http.MethodPost, "/api/account/recurrings", api.RecurringRequest{Name: "용돈", Type: api.EntryTypeIncome, Amount: 100000, Day: 31}).
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
	if doc.Version != 1 || len(doc.Wallets) != 8 || len(doc.Categories) != 8 || len(doc.Entries) != 7 ||
		len(doc.Recurring) != 2 || len(doc.QuickEntries) != 2 {
		t.Fatalf("backup %+v", doc)
	}
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
	mustEqual(t, "counts", api.RestoreResult{Wallets: 8, Tags: 4, Categories: 8, Entries: 7, Recurring: 2, QuickEntries: 2}, counts)
	mustEqual(t, "restored backup", doc, backupOf(t, b))

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
		Text: shinhan, PostedAt: time.Date(2026, 11, 16, 12, 40, 0, 0, time.UTC),
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
		Budgets: []map[string]any{}, Transfers: []map[string]any{},
	}
	m.Do(http.MethodPost, "/api/account/restore", empty).WantProblem(http.StatusBadRequest, "EMPTY_BACKUP")

	wallet := func(name string) api.BackupWallet {
		return api.BackupWallet{Name: name, Type: api.WalletTypeCash}
	}
	entry := func() api.BackupEntry {
		return api.BackupEntry{Date: lt.Date(2026, 11, 1), Type: api.EntryTypeExpense, Amount: 1, Tags: []string{}}
	}
	for name, tc := range map[string]struct {
		edit  func(d *api.Backup)
		field string
	}{
		"repeated wallet": {func(d *api.Backup) { d.Wallets = []api.BackupWallet{wallet("a"), wallet(" a ")} }, "/wallets/1/name"},
		"control in name": {func(d *api.Backup) { d.Wallets = []api.BackupWallet{wallet("a\x1bb")} }, "/wallets/0/name"},
		"unknown wallet": {func(d *api.Backup) {
			e := entry()
			e.Wallet = lt.Ptr("none")
			d.Entries = []api.BackupEntry{e}
		}, "/entries/0/wallet"},
		"unknown category": {func(d *api.Backup) {
			d.Categories = []api.BackupCategory{{Name: "식비", Type: api.EntryTypeIncome}}
			e := entry()
			e.Category = lt.Ptr("식비") // an income category for an expense
			d.Entries = []api.BackupEntry{e}
		}, "/entries/0/category"},
		"sub-category of a sub-category": {func(d *api.Backup) {
			d.Categories = []api.BackupCategory{
				{Name: "a", Type: api.EntryTypeExpense}, {Name: "b", Type: api.EntryTypeExpense, Parent: lt.Ptr("a")},
				{Name: "c", Type: api.EntryTypeExpense, Parent: lt.Ptr("b")},
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
	// Version 2 and items in the reserved arrays are refused by the contract.
	d := before
	d.Version = 2
	m.Raw().Do(http.MethodPost, "/api/account/restore", d).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	d = before
	d.Budgets = []map[string]any{{"category": "식비"}}
	m.Raw().Do(http.MethodPost, "/api/account/restore", d).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	mustEqual(t, "ledger after refused restores", before, backupOf(t, m))

	free := env.NewMember()
	free.Do(http.MethodGet, "/api/account/backup", nil).WantProblem(http.StatusForbidden, "PREMIUM_REQUIRED")
	free.Do(http.MethodPost, "/api/account/restore", before).WantProblem(http.StatusForbidden, "PREMIUM_REQUIRED")
}

// Restore deletes investments without recreating them, and the member's
// transfers with their entries, leaving nothing behind.
func TestRestoreDeletesInvestmentsAndTransfers(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 100000)
	card := lt.Wallet(m.Client, "Card", api.WalletTypeCard, 0)
	m.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
		Date: lt.Date(2026, 11, 12), Amount: 5000, FromWalletID: bank.ID, ToWalletID: card.ID,
	}).Want(http.StatusCreated)
	var stock api.Stock
	m.Do(http.MethodPost, "/api/account/invest/stocks", api.StockRequest{Code: "005930", Name: "Held"}).
		Want(http.StatusCreated).JSON(&stock)
	m.Do(http.MethodPost, "/api/account/invest/trades", api.TradeRequest{
		StockID: stock.ID, Side: api.TradeSideBuy, Date: lt.Date(2026, 11, 10), Quantity: "1", Price: "100",
	}).Want(http.StatusCreated)
	doc := backupOf(t, m)
	restore(t, m, doc)

	for table, want := range map[string]int{"stock": 0, "invest_trade": 0, "transfer": 0} {
		var n int
		if err := env.Pool.QueryRow(context.Background(), "SELECT count(*) FROM "+table+" WHERE member_id = $1", m.ID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != want {
			t.Errorf("%s has %d rows of the member after restore, want %d", table, n, want)
		}
	}
}
