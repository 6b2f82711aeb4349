package money_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/ledger"
)

// Issue 42's last item: a member is never locked out of their own data.
// Amounts whose sum passes int64 were accepted (one create next to the
// others, a CSV import of 9,223 rows of 10^15, a restore of the member's own
// backup); then the month list answered 422 and the changes feed stopped for
// good at the page holding the wallet.

// maxInt64 is what an amount can hold.
const maxInt64 = int64(9_223_372_036_854_775_807)

// insertIncomes gives the wallet n income entries of the bound dated
// 2 November 2026, as a ledger stored before the write check (or restored
// by an older build) holds them: inserted directly, under every trigger.
func insertIncomes(env *apitest.Env, m *apitest.Member, walletID int64, n int) {
	env.Exec(`INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date)
		SELECT $1, $2, 'income', $3, '2026-11-02' FROM generate_series(1, $4)`, m.ID, walletID, int64(bound), n)
}

func entryCount(t *testing.T, env *apitest.Env, m *apitest.Member) int {
	t.Helper()
	var n int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM account_entry WHERE member_id = $1`, m.ID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// syncAll pages the changes feed from the empty cursor to its end and
// answers the wallet records it carried, by id.
func syncAll(t *testing.T, m *apitest.Member) map[string]api.Wallet {
	t.Helper()
	wallets := map[string]api.Wallet{}
	since := ""
	for pages := 0; ; pages++ {
		if pages > 1000 {
			t.Fatal("the feed did not end")
		}
		var p api.ChangePage
		m.Do(http.MethodGet, "/api/account/changes?limit=500&since="+since, nil).Want(http.StatusOK).JSON(&p)
		for _, c := range p.Changes {
			if w, err := c.AsWalletChange(); err == nil && w.Kind == api.WalletChangeKindWallet && w.Record != nil {
				wallets[w.ID] = *w.Record
			}
		}
		since = p.Next
		if !p.HasMore {
			return wallets
		}
	}
}

// wantAnswers checks what always answers: the month list's items, the
// feed to its end, backup and CSV export.
func wantAnswers(t *testing.T, m *apitest.Member) (api.EntryPage, map[string]api.Wallet) {
	t.Helper()
	var month api.EntryPage
	m.Do(http.MethodGet, "/api/account/entries?year=2026&month=11&size=100", nil).Want(http.StatusOK).JSON(&month)
	if len(month.Items) == 0 {
		t.Fatalf("the month list answered no items: %+v", month)
	}
	wallets := syncAll(t, m)
	m.Do(http.MethodGet, "/api/account/backup", nil).Want(http.StatusOK)
	m.Do(http.MethodGet, "/api/account/entries/export?from=2026-11-01&to=2026-11-30", nil).Want(http.StatusOK)
	return month, wallets
}

// TestStoredTotalsPastInt64NeverLockTheMemberOut: a ledger whose wallet
// balance and month income pass int64 (stored before the write check)
// still answers the month list's items, the feed to its end, backup and
// export; the totals that cannot be carried are flagged where they are
// carried; and the member can delete entries to bring them back.
func TestStoredTotalsPastInt64NeverLockTheMemberOut(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	insertIncomes(env, m, bank.ID, 10_000)

	month, wallets := wantAnswers(t, m)
	if month.Total != 10_000 || len(month.Items) != 100 {
		t.Fatalf("month list total %d, items %d", month.Total, len(month.Items))
	}
	s := month.Summary
	if s.OutOfRange == nil || len(*s.OutOfRange) != 1 || (*s.OutOfRange)[0] != api.EntrySummaryTotalValueIncome || s.Income != maxInt64 || s.Expense != 0 {
		t.Fatalf("summary %+v (out of range %v): want income flagged and held at the bound, expense 0", s, s.OutOfRange)
	}
	w, ok := wallets[fmt.Sprint(bank.ID)]
	if !ok || w.BalanceOutOfRange == nil || !*w.BalanceOutOfRange || w.Balance != maxInt64 {
		t.Fatalf("the feed's wallet %+v: want its balance flagged and held at the bound", w)
	}
	// The wallet's own answers flag it the same way.
	var got api.Wallet
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", bank.ID), nil).Want(http.StatusOK).JSON(&got)
	if got.BalanceOutOfRange == nil || !*got.BalanceOutOfRange || got.Balance != maxInt64 {
		t.Fatalf("wallet %+v", got)
	}

	// A write that moves the total further out is refused; one that brings
	// it back is not.
	m.Do(http.MethodPost, "/api/account/entries", lt.Income(lt.Date(2026, 11, 3), 1, bank.ID)).
		WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
	m.Do(http.MethodPost, "/api/account/entries", lt.Expense(lt.Date(2026, 11, 3), bound, bank.ID)).Want(http.StatusCreated)
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/entries/%d", month.Items[0].ID), nil).Want(http.StatusNoContent)

	// Once back within range, the totals are exact and unflagged.
	env.Exec(`DELETE FROM account_entry WHERE id IN (SELECT id FROM account_entry WHERE member_id = $1 AND type = 'income' LIMIT 1000)`, m.ID)
	month = api.EntryPage{}
	m.Do(http.MethodGet, "/api/account/entries?year=2026&month=11", nil).Want(http.StatusOK).JSON(&month)
	if month.Summary.OutOfRange != nil || month.Summary.Income != 8_999*bound || month.Summary.Expense != bound {
		t.Fatalf("summary after the deletions %+v", month.Summary)
	}
	got = api.Wallet{}
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", bank.ID), nil).Want(http.StatusOK).JSON(&got)
	if got.BalanceOutOfRange != nil || got.Balance != 8_998*bound {
		t.Fatalf("wallet after the deletions %+v", got)
	}
}

// TestOneCreatePastTheBoundIsRefused: next to 9,223 entries of 10^15 one
// more income into the same wallet and month would pass int64: 422
// TOTAL_OUT_OF_RANGE naming the total, nothing written, everything answers.
func TestOneCreatePastTheBoundIsRefused(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	other := lt.Wallet(m.Client, "Other", api.WalletTypeBank, 0)
	insertIncomes(env, m, bank.ID, 9_223)

	p := m.Do(http.MethodPost, "/api/account/entries", lt.Income(lt.Date(2026, 11, 3), bound, bank.ID)).
		WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
	if !strings.Contains(p.Detail, "balance of wallet") {
		t.Fatalf("detail %q does not name the balance", p.Detail)
	}
	// Another wallet: its balance fits, but the month's income would not,
	// nor would net worth's assets.
	p = m.Do(http.MethodPost, "/api/account/entries", lt.Income(lt.Date(2026, 11, 3), bound, other.ID)).
		WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
	if !strings.Contains(p.Detail, "income of the ledger month") {
		t.Fatalf("detail %q does not name the month's income", p.Detail)
	}
	// Another month: the month fits, net worth's assets would not.
	p = m.Do(http.MethodPost, "/api/account/entries", lt.Income(lt.Date(2026, 12, 3), bound, other.ID)).
		WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
	if !strings.Contains(p.Detail, "net worth") {
		t.Fatalf("detail %q does not name net worth", p.Detail)
	}
	if n := entryCount(t, env, m); n != 9_223 {
		t.Fatalf("%d entries after the refused creates", n)
	}
	month, _ := wantAnswers(t, m)
	if month.Summary.OutOfRange != nil || month.Summary.Income != 9_223*bound {
		t.Fatalf("summary %+v", month.Summary)
	}

	// An edit, a confirmation and a transfer that would pass it are
	// refused the same way.
	e := lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 3), 0, bank.ID))
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/entries/%d", e.ID), lt.Income(lt.Date(2026, 11, 3), bound, bank.ID)).
		WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
	env.Exec(`INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, pending) VALUES ($1, $2, 'income', $3, '2026-11-04', true)`,
		m.ID, bank.ID, int64(bound))
	var pending int64
	if err := env.Pool.QueryRow(t.Context(), `SELECT id FROM account_entry WHERE member_id = $1 AND pending`, m.ID).Scan(&pending); err != nil {
		t.Fatal(err)
	}
	m.Do(http.MethodPost, fmt.Sprintf("/api/account/entries/%d/confirm", pending), nil).
		WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
	env.Exec(`UPDATE account_entry SET amount = 0 WHERE id = $1`, pending)
	m.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
		Date: lt.Date(2026, 11, 5), Amount: bound, FromWalletID: other.ID, ToWalletID: bank.ID,
	}).WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
	if n := entryCount(t, env, m); n != 9_225 {
		t.Fatalf("%d entries after the refused writes", n)
	}
	wantAnswers(t, m)
}

// TestImportPastTheBoundIsRefused: 9,223 rows of 10^15 next to one entry
// of 10^15 would pass int64: the import is refused whole.
func TestImportPastTheBoundIsRefused(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	lt.Entry(m.Client, lt.Income(lt.Date(2026, 11, 1), bound, bank.ID))
	var file strings.Builder
	file.WriteString("date,type,amount,wallet,category,tags,memo,currency,original_amount,exchange_rate,installment_months,transfer_id\r\n")
	for i := range 9_223 {
		fmt.Fprintf(&file, "2026-11-02,income,%d,Bank,,,row %d,,,,,\r\n", int64(bound), i)
	}
	ct, body := csvBody(t, []byte(file.String()))
	p := m.Send(http.MethodPost, "/api/account/entries/import", ct, body).
		WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
	if !strings.Contains(p.Detail, "balance of wallet") && !strings.Contains(p.Detail, "income of the ledger month") {
		t.Fatalf("detail %q names no total", p.Detail)
	}
	if n := entryCount(t, env, m); n != 1 {
		t.Fatalf("%d entries after the refused import", n)
	}
	wantAnswers(t, m)
}

func csvBody(t *testing.T, file []byte) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="entries.csv"`)
	h.Set("Content-Type", "text/csv")
	part, err := w.CreatePart(h)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = part.Write(file)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.FormDataContentType(), buf.Bytes()
}

