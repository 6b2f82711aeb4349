package backup_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/ledger"
)

// postedOn counts the member's entries of the day whose memo is memo.
func postedOn(t *testing.T, env *apitest.Env, memberID int64, day, memo string) int {
	t.Helper()
	var n int
	if err := env.Pool.QueryRow(context.Background(), `SELECT count(*) FROM account_entry
		WHERE member_id = $1 AND entry_date = $2::date AND memo = $3`, memberID, day, memo).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// runRecurringJob runs the posting job an hour after the clock's time.
func runRecurringJob(t *testing.T, env *apitest.Env) {
	t.Helper()
	env.Clock.Set(env.Clock.Now().Add(time.Hour))
	if ran, err := env.App.Jobs.Run(context.Background(), ledger.RecurringPostJobName); err != nil || !ran {
		t.Fatalf("recurring job: ran=%v err=%v", ran, err)
	}
}

// A restore on a recurring entry's day, after the job posted that day's
// occurrence, does not make the job post it a second time (issue 41): the
// restored recurring entry is a new row with no record of the posting, so
// restore counts an occurrence the document holds as posted. A document
// taken before the posting lacks the entry, and the job posts it then.
func TestRestoreOnARecurringDayDoesNotPostItTwice(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	// The clock starts on 16 November 2026 in Seoul: created on its day,
	// today's occurrence posts.
	m.Do(http.MethodPost, "/api/account/recurrings", api.RecurringRequest{
		Name: "Salary", Type: api.EntryTypeIncome, Amount: 3_000_000, Day: 16, WalletID: &bank.ID,
	}).Want(http.StatusCreated)
	beforePosting := backupOf(t, m)
	runRecurringJob(t, env)
	if n := postedOn(t, env, m.ID, "2026-11-16", "Salary"); n != 1 {
		t.Fatalf("%d occurrences posted on its day, want 1", n)
	}

	restore(t, m, backupOf(t, m))
	runRecurringJob(t, env)
	if n := postedOn(t, env, m.ID, "2026-11-16", "Salary"); n != 1 {
		t.Fatalf("after a restore on its day: %d occurrences, want the 1 the backup held", n)
	}

	restore(t, m, beforePosting)
	if n := postedOn(t, env, m.ID, "2026-11-16", "Salary"); n != 0 {
		t.Fatalf("the document taken before the posting restored %d occurrences", n)
	}
	runRecurringJob(t, env)
	if n := postedOn(t, env, m.ID, "2026-11-16", "Salary"); n != 1 {
		t.Fatalf("after restoring a document without today's occurrence: %d posted, want 1", n)
	}
}
