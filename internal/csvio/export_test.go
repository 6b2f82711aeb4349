package csvio_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

const exportPath = "/api/account/entries/export"

// transferID is the transfer_id cell at a line's end.
var transferID = regexp.MustCompile(`,\d+\r\n`)

func exportCSV(t *testing.T, m *apitest.Member, from, to string) string {
	t.Helper()
	res := m.Do(http.MethodGet, exportPath+"?from="+from+"&to="+to, nil).Want(http.StatusOK)
	if ct := res.Header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
		t.Fatalf("content type %q", ct)
	}
	if cd := res.Header.Get("Content-Disposition"); cd != `attachment; filename="nestegg-entries-`+from+`-`+to+`.csv"` {
		t.Fatalf("content disposition %q", cd)
	}
	return string(res.Body)
}

// A ledger with every column in use: two wallets, a sub-category, tags, a
// foreign payment, installments, a transfer, a memo that looks like a
// formula, and a pending entry (not exported).
func exportLedger(t *testing.T, m *apitest.Member) {
	t.Helper()
	bank := lt.Wallet(m.Client, "급여통장", api.WalletTypeBank, 0)
	card := lt.Wallet(m.Client, "=국민카드", api.WalletTypeCard, 0)
	food := lt.Category(m.Client, "식비", api.EntryTypeExpense, nil)
	lunch := lt.Category(m.Client, "점심", api.EntryTypeExpense, &food.ID)
	salary := lt.Category(m.Client, "급여", api.EntryTypeIncome, nil)

	e := lt.Expense(lt.Date(2026, 11, 3), 12000, card.ID)
	e.CategoryID, e.Memo, e.Tags = &lunch.ID, lt.Ptr("점심, \"회식\""), &[]string{"work", "team"}
	lt.Entry(m.Client, e)
	e = lt.Expense(lt.Date(2026, 11, 5), 0, card.ID)
	e.Amount, e.Currency, e.OriginalAmount, e.ExchangeRate = nil, lt.Ptr("USD"), lt.Ptr("12.50"), lt.Ptr("1391.25")
	e.Memo = lt.Ptr("-AMAZON.COM")
	lt.Entry(m.Client, e)
	e = lt.Expense(lt.Date(2026, 11, 6), 1290000, card.ID)
	e.InstallmentMonths, e.CategoryID, e.Memo = lt.Ptr[int32](3), &food.ID, lt.Ptr("@노트북\n2대")
	lt.Entry(m.Client, e)
	e = lt.Income(lt.Date(2026, 11, 1), 3000000, bank.ID)
	e.CategoryID, e.Memo = &salary.ID, lt.Ptr("+월급")
	lt.Entry(m.Client, e)
	lt.Entry(m.Client, api.EntryRequest{Date: lt.Date(2026, 11, 10), Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](4500)})
	m.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
		Date: lt.Date(2026, 11, 12), Amount: 350000, FromWalletID: bank.ID, ToWalletID: card.ID, Memo: lt.Ptr("카드대금"),
	}).Want(http.StatusCreated)
	m.Do(http.MethodPost, "/api/account/entries/notification", api.NotificationRequest{
		Text: "[Web발신]\n신한카드(1234)승인 홍*동 12,500원(일시불)11/16 12:34 스타벅스 누적1,234,567원",
	}).Want(http.StatusOK)
	// Outside the period.
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 10, 31), 1, bank.ID))
}

func TestExportWritesEveryColumn(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	exportLedger(t, m)
	got := exportCSV(t, m, "2026-11-01", "2026-11-30")
	// The transfer's id is the one thing that differs between runs.
	got = regexp.MustCompile(`,카드대금,,,,,\d+\r\n`).ReplaceAllString(got, ",카드대금,,,,,T\r\n")
	want := []string{
		"\uFEFFdate,type,amount,wallet,category,tags,memo,currency,original_amount,exchange_rate,installment_months,transfer_id",
		"2026-11-01,income,3000000,급여통장,급여,,'+월급,,,,,",
		`2026-11-03,expense,12000,'=국민카드,식비/점심,work;team,"점심, ""회식""",,,,,`,
		"2026-11-05,expense,17391,'=국민카드,,,'-AMAZON.COM,USD,12.5,1391.25,,",
		"2026-11-06,expense,1290000,'=국민카드,식비,,\"'@노트북\r\n2대\",,,,3,",
		"2026-11-10,expense,4500,,,,,,,,,",
		"2026-11-12,expense,350000,급여통장,,,카드대금,,,,,T",
		"2026-11-12,income,350000,'=국민카드,,,카드대금,,,,,T",
		"",
	}
	if got != strings.Join(want, "\r\n") {
		t.Fatalf("export:\n%q\nwant:\n%q", got, strings.Join(want, "\r\n"))
	}
}

func TestExportOfAnEmptyPeriodIsTheHeader(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	got := exportCSV(t, m, "2026-01-01", "2026-01-01")
	if got != "\uFEFF"+strings.Join([]string{"date", "type", "amount", "wallet", "category", "tags", "memo", "currency",
		"original_amount", "exchange_rate", "installment_months", "transfer_id"}, ",")+"\r\n" {
		t.Fatalf("export %q", got)
	}
}

func TestExportRefusesABadPeriodAndFreeMembers(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	m.Do(http.MethodGet, exportPath+"?from=2026-02-01&to=2026-01-31", nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	m.Do(http.MethodGet, exportPath+"?from=2016-01-01&to=2026-01-31", nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	m.Raw().Do(http.MethodGet, exportPath+"?from=2026-01-01", nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	free := env.NewMember()
	free.Do(http.MethodGet, exportPath+"?from=2026-01-01&to=2026-01-31", nil).WantProblem(http.StatusForbidden, "PREMIUM_REQUIRED")
}

// Another member's entries are never in the file.
func TestExportIsTheMembersOwn(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	a := env.NewMember(apitest.AsPremium())
	b := env.NewMember(apitest.AsPremium())
	exportLedger(t, a)
	got := exportCSV(t, b, "2026-11-01", "2026-11-30")
	if strings.Count(got, "\r\n") != 1 {
		t.Fatalf("b's export holds rows: %q", got)
	}
}