// TestRestoreOfABackupPastTheBoundIsRefused: the member's own backup of a
// ledger whose totals pass int64 (stored before the check) is answered,
// and restoring it is refused whole, the ledger as it was.
func TestRestoreOfABackupPastTheBoundIsRefused(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	insertIncomes(env, m, bank.ID, 9_300)
	res := m.Do(http.MethodGet, "/api/account/backup", nil).Want(http.StatusOK)
	var doc json.RawMessage
	res.JSON(&doc)
	p := m.Send(http.MethodPost, "/api/account/restore", "application/json", doc).
		WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
	if !strings.Contains(p.Detail, "balance of wallet") && !strings.Contains(p.Detail, "income of the ledger month") {
		t.Fatalf("detail %q names no total", p.Detail)
	}
	if n := entryCount(t, env, m); n != 9_300 {
		t.Fatalf("%d entries after the refused restore", n)
	}
	wantAnswers(t, m)
}

// TestParallelWritesCannotTogetherPassTheBound: with room under the
// check's limit (ledger.Limit, int64 less the reserve for writes in flight)
// for one more entry of 10^15, eight writes started together at a barrier
// (creates and transfers, single writes: no exclusive lock) each check
// without seeing the others. Some go through, at least one; the rest answer
// 422, never 500; and the stored balance stays within int64, which the
// reserve keeps it to. Without the reserve and without the lock (the limit
// at int64 itself, no exclusive lock) the writes that went through would
// together pass int64 and this fails.
func TestParallelWritesCannotTogetherPassTheBound(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	room := int(ledger.Limit/bound) - 1 // entries of 10^15 leaving room for one
	for round := range 3 {
		m := env.NewMember(apitest.AsPremium())
		bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
		other := lt.Wallet(m.Client, "Other", api.WalletTypeBank, 0)
		insertIncomes(env, m, bank.ID, room)
		answers := apitest.TogetherV(8, func(i int) *apitest.Response {
			if i%4 == 3 {
				return m.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
					Date: lt.Date(2026, 12, 5), Amount: bound, FromWalletID: other.ID, ToWalletID: bank.ID,
				})
			}
			return m.Do(http.MethodPost, "/api/account/entries", lt.Income(lt.Date(2026, 12, 3), bound, bank.ID))
		})
		created := 0
		for i, res := range answers {
			switch res.Status {
			case http.StatusCreated:
				created++
			case http.StatusUnprocessableEntity:
				if !strings.Contains(string(res.Body), "TOTAL_OUT_OF_RANGE") {
					t.Errorf("round %d write %d: %s", round, i, res.Body)
				}
			default:
				t.Errorf("round %d write %d: %d %s", round, i, res.Status, res.Body)
			}
		}
		if created < 1 {
			t.Errorf("round %d: no write went through, want at least the one with room", round)
		}
		// The stored balance, summed exactly: within int64, and what the
		// writes that went through make it.
		var fits bool
		var balance string
		if err := env.Pool.QueryRow(t.Context(), `SELECT s <= 9223372036854775807, s::text FROM (
			SELECT SUM(CASE WHEN type = 'income' THEN amount::numeric ELSE -amount::numeric END) AS s
			FROM account_entry WHERE member_id = $1 AND wallet_id = $2 AND NOT pending) b`, m.ID, bank.ID).Scan(&fits, &balance); err != nil {
			t.Fatal(err)
		}
		if !fits {
			t.Errorf("round %d: %d writes went through together and the balance is %s won, beyond int64", round, created, balance)
		}
		var w api.Wallet
		m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", bank.ID), nil).Want(http.StatusOK).JSON(&w)
		if fits && (w.BalanceOutOfRange != nil || w.Balance != int64(room+created)*bound) {
			t.Errorf("round %d: %d created, wallet %+v", round, created, w)
		}
	}
}

