package budget_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/app"
)

// fixedBonus is the first draw of the source the tests fix.
func fixedBonus() int {
	return rand.New(rand.NewPCG(8, 8)).IntN(100) + 1
}

func bonusEnv(t *testing.T) *apitest.Env {
	return apitest.New(t, apitest.WithAppOptions(func(o *app.Options) { o.BonusRand = rand.NewPCG(8, 8) }))
}

// fillDays gives the member an entry on every day of [from, to) directly.
func fillDays(t *testing.T, env *apitest.Env, m *apitest.Member, from, to time.Time) {
	t.Helper()
	env.Exec(`INSERT INTO account_entry (member_id, type, amount, entry_date)
		SELECT $1, 'expense', 1000, d::date FROM generate_series($2::date, $3::date - 1, interval '1 day') d`, m.ID, from, to)
}

type award struct {
	Points int
	Reason string
}

func awards(t *testing.T, env *apitest.Env, m *apitest.Member) []award {
	t.Helper()
	rows, err := env.Pool.Query(context.Background(), `SELECT points, reason FROM point_history WHERE member_id = $1 AND reason LIKE 'MONTH_COMPLETE_%' ORDER BY id`, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []award
	for rows.Next() {
		var a award
		if err := rows.Scan(&a.Points, &a.Reason); err != nil {
			t.Fatal(err)
		}
		out = append(out, a)
	}
	return out
}

func pointsOf(m *apitest.Member) int64 {
	var p api.Profile
	m.Do(http.MethodGet, "/api/auth/profile", nil).Want(http.StatusOK).JSON(&p)
	return p.Points
}

// TestMonthCompleteBonusOnceUnderParallelWrites: 20 parallel writes of the
// last missing day (at 23:59 of the month's last day in APP_TIMEZONE) give
// the bonus exactly once; pending entries and transfer sides do not fill a
// day.
func TestMonthCompleteBonusOnceUnderParallelWrites(t *testing.T) {
	t.Parallel()
	env := bonusEnv(t)
	m := env.NewMember()
	seoul := env.Clock.Now().Location()
	env.Clock.Set(time.Date(2026, 11, 30, 23, 59, 0, 0, seoul))
	fillDays(t, env, m, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))
	env.Exec(`INSERT INTO account_entry (member_id, type, amount, entry_date, pending) VALUES ($1, 'expense', 1, '2026-11-30', true)`, m.ID)
	env.Exec(`WITH t AS (INSERT INTO transfer (member_id, transfer_date, amount) VALUES ($1, '2026-11-30', 1) RETURNING id)
		INSERT INTO account_entry (member_id, type, amount, entry_date, transfer_id) SELECT $1, 'expense', 1, '2026-11-30', id FROM t`, m.ID)
	// A write of another day changes nothing: the 30th is still missing.
	five := int64(5)
	lt.Entry(m.Client, api.EntryRequest{Date: lt.Date(2026, 11, 29), Type: api.EntryTypeExpense, Amount: &five})
	if a := awards(t, env, m); len(a) != 0 {
		t.Fatalf("awarded %v before the month was complete", a)
	}

	amount := int64(100)
	answers := apitest.TogetherV(20, func(int) *apitest.Response {
		return m.Do(http.MethodPost, "/api/account/entries", api.EntryRequest{Date: lt.Date(2026, 11, 30), Type: api.EntryTypeExpense, Amount: &amount})
	})
	for _, res := range answers {
		if res.Status != http.StatusCreated {
			t.Errorf("create: %d %s", res.Status, res.Body)
		}
	}
	want := []award{{fixedBonus(), "MONTH_COMPLETE_202611"}}
	if got := awards(t, env, m); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("awards %v, want %v", got, want)
	}
	if p := pointsOf(m); p != int64(want[0].Points) {
		t.Fatalf("points %d, want %d", p, want[0].Points)
	}
}

