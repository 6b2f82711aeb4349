package ledger_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/ledger"
)

// The write check sums the month a write touches only where that month's
// totals could pass the limit: while the gross of the member's wallets (the
// rollup's amounts without sign, which bound every month's income and
// expense) is within it and no confirmed entry is off every wallet, it reads
// no month. Each way out of the bound brings the month back, and the
// totals it then answers are the month's.
func TestWriteCheckSumsAMonthOnlyBeyondTheGrossBound(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	ctx := context.Background()
	q := db.New(env.Pool)
	var wallet int64
	if err := env.Pool.QueryRow(ctx, `INSERT INTO wallet (member_id, name, type, sort_order) VALUES ($1, 'Bank', 'BANK', 1) RETURNING id`, m.ID).Scan(&wallet); err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)
	insert := func(walletID any, typ string, amount int64, pending bool) {
		t.Helper()
		if _, err := env.Pool.Exec(ctx, `INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, memo, pending) VALUES ($1, $2, $3, $4, $5, '', $6)`,
			m.ID, walletID, typ, amount, day, pending); err != nil {
			t.Fatal(err)
		}
	}
	insert(wallet, "income", 700, false)
	insert(wallet, "expense", 300, false)
	insert(wallet, "expense", 50, true) // pending: in no total
	months := func(bound int64) (n int, income, expense decimal.Decimal) {
		t.Helper()
		rows, err := q.TotalsForWriteCheck(ctx, db.TotalsForWriteCheckParams{
			MemberID: m.ID, Days: []time.Time{day}, Types: []string{"expense"}, MonthBound: decimal.NewFromInt(bound),
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.Kind == "month" {
				n++
				income, expense = r.Income, r.Expense
				if want := (pgtype.Date{Time: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), Valid: true}); r.FromDate != want {
					t.Errorf("month from %v, want %v", r.FromDate, want)
				}
			}
		}
		return n, income, expense
	}
	if n, _, _ := months(ledger.Limit); n != 0 {
		t.Errorf("within the bound the check read %d months, want none", n)
	}
	// The wallets' gross is 1,000: a bound below it sums the month.
	if n, _, _ := months(1000); n != 0 {
		t.Errorf("at a bound equal to the gross the check read %d months, want none", n)
	}
	if n, income, expense := months(999); n != 1 || !income.Equal(decimal.NewFromInt(700)) || !expense.Equal(decimal.NewFromInt(300)) {
		t.Errorf("past the gross bound: %d months, income %v, expense %v; want 1, 700, 300", n, income, expense)
	}
	// A confirmed entry off every wallet is not in the rollup: the month
	// is summed whatever the gross.
	insert(nil, "expense", 20, true)
	if n, _, _ := months(ledger.Limit); n != 0 {
		t.Errorf("with a pending entry off every wallet the check read %d months, want none", n)
	}
	insert(nil, "expense", 20, false)
	if n, _, expense := months(ledger.Limit); n != 1 || !expense.Equal(decimal.NewFromInt(320)) {
		t.Errorf("with a confirmed entry off every wallet: %d months, expense %v; want 1, 320", n, expense)
	}
}
