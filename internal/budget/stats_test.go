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
)

type randomEntry struct {
	date     time.Time
	typ      string
	amount   int64
	category int64 // 0: none
	tags     []int64
	counts   bool // confirmed and not a transfer side
}

// TestStatisticsTotalsEqualTheEntriesTheyCover: over random entries (both
// types, top-level, sub- and no categories, tags, pending ones and transfer
// sides, dates around a year end), every statistic's totals equal the sums
// of the entries it covers, computed here independently.
func TestStatisticsTotalsEqualTheEntriesTheyCover(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	// Entries marked as transfer sides need a transfer row to point at.
	var transferID int64
	if err := env.Pool.QueryRow(context.Background(),
		`INSERT INTO transfer (member_id, transfer_date, amount) VALUES ($1, '2026-11-16', 1) RETURNING id`, m.ID).Scan(&transferID); err != nil {
		t.Fatal(err)
	}

	cats := map[string][]int64{}
	parent := map[int64]int64{}
	for _, typ := range []api.EntryType{api.EntryTypeExpense, api.EntryTypeIncome} {
		for i := range 2 {
			top := lt.Category(m.Client, fmt.Sprintf("%s %d", typ, i), typ, nil)
			sub := lt.Category(m.Client, fmt.Sprintf("%s %d sub", typ, i), typ, &top.ID)
			parent[sub.ID] = top.ID
			cats[string(typ)] = append(cats[string(typ)], top.ID, sub.ID)
		}
	}
	var tags []int64
	for i := range 3 {
		var tag api.Tag
		m.Do(http.MethodPost, "/api/account/tags", api.TagRequest{Name: fmt.Sprintf("t%d", i)}).Want(http.StatusCreated).JSON(&tag)
		tags = append(tags, tag.ID)
	}

	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var entries []randomEntry
	ctx := context.Background()
	for range 150 {
		e := randomEntry{
			date:   start.AddDate(0, 0, rng.IntN(62)),
			typ:    []string{"income", "expense"}[rng.IntN(2)],
			amount: rng.Int64N(1_000_000),
			counts: rng.IntN(6) != 0,
		}
		if rng.IntN(5) != 0 {
			e.category = cats[e.typ][rng.IntN(4)]
		}
		for _, tag := range tags {
			if rng.IntN(3) == 0 {
				e.tags = append(e.tags, tag)
			}
		}
		var category *int64
		if e.category != 0 {
			category = &e.category
		}
		pending, transfer := false, (*int64)(nil)
		if !e.counts {
			if rng.IntN(2) == 0 {
				pending = true
			} else {
				transfer = lt.Ptr(transferID)
			}
		}
		var id int64
		if err := env.Pool.QueryRow(ctx, `INSERT INTO account_entry (member_id, type, amount, entry_date, category_id, pending, transfer_id)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, m.ID, e.typ, e.amount, e.date, category, pending, transfer).Scan(&id); err != nil {
			t.Fatal(err)
		}
		for _, tag := range e.tags {
			env.Exec(`INSERT INTO account_entry_tag (entry_id, tag_id) VALUES ($1, $2)`, id, tag)
		}
		entries = append(entries, e)
	}

	sum := func(from, to time.Time, keep func(randomEntry) bool) (income, expense int64) {
		for _, e := range entries {
			if e.counts && !e.date.Before(from) && e.date.Before(to) && keep(e) {
				if e.typ == "income" {
					income += e.amount
				} else {
					expense += e.amount
				}
			}
		}
		return income, expense
	}
	all := func(randomEntry) bool { return true }
	treeTotal := func(list []api.StatsCategory) (n int64) {
		for _, c := range list {
			children := c.Own
			for _, ch := range c.Children {
				children += ch.Amount
			}
			if children != c.Amount {
				t.Errorf("category %v: amount %d, own and children %d", c.CategoryID, c.Amount, children)
			}
			n += c.Amount
		}
		return n
	}

	for _, startDay := range []int32{1, 25} {
		setStartDay(t, m, startDay)
		for _, ym := range [][2]int32{{2026, 11}, {2026, 12}, {2027, 1}} {
			var s api.MonthlyStats
			m.Do(http.MethodGet, fmt.Sprintf("/api/account/stats/monthly?year=%d&month=%d", ym[0], ym[1]), nil).Want(http.StatusOK).JSON(&s)
			from := time.Date(int(ym[0]), time.Month(ym[1]), int(startDay), 0, 0, 0, 0, time.UTC)
			wantIn, wantEx := sum(from, from.AddDate(0, 1, 0), all)
			if s.Income != wantIn || s.Expense != wantEx || s.Net != wantIn-wantEx {
				t.Errorf("start %d, %v: income %d expense %d, want %d %d", startDay, ym, s.Income, s.Expense, wantIn, wantEx)
			}
			if treeTotal(s.Categories.Income) != wantIn || treeTotal(s.Categories.Expense) != wantEx {
				t.Errorf("start %d, %v: category trees do not add up", startDay, ym)
			}
			var dayIn, dayEx int64
			for _, d := range s.Days {
				dayIn += d.Income
				dayEx += d.Expense
			}
			if dayIn != wantIn || dayEx != wantEx {
				t.Errorf("start %d, %v: days add up to %d %d", startDay, ym, dayIn, dayEx)
			}
			// Each category's amount (with its sub-categories) matches.
			for _, c := range s.Categories.Expense {
				in := func(e randomEntry) bool {
					if c.CategoryID == nil {
						return e.category == 0
					}
					return e.category == *c.CategoryID || parent[e.category] == *c.CategoryID
				}
				if _, want := sum(from, from.AddDate(0, 1, 0), in); want != c.Amount {
					t.Errorf("start %d, %v: category %v spent %d, want %d", startDay, ym, c.CategoryID, c.Amount, want)
				}
			}
		}
		var y api.YearlyStats
		m.Do(http.MethodGet, "/api/account/stats/yearly?year=2026", nil).Want(http.StatusOK).JSON(&y)
		yFrom := time.Date(2026, 1, int(startDay), 0, 0, 0, 0, time.UTC)
		wantIn, wantEx := sum(yFrom, yFrom.AddDate(1, 0, 0), all)
		var monthsIn, monthsEx int64
		for _, mo := range y.Months {
			monthsIn += mo.Income
			monthsEx += mo.Expense
		}
		if y.Income != wantIn || y.Expense != wantEx || monthsIn != wantIn || monthsEx != wantEx {
			t.Errorf("start %d: year %d %d, months %d %d, want %d %d", startDay, y.Income, y.Expense, monthsIn, monthsEx, wantIn, wantEx)
		}
	}

	var cs api.CategoryStats
	m.Do(http.MethodGet, "/api/account/stats/categories?from=2026-12-10&to=2027-01-20", nil).Want(http.StatusOK).JSON(&cs)
	from, to := time.Date(2026, 12, 10, 0, 0, 0, 0, time.UTC), time.Date(2027, 1, 21, 0, 0, 0, 0, time.UTC)
	wantIn, wantEx := sum(from, to, all)
	if cs.Income != wantIn || cs.Expense != wantEx || treeTotal(cs.Categories.Income) != wantIn || treeTotal(cs.Categories.Expense) != wantEx {
		t.Errorf("category statistics %d %d, want %d %d", cs.Income, cs.Expense, wantIn, wantEx)
	}

	var ts api.TagStats
	m.Do(http.MethodGet, "/api/account/stats/tags?from=2026-12-10&to=2027-01-20", nil).Want(http.StatusOK).JSON(&ts)
	wantIn, wantEx = sum(from, to, func(e randomEntry) bool { return len(e.tags) > 0 })
	if ts.Income != wantIn || ts.Expense != wantEx {
		t.Errorf("tagged totals %d %d, want %d %d", ts.Income, ts.Expense, wantIn, wantEx)
	}
	for _, it := range ts.Items {
		in, ex := sum(from, to, func(e randomEntry) bool {
			for _, tag := range e.tags {
				if tag == it.TagID {
					return true
				}
			}
			return false
		})
		if it.Income != in || it.Expense != ex {
			t.Errorf("tag %s: %d %d, want %d %d", it.Name, it.Income, it.Expense, in, ex)
		}
	}
}

func TestStatisticsBadInput(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	raw := env.NewMember(apitest.AsPremium()).Raw()
	for _, q := range []string{
		"/api/account/stats/monthly?year=2026&month=13",
		"/api/account/stats/monthly?year=2026",
		"/api/account/stats/yearly?year=10000",
		"/api/account/stats/yearly",
		"/api/account/stats/categories?from=2026-12-10&to=2026-12-01",
		"/api/account/stats/categories?from=2020-01-01&to=2026-12-01",
		"/api/account/stats/categories?from=2026-13-01&to=2026-12-01",
		"/api/account/stats/tags?from=2026-12-10",
		"/api/account/stats/tags?from=x&to=y",
	} {
		raw.Send(http.MethodGet, q, "", nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	}
}

// A card bill paid from the bank shows under transfers, per wallet, and
// leaves the month's income and expense as they were.
func TestMonthlyStatsShowTransfersApart(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 1_000_000)
	card := lt.Wallet(m.Client, "Card", api.WalletTypeCard, 0)
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 3), 30_000, card.ID))
	m.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
		Date: lt.Date(2026, 11, 10), Amount: 20_000, FromWalletID: bank.ID, ToWalletID: card.ID,
	}).Want(http.StatusCreated)
	// A transfer of another month is not this month's.
	m.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
		Date: lt.Date(2026, 10, 10), Amount: 7, FromWalletID: bank.ID, ToWalletID: card.ID,
	}).Want(http.StatusCreated)

	var stats api.MonthlyStats
	m.Do(http.MethodGet, "/api/account/stats/monthly?year=2026&month=11", nil).Want(http.StatusOK).JSON(&stats)
	if stats.Expense != 30_000 || stats.Income != 0 {
		t.Fatalf("income %d expense %d: a transfer counted as income or expense", stats.Income, stats.Expense)
	}
	want := map[int64]api.StatsWalletTransfers{
		bank.ID: {WalletID: bank.ID, In: 0, Out: 20_000},
		card.ID: {WalletID: card.ID, In: 20_000, Out: 0},
	}
	if len(stats.Transfers) != len(want) {
		t.Fatalf("transfers %+v, want %+v", stats.Transfers, want)
	}
	for _, got := range stats.Transfers {
		if got != want[got.WalletID] {
			t.Errorf("wallet %d: %+v, want %+v", got.WalletID, got, want[got.WalletID])
		}
	}
}

// TestMonthlyStatsTransfersPerWallet: a month's transfers per wallet, in and
// out, by wallet id, of the member's confirmed transfer sides dated in the
// ledger month; fees, ordinary entries, pending sides, other months and other
// members are left out. With a start day of 25 the month's dates move.
func TestMonthlyStatsTransfersPerWallet(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	other := env.NewMember(apitest.AsPremium())
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	card := lt.Wallet(m.Client, "Card", api.WalletTypeCard, 0)
	savings := lt.Wallet(m.Client, "Savings", api.WalletTypeSavings, 0)
	transfer := func(m *apitest.Member, req api.TransferRequest) {
		m.Do(http.MethodPost, "/api/account/transfers", req).Want(http.StatusCreated)
	}
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 2), 999, bank.ID))
	transfer(m, api.TransferRequest{Date: lt.Date(2026, 11, 25), Amount: 300, FromWalletID: bank.ID, ToWalletID: card.ID, Fee: lt.Ptr[int64](7)})
	transfer(m, api.TransferRequest{Date: lt.Date(2026, 11, 30), Amount: 50, FromWalletID: bank.ID, ToWalletID: savings.ID})
	transfer(m, api.TransferRequest{Date: lt.Date(2026, 11, 10), Amount: 20, FromWalletID: savings.ID, ToWalletID: bank.ID})
	transfer(m, api.TransferRequest{Date: lt.Date(2026, 12, 1), Amount: 4000, FromWalletID: bank.ID, ToWalletID: card.ID})
	transfer(other, api.TransferRequest{
		Date: lt.Date(2026, 11, 10), Amount: 8000,
		FromWalletID: lt.Wallet(other.Client, "X", api.WalletTypeBank, 0).ID, ToWalletID: lt.Wallet(other.Client, "Y", api.WalletTypeCash, 0).ID,
	})
	// A pending side of a transfer is not a confirmed one.
	var pendingTransfer int64
	if err := env.Pool.QueryRow(context.Background(),
		`INSERT INTO transfer (member_id, transfer_date, amount) VALUES ($1, '2026-11-15', 100000) RETURNING id`, m.ID).Scan(&pendingTransfer); err != nil {
		t.Fatal(err)
	}
	env.Exec(`INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, pending, transfer_id)
		VALUES ($1, $2, 'income', 100000, '2026-11-15', true, $3)`, m.ID, savings.ID, pendingTransfer)

	for _, c := range []struct {
		startDay      int32
		year, month   int32
		income, spent int64
		want          []api.StatsWalletTransfers
	}{
		{1, 2026, 11, 0, 999 + 7, []api.StatsWalletTransfers{
			{WalletID: bank.ID, In: 20, Out: 350},
			{WalletID: card.ID, In: 300, Out: 0},
			{WalletID: savings.ID, In: 50, Out: 20},
		}},
		{1, 2026, 10, 0, 0, []api.StatsWalletTransfers{}},
		// 25 November to 24 December.
		{25, 2026, 11, 0, 7, []api.StatsWalletTransfers{
			{WalletID: bank.ID, In: 0, Out: 4350},
			{WalletID: card.ID, In: 4300, Out: 0},
			{WalletID: savings.ID, In: 50, Out: 0},
		}},
		// 25 October to 24 November.
		{25, 2026, 10, 0, 999, []api.StatsWalletTransfers{
			{WalletID: bank.ID, In: 20, Out: 0},
			{WalletID: savings.ID, In: 0, Out: 20},
		}},
	} {
		setStartDay(t, m, c.startDay)
		var s api.MonthlyStats
		m.Do(http.MethodGet, fmt.Sprintf("/api/account/stats/monthly?year=%d&month=%d", c.year, c.month), nil).Want(http.StatusOK).JSON(&s)
		if fmt.Sprint(s.Transfers) != fmt.Sprint(c.want) || s.Transfers == nil {
			t.Errorf("start %d, %d-%02d: transfers %+v, want %+v", c.startDay, c.year, c.month, s.Transfers, c.want)
		}
		if s.Income != c.income || s.Expense != c.spent {
			t.Errorf("start %d, %d-%02d: income %d expense %d, want %d %d", c.startDay, c.year, c.month, s.Income, s.Expense, c.income, c.spent)
		}
	}
}