// TestMonthCompleteBonusWhenABackfillCoversTheLastMissingDay: on the
// month's last day, with today covered, an entry written for the one past
// day still missing completes the month; it is not dated today, so only
// the create's new-day answer (asked on that day) runs the check.
func TestMonthCompleteBonusWhenABackfillCoversTheLastMissingDay(t *testing.T) {
	t.Parallel()
	env := bonusEnv(t)
	m := env.NewMember()
	seoul := env.Clock.Now().Location()
	env.Clock.Set(time.Date(2026, 11, 30, 21, 0, 0, 0, seoul))
	fillDays(t, env, m, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 12, 0, 0, 0, 0, time.UTC))
	fillDays(t, env, m, time.Date(2026, 11, 13, 0, 0, 0, 0, time.UTC), time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	amount := int64(100)
	m.Do(http.MethodPost, "/api/account/entries", api.EntryRequest{Date: lt.Date(2026, 11, 12), Type: api.EntryTypeExpense, Amount: &amount}).Want(http.StatusCreated)
	want := []award{{fixedBonus(), "MONTH_COMPLETE_202611"}}
	if got := awards(t, env, m); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("awards %v, want %v", got, want)
	}
}

// TestMonthCompleteBonusOnlyForTheCurrentMonth: completing last month on
// the first day of the next gives nothing.
func TestMonthCompleteBonusOnlyForTheCurrentMonth(t *testing.T) {
	t.Parallel()
	env := bonusEnv(t)
	m := env.NewMember()
	seoul := env.Clock.Now().Location()
	env.Clock.Set(time.Date(2026, 12, 1, 0, 0, 0, 0, seoul))
	fillDays(t, env, m, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))
	amount := int64(1)
	m.Do(http.MethodPost, "/api/account/entries", api.EntryRequest{Date: lt.Date(2026, 11, 30), Type: api.EntryTypeExpense, Amount: &amount}).Want(http.StatusCreated)
	if a := awards(t, env, m); len(a) != 0 {
		t.Fatalf("back-filling November in December gave %v", a)
	}
}

// TestMonthCompleteBonusFollowsPaydayMonthsAndConfirmation: with start day
// 25 the month ends on 24 December (across the turn of the year for
// "December"), and confirming a pending entry completes it too.
func TestMonthCompleteBonusFollowsPaydayMonthsAndConfirmation(t *testing.T) {
	t.Parallel()
	env := bonusEnv(t)
	m := env.NewMember()
	setStartDay(t, m, 25)
	seoul := env.Clock.Now().Location()
	env.Clock.Set(time.Date(2027, 1, 24, 23, 59, 0, 0, seoul))
	fillDays(t, env, m, time.Date(2026, 12, 25, 0, 0, 0, 0, time.UTC), time.Date(2027, 1, 24, 0, 0, 0, 0, time.UTC))
	var pendingID int64
	if err := env.Pool.QueryRow(context.Background(), `INSERT INTO account_entry (member_id, type, amount, entry_date, pending)
		VALUES ($1, 'expense', 1, '2027-01-24', true) RETURNING id`, m.ID).Scan(&pendingID); err != nil {
		t.Fatal(err)
	}
	if a := awards(t, env, m); len(a) != 0 {
		t.Fatalf("awarded %v early", a)
	}
	m.Do(http.MethodPost, fmt.Sprintf("/api/account/entries/%d/confirm", pendingID), nil).Want(http.StatusOK)
	want := []award{{fixedBonus(), "MONTH_COMPLETE_202612"}}
	if got := awards(t, env, m); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("awards %v, want %v", got, want)
	}
	// The next payday month begins at 00:00 of 25 January.
	env.Clock.Set(time.Date(2027, 1, 25, 0, 0, 0, 0, seoul))
	amount := int64(1)
	m.Do(http.MethodPost, "/api/account/entries", api.EntryRequest{Date: lt.Date(2027, 1, 24), Type: api.EntryTypeExpense, Amount: &amount}).Want(http.StatusCreated)
	if got := awards(t, env, m); len(got) != 1 {
		t.Fatalf("awards %v after the month ended", got)
	}
}

