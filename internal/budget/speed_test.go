package budget_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/budget"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/session"
)

// seedBudgetYear gives each member a year of 2026: about 1,500 entries over
// 12 categories and a sub-category each (a tenth of them income), 24
// transfers from a bank to a card, budgets every month (each top-level
// category and every third sub-category) and the expected incomes. ANALYZE
// then gives the planner the statistics of a filled table.
func seedBudgetYear(tb testing.TB, env *apitest.Env, members ...*apitest.Member) {
	tb.Helper()
	for _, m := range members {
		env.Exec(`INSERT INTO wallet (member_id, name, type, sort_order) VALUES ($1, 'Seed bank', 'BANK', 98), ($1, 'Seed card', 'CARD', 99)`, m.ID)
		env.Exec(`INSERT INTO account_category (member_id, name, type, sort_order)
			SELECT $1, 'c' || i, 'expense', i FROM generate_series(1, 12) i`, m.ID)
		env.Exec(`INSERT INTO account_category (member_id, parent_id, name, type, sort_order)
			SELECT member_id, id, name || ' sub', type, sort_order FROM account_category WHERE member_id = $1`, m.ID)
		env.Exec(`INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, category_id)
			SELECT $1, (SELECT id FROM wallet WHERE member_id = $1 AND name = 'Seed bank'),
			       CASE WHEN i % 10 = 0 THEN 'income' ELSE 'expense' END, 1000 + i,
			       DATE '2026-01-01' + (i % 365),
			       (SELECT id FROM account_category WHERE member_id = $1 AND type = 'expense' ORDER BY id OFFSET (i % 24) LIMIT 1)
			FROM generate_series(1, 1500) i`, m.ID)
		env.Exec(`WITH t AS (
				INSERT INTO transfer (member_id, transfer_date, amount)
				SELECT $1, DATE '2026-01-05' + 15 * i, 500 + i FROM generate_series(0, 23) i
				RETURNING id, transfer_date, amount)
			INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, transfer_id)
			SELECT $1, w.id, s.type, t.amount, t.transfer_date, t.id
			FROM t CROSS JOIN (VALUES ('expense', 'Seed bank'), ('income', 'Seed card')) s (type, wallet)
			JOIN wallet w ON w.member_id = $1 AND w.name = s.wallet`, m.ID)
		env.Exec(`INSERT INTO budget (member_id, category_id, year, month, amount)
			SELECT c.member_id, c.id, 2026, mo, 100000 FROM account_category c, generate_series(1, 12) mo
			WHERE c.member_id = $1 AND (c.parent_id IS NULL OR c.sort_order % 3 = 0)`, m.ID)
		env.Exec(`INSERT INTO budget_income (member_id, year, month, amount)
			SELECT $1, 2026, mo, 3000000 FROM generate_series(1, 12) mo`, m.ID)
	}
	env.Exec(`ANALYZE`)
}

// asRequest is the context a request of m carries into the budget
// functions: the session's principal with the member's month start day.
func asRequest(m *apitest.Member, startDay int) context.Context {
	return session.WithPrincipal(context.Background(), &session.Principal{
		MemberID: m.ID, Role: session.RoleUser, Plan: session.PlanPremium, MonthStartDay: startDay,
	})
}

// seqScanOfAMonthTable finds a sequential scan of the tables a month read
// must reach by index (budget, not budget_income).
var seqScanOfAMonthTable = regexp.MustCompile(`Seq Scan on (account_entry|budget)\b`)

// TestStatusAndMonthlyStatsAreOneIndexedStatement: over a seeded year of
// several members, budget status and monthly statistics called as a request
// calls them (the principal carries the month start day) each send one
// statement, and its plan reads account_entry and budget through indexes
// with sequential scans allowed. Start days 1 and 25.
func TestStatusAndMonthlyStatsAreOneIndexedStatement(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	var members []*apitest.Member
	for range 4 {
		members = append(members, env.NewMember(apitest.AsPremium()))
	}
	seedBudgetYear(t, env, members...)
	m := members[0]

	// Each read answers the first day of its month, and fails when the
	// seeded month it read is empty.
	reads := []struct {
		name string
		read func(ctx context.Context, q *db.Queries, mo calendar.Month) (time.Time, error)
	}{
		{"budget status", func(ctx context.Context, q *db.Queries, mo calendar.Month) (time.Time, error) {
			s, err := budget.Status(ctx, q, m.ID, mo)
			if err == nil && (len(s.Items) == 0 || s.Spent == 0) {
				err = errors.New("no budgets or no spending")
			}
			return s.From.Time, err
		}},
		{"monthly statistics", func(ctx context.Context, q *db.Queries, mo calendar.Month) (time.Time, error) {
			s, err := budget.MonthlyStats(ctx, q, m.ID, mo)
			if err == nil && (len(s.Days) == 0 || len(s.Categories.Expense) == 0 || len(s.Transfers) != 2) {
				err = fmt.Errorf("%d days, %d expense categories, %d wallets with transfers", len(s.Days), len(s.Categories.Expense), len(s.Transfers))
			}
			return s.From.Time, err
		}},
	}

	conn, err := env.Pool.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	var seqscan string
	if err := conn.QueryRow(context.Background(), "SHOW enable_seqscan").Scan(&seqscan); err != nil || seqscan != "on" {
		t.Fatalf("enable_seqscan is %q (%v): the plans must hold with sequential scans allowed", seqscan, err)
	}

	for _, startDay := range []int{1, 25} {
		env.Exec(`UPDATE member SET month_start_day = $2 WHERE id = $1`, m.ID, startDay)
		ctx := asRequest(m, startDay)
		mo := calendar.NewMonth(2026, time.March, startDay)
		for _, r := range reads {
			c := &apitest.RecordingDB{DBTX: env.Pool}
			from, err := r.read(ctx, db.New(c), mo)
			if err != nil {
				t.Fatalf("start day %d, %s: %v", startDay, r.name, err)
			}
			if want := time.Date(2026, time.March, startDay, 0, 0, 0, 0, time.UTC); !from.Equal(want) {
				t.Errorf("start day %d, %s: month from %s, want %s", startDay, r.name, from, want)
			}
			if len(c.Sent) != 1 {
				t.Errorf("start day %d, %s: %d statements, want 1", startDay, r.name, len(c.Sent))
			}

			x := &apitest.ExplainingDB{DBTX: conn}
			_, _ = r.read(ctx, db.New(x), mo)
			if x.Plan == "" {
				t.Fatalf("start day %d, %s: no query to explain", startDay, r.name)
			}
			if !strings.Contains(x.Plan, "Index") || seqScanOfAMonthTable.MatchString(x.Plan) {
				t.Errorf("start day %d, %s: not read through indexes:\n%s", startDay, r.name, x.Plan)
			}
			t.Logf("start day %d, %s plan:\n%s", startDay, r.name, x.Plan)
		}
	}
}