// TestWalletWritesAndDeletionsPastTheBoundAreRefused: a wallet's opening
// balance, a deletion of an expense and a wallet's deletion with moveTo
// move balances too: each that would pass the check's limit is refused,
// nothing written.
func TestWalletWritesAndDeletionsPastTheBoundAreRefused(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	full := int(ledger.Limit / bound) // 8,223: no room for another 10^15
	insertIncomes(env, m, bank.ID, full)
	p := m.Do(http.MethodPost, "/api/account/wallets", api.WalletRequest{Name: "More", Type: api.WalletTypeBank, OpeningBalance: lt.Ptr[int64](bound)}).
		WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
	if !strings.Contains(p.Detail, "net worth") {
		t.Fatalf("detail %q", p.Detail)
	}
	spent := lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 3), bound, bank.ID))
	lt.Entry(m.Client, lt.Income(lt.Date(2026, 12, 4), bound/2, bank.ID)) // the bank at (full − 0.5) × 10^15
	p = m.Do(http.MethodDelete, fmt.Sprintf("/api/account/entries/%d", spent.ID), nil).
		WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
	if !strings.Contains(p.Detail, "balance of wallet") {
		t.Fatalf("detail %q", p.Detail)
	}
	// A wallet whose entries would take the bank past the bound.
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	env.Exec(`INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date) VALUES ($1, $2, 'income', $3, '2026-11-05')`, m.ID, cash.ID, int64(bound))
	p = m.Do(http.MethodDelete, fmt.Sprintf("/api/account/wallets/%d?moveTo=%d", cash.ID, bank.ID), nil).
		WantProblem(http.StatusUnprocessableEntity, "TOTAL_OUT_OF_RANGE")
	if !strings.Contains(p.Detail, "balance of wallet") {
		t.Fatalf("detail %q", p.Detail)
	}
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", cash.ID), nil).Want(http.StatusOK)
	wantAnswers(t, m)
}