// TestMonthCompleteBonusWhenAnUpdateMovesAnEntryOntoTheLastMissingDay: an
// update that keeps its date covers no new day and gives nothing; moving the
// entry onto the month's last missing day completes the month.
func TestMonthCompleteBonusWhenAnUpdateMovesAnEntryOntoTheLastMissingDay(t *testing.T) {
	t.Parallel()
	env := bonusEnv(t)
	m := env.NewMember()
	env.Clock.Set(time.Date(2026, 11, 30, 12, 0, 0, 0, env.Clock.Now().Location()))
	fillDays(t, env, m, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))
	amount := int64(1)
	e := lt.Entry(m.Client, api.EntryRequest{Date: lt.Date(2026, 11, 10), Type: api.EntryTypeExpense, Amount: &amount})
	amount = 2
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/entries/%d", e.ID),
		api.EntryRequest{Date: lt.Date(2026, 11, 10), Type: api.EntryTypeExpense, Amount: &amount}).Want(http.StatusOK)
	if a := awards(t, env, m); len(a) != 0 {
		t.Fatalf("an update keeping its date gave %v", a)
	}
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/entries/%d", e.ID),
		api.EntryRequest{Date: lt.Date(2026, 11, 30), Type: api.EntryTypeExpense, Amount: &amount}).Want(http.StatusOK)
	if a := awards(t, env, m); len(a) != 1 || a[0].Points != fixedBonus() || a[0].Reason != "MONTH_COMPLETE_202611" {
		t.Fatalf("moving the entry onto 30 November gave %v, want one award of %d", a, fixedBonus())
	}
}

// TestMonthCompleteBonusCountsNoEntryDatedAfterToday: entries written ahead
// into the rest of the month do not complete it; on its last day, with
// every day up to today covered, the month is complete.
func TestMonthCompleteBonusCountsNoEntryDatedAfterToday(t *testing.T) {
	t.Parallel()
	env := bonusEnv(t)
	m := env.NewMember()
	seoul := env.Clock.Now().Location()
	env.Clock.Set(time.Date(2026, 11, 16, 9, 0, 0, 0, seoul))
	fillDays(t, env, m, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))
	amount := int64(1)
	// The 30th is the only day missing, written on the 16th: in the future.
	m.Do(http.MethodPost, "/api/account/entries", api.EntryRequest{Date: lt.Date(2026, 11, 30), Type: api.EntryTypeExpense, Amount: &amount}).Want(http.StatusCreated)
	// And a write of today, with every day of the month now holding an entry.
	m.Do(http.MethodPost, "/api/account/entries", api.EntryRequest{Date: lt.Date(2026, 11, 16), Type: api.EntryTypeExpense, Amount: &amount}).Want(http.StatusCreated)
	if a := awards(t, env, m); len(a) != 0 {
		t.Fatalf("entries dated after today gave %v", a)
	}
	// On the last day the entry written ahead counts: the next write dated
	// today completes the month, though it covers no new day.
	env.Clock.Set(time.Date(2026, 11, 30, 21, 0, 0, 0, seoul))
	m.Do(http.MethodPost, "/api/account/entries", api.EntryRequest{Date: lt.Date(2026, 11, 30), Type: api.EntryTypeExpense, Amount: &amount}).Want(http.StatusCreated)
	if a := awards(t, env, m); len(a) != 1 || a[0].Reason != "MONTH_COMPLETE_202611" {
		t.Fatalf("completing the month on its last day gave %v, want one award", a)
	}
}

func firstEntryOn(t *testing.T, env *apitest.Env, m *apitest.Member, day string) int64 {
	t.Helper()
	var id int64
	if err := env.Pool.QueryRow(context.Background(), `SELECT min(id) FROM account_entry WHERE member_id = $1 AND entry_date = $2`, m.ID, day).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestConfirmingAConfirmedEntryChangesNothing: a retried confirmation is a
// no-op and runs no month-complete check; a real one does.
func TestConfirmingAConfirmedEntryChangesNothing(t *testing.T) {
	t.Parallel()
	env := bonusEnv(t)
	m := env.NewMember()
	env.Clock.Set(time.Date(2026, 11, 30, 12, 0, 0, 0, env.Clock.Now().Location()))
	// Every day covered behind the API's back: complete, but never checked.
	fillDays(t, env, m, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	confirmed := firstEntryOn(t, env, m, "2026-11-30")
	var before api.Entry
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", confirmed), nil).Want(http.StatusOK).JSON(&before)
	var after api.Entry
	m.Do(http.MethodPost, fmt.Sprintf("/api/account/entries/%d/confirm", confirmed), nil).Want(http.StatusOK).JSON(&after)
	if fmt.Sprint(before) != fmt.Sprint(after) {
		t.Fatalf("confirming a confirmed entry changed it: %+v -> %+v", before, after)
	}
	if a := awards(t, env, m); len(a) != 0 {
		t.Fatalf("confirming a confirmed entry ran the month check: %v", a)
	}
	var pendingID int64
	if err := env.Pool.QueryRow(context.Background(), `INSERT INTO account_entry (member_id, type, amount, entry_date, pending)
		VALUES ($1, 'expense', 1, '2026-11-30', true) RETURNING id`, m.ID).Scan(&pendingID); err != nil {
		t.Fatal(err)
	}
	m.Do(http.MethodPost, fmt.Sprintf("/api/account/entries/%d/confirm", pendingID), nil).Want(http.StatusOK).JSON(&after)
	if after.Pending {
		t.Fatal("still pending after confirmation")
	}
	if a := awards(t, env, m); len(a) != 1 {
		t.Fatalf("confirming a pending entry of the complete month gave %v, want one award", a)
	}
	m.Do(http.MethodPost, fmt.Sprintf("/api/account/entries/%d/confirm", 999999), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
}

// A month completed by a transfer's fee or by a restore earns the bonus as
// one completed by an entry write does (DECISIONS.md section 9).
func TestMonthCompletedByATransferFeeOrARestore(t *testing.T) {
	t.Parallel()
	env := bonusEnv(t)
	seoul := env.Clock.Now().Location()
	env.Clock.Set(time.Date(2026, 11, 30, 21, 0, 0, 0, seoul))
	nov1, nov30 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

	byFee := env.NewMember()
	fillDays(t, env, byFee, nov1, nov30)
	bank := lt.Wallet(byFee.Client, "bank", api.WalletTypeBank, 0)
	card := lt.Wallet(byFee.Client, "card", api.WalletTypeCard, 0)
	// Without a fee the transfer's sides fill no day.
	byFee.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
		Date: lt.Date(2026, 11, 30), Amount: 1000, FromWalletID: bank.ID, ToWalletID: card.ID,
	}).Want(http.StatusCreated)
	if a := awards(t, env, byFee); len(a) != 0 {
		t.Fatalf("a transfer without a fee gave %v", a)
	}
	byFee.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
		Date: lt.Date(2026, 11, 30), Amount: 1000, FromWalletID: bank.ID, ToWalletID: card.ID, Fee: lt.Ptr[int64](500),
	}).Want(http.StatusCreated)
	if a := awards(t, env, byFee); len(a) != 1 || a[0].Reason != "MONTH_COMPLETE_202611" {
		t.Fatalf("after a fee on the last missing day: %v", a)
	}

	byRestore := env.NewMember(apitest.AsPremium())
	doc := api.Backup{
		Version: 1, Wallets: []api.BackupWallet{}, Tags: []string{}, Categories: []api.BackupCategory{},
		Recurring: []api.BackupRecurring{}, QuickEntries: []api.BackupQuickEntry{}, Budgets: []api.BackupBudget{},
		Transfers: []api.BackupTransfer{},
	}
	for d := nov1; !d.After(nov30); d = d.AddDate(0, 0, 1) {
		doc.Entries = append(doc.Entries, api.BackupEntry{
			Date: lt.Date(d.Year(), d.Month(), d.Day()), Type: api.BackupEntryType("expense"), Amount: 100, Tags: []string{},
		})
	}
	byRestore.Do(http.MethodPost, "/api/account/restore", doc).Want(http.StatusOK)
	if a := awards(t, env, byRestore); len(a) != 1 || a[0].Reason != "MONTH_COMPLETE_202611" {
		t.Fatalf("after restoring a complete month: %v", a)
	}
}
