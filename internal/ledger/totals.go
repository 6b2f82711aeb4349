package ledger

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/shopspring/decimal"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/problem"
)

// The write check (issue 42, DECISIONS §10 "Money, refined"): a ledger
// write that would take a total the service answers beyond int64 is refused
// with 422 TOTAL_OUT_OF_RANGE naming the total, so no member is locked out
// of their own data by a total nothing can carry. The totals kept:
//
//   - each wallet's balance (opening balance + confirmed entries);
//   - each ledger month's confirmed income and expense, transfers excluded
//     (the entry list's summary and the monthly statistics; a filter only
//     selects part of them);
//   - net worth's assets and liabilities as far as wallets make them: the
//     positive and the negative balances (a manual-valuation wallet's
//     current value instead of its balance), each summed.
//
// A write is refused when it takes one of these beyond the range, or
// further beyond it (a ledger stored before the check may hold one): a
// write that brings such a total back towards the range (deleting, a
// smaller amount, an expense against a huge balance) is accepted.
//
// The rule, with its reserve. The check keeps every total within
// Limit = 2^63-1 − Reserve (Reserve = 10^18), not within int64 itself, so
// that writes of one member checked at the same moment, each not seeing the
// others, cannot together pass int64:
//
//   - A single write (one that moves at most SmallWrite = 10^16 won in all:
//     an entry's create, edit, deletion or confirmation; a transfer with its
//     fee) takes no exclusive lock and adds no round trip: its check is one
//     statement (TotalsForWriteCheck) that takes the member's totals lock
//     ("ledger_total:" id) shared and reads the balances and the touched
//     months. Each single write in flight adds at most 10^16 that another
//     did not see, and PostgreSQL runs at most max_connections (100 by
//     default) transactions at once: 100 × 10^16 = Reserve.
//   - A multi-row write (CSV import, a wallet's deletion with moveTo, a
//     wallet's create or edit, a restore; any write moving more than
//     SmallWrite) takes the same lock exclusive before it reads, so it
//     waits for the single writes in flight to commit and reads them, and
//     the single writes after it wait for its commit (database.LockOrder
//     places the lock last; its holder only reads, then commits).
//
// Writes that move no money (a memo, a pending entry, a tag) take no lock
// and read nothing. A ledger stored before this rule may hold a total past
// Limit: a write that takes it further is refused, one that brings it back
// goes through.

// Reserve is the room the check keeps between its Limit and int64 for the
// single writes in flight (see above).
const Reserve = 1_000_000_000_000_000_000

// SmallWrite is the most a single write moves in all (the sum of the
// amounts it writes and undoes) to be checked without the exclusive lock.
const SmallWrite = 10_000_000_000_000_000

// Limit is the largest total, either sign, a write may leave.
const Limit = math.MaxInt64 - Reserve

// Totals is what a write changed in the totals the check keeps: each
// wallet's balance change and the days whose ledger month gained income or
// expense. The zero value is ready; a write that changed nothing leaves it
// empty and CheckTotalsTx does nothing.
type Totals struct {
	// moved is the sum of the amounts the write wrote and undid: what it
	// can have changed any total by (SmallWrite).
	moved   decimal.Decimal
	wallets map[int64]decimal.Decimal
	days    []time.Time
	types   []string
	seen    map[dayType]bool
}

type dayType struct {
	day time.Time
	typ string
}

// Move notes that a confirmed entry's type and amount now count (or, with
// undo, no longer count) in its wallet's balance and, unless it is a
// transfer's side, its ledger month's total of its type.
func (t *Totals) Move(walletID *int64, typ string, amount int64, day time.Time, transferSide, undo bool) {
	net := amount
	if typ != TypeIncome {
		net = -amount
	}
	if undo {
		net = -net
	}
	if net != 0 {
		t.moved = t.moved.Add(decimal.NewFromInt(amount).Abs())
	}
	if walletID != nil && net != 0 {
		if t.wallets == nil {
			t.wallets = map[int64]decimal.Decimal{}
		}
		t.wallets[*walletID] = t.wallets[*walletID].Add(decimal.NewFromInt(net))
	}
	if !undo && !transferSide && amount > 0 {
		k := dayType{day, typ}
		if t.seen == nil {
			t.seen = map[dayType]bool{}
		}
		if !t.seen[k] {
			t.seen[k] = true
			t.days = append(t.days, day)
			t.types = append(t.types, typ)
		}
	}
}

// Entry notes an entry's write: old is the entry before it (nil for a
// create), new after it (nil for a deletion). Pending entries count
// nowhere. A month is noted as gaining only when its total of the type can
// have grown: not when the entry kept its day and type with no larger
// amount.
func (t *Totals) Entry(old, new *db.AccountEntry) {
	counts := func(e *db.AccountEntry) bool { return e != nil && !e.Pending }
	if counts(old) {
		// Its month only loses it: the wallet's balance is what moves.
		t.Move(old.WalletID, old.Type, old.Amount, old.EntryDate, true, true)
	}
	if counts(new) {
		side := new.TransferID != nil
		if counts(old) && old.TransferID == nil && !side && old.Type == new.Type &&
			old.EntryDate.Equal(new.EntryDate) && new.Amount <= old.Amount {
			// Same month and type, no more than before: only the wallet.
			side = true
		}
		t.Move(new.WalletID, new.Type, new.Amount, new.EntryDate, side, false)
	}
}

func (t *Totals) empty() bool {
	if len(t.days) > 0 {
		return false
	}
	for _, d := range t.wallets {
		if !d.IsZero() {
			return false
		}
	}
	return true
}

var (
	limit      = decimal.NewFromInt(Limit)
	smallWrite = decimal.NewFromInt(SmallWrite)
)

// beyond says whether v is past the check's Limit.
func beyond(v decimal.Decimal) bool { return v.Abs().GreaterThan(limit) }

// errBeyond is the write check's refusal, naming the total.
func errBeyond(total string, v decimal.Decimal) error {
	return problem.New(http.StatusUnprocessableEntity, problem.CodeTotalOutOfRange, fmt.Sprintf(
		"%s would be %s won, beyond what the ledger keeps (±8,223,372,036,854,775,807 won: what an amount can hold, less a reserve for writes in flight): nothing was written",
		total, v.String()))
}

// CheckTotalsTx refuses the write whose changes t notes when it takes a
// total past Limit or further past it (see the top of this file). It runs
// in the write's transaction, after the write's statements: one statement
// for a single write, the exclusive lock first for a larger one.
func CheckTotalsTx(ctx context.Context, q *db.Queries, memberID int64, t *Totals) error {
	if t == nil || t.empty() {
		return nil
	}
	if t.moved.GreaterThan(smallWrite) {
		if err := q.LockMemberLedgerTotals(ctx, memberID); err != nil {
			return fmt.Errorf("lock totals of member %d: %w", memberID, err)
		}
	}
	days, types := t.days, t.types
	if days == nil {
		days, types = []time.Time{}, []string{}
	}
	rows, err := q.TotalsForWriteCheck(ctx, db.TotalsForWriteCheckParams{MemberID: memberID, Days: days, Types: types, MonthBound: limit})
	if err != nil {
		return fmt.Errorf("totals of member %d: %w", memberID, err)
	}
	var wallets []walletBalance
	for _, r := range rows {
		if r.Kind == "wallet" {
			wallets = append(wallets, walletBalance{r.ID, r.Name, r.ManualValuation, r.CurrentValue, r.Balance})
		}
	}
	// The most particular total the write passes is named: a balance,
	// then a month, then net worth.
	netWorth, err := checkWallets(wallets, t.wallets)
	if err != nil {
		return err
	}
	for _, m := range rows {
		if m.Kind != "month" {
			continue
		}
		if m.AddedIncome && beyond(m.Income) {
			return errBeyond(monthTotal("income", m.FromDate.Time), m.Income)
		}
		if m.AddedExpense && beyond(m.Expense) {
			return errBeyond(monthTotal("expense", m.FromDate.Time), m.Expense)
		}
	}
	return netWorth
}

// walletBalance is a wallet as the check reads it.
type walletBalance struct {
	ID              int64
	Name            string
	ManualValuation bool
	CurrentValue    *int64
	Balance         decimal.Decimal
}

func listWalletBalances(ctx context.Context, q *db.Queries, memberID int64) ([]walletBalance, error) {
	rows, err := q.ListWalletBalancesForCheck(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("balances of member %d: %w", memberID, err)
	}
	out := make([]walletBalance, len(rows))
	for i, r := range rows {
		out[i] = walletBalance{r.ID, r.Name, r.ManualValuation, r.CurrentValue, r.Balance}
	}
	return out, nil
}

// CheckAllTotalsTx refuses a ledger written whole (a restore) in which any
// total the check keeps is beyond int64.
func CheckAllTotalsTx(ctx context.Context, q *db.Queries, memberID int64) error {
	if err := q.LockMemberLedgerTotals(ctx, memberID); err != nil {
		return fmt.Errorf("lock totals of member %d: %w", memberID, err)
	}
	wallets, err := listWalletBalances(ctx, q, memberID)
	if err != nil {
		return err
	}
	netWorth, err := checkWallets(wallets, nil)
	if err != nil {
		return err
	}
	months, err := q.LedgerMonthTotalsPastBound(ctx, db.LedgerMonthTotalsPastBoundParams{MemberID: memberID, TotalLimit: limit})
	if err != nil {
		return fmt.Errorf("month totals of member %d: %w", memberID, err)
	}
	for _, m := range months {
		if beyond(m.Income) {
			return errBeyond(monthTotal("income", m.FromDate), m.Income)
		}
		return errBeyond(monthTotal("expense", m.FromDate), m.Expense)
	}
	return netWorth
}

func monthTotal(typ string, from time.Time) string {
	return fmt.Sprintf("the confirmed %s of the ledger month from %s", typ, from.Format(time.DateOnly))
}

// checkWallets checks the balances (its error) and net worth's sides (the
// refusal it answers first, which the caller gives after the months').
// changed holds each wallet's balance change by the write; nil checks a
// ledger written whole (every total counts as new).
func checkWallets(rows []walletBalance, changed map[int64]decimal.Decimal) (netWorth, err error) {
	var assets, liabilities, assetsBefore, liabilitiesBefore decimal.Decimal
	side := func(v decimal.Decimal, a, l *decimal.Decimal) {
		if v.IsPositive() {
			*a = a.Add(v)
		} else {
			*l = l.Sub(v)
		}
	}
	for _, r := range rows {
		d, moved := changed[r.ID]
		before := r.Balance.Sub(d)
		if (changed == nil || (moved && !d.IsZero())) && beyond(r.Balance) && (changed == nil || r.Balance.Abs().GreaterThan(before.Abs())) {
			return nil, errBeyond(fmt.Sprintf("the balance of wallet %d (%q)", r.ID, r.Name), r.Balance)
		}
		after := r.Balance
		if r.ManualValuation && r.CurrentValue != nil {
			// Net worth counts its current value, which no entry moves.
			after = decimal.NewFromInt(*r.CurrentValue)
			before = after
		}
		side(after, &assets, &liabilities)
		side(before, &assetsBefore, &liabilitiesBefore)
	}
	if changed == nil {
		assetsBefore, liabilitiesBefore = decimal.Zero, decimal.Zero
	}
	if beyond(assets) && assets.GreaterThan(assetsBefore) {
		return errBeyond("net worth's assets (the wallets' positive balances)", assets), nil
	}
	if beyond(liabilities) && liabilities.GreaterThan(liabilitiesBefore) {
		return errBeyond("net worth's liabilities (the wallets' negative balances)", liabilities.Neg()), nil
	}
	return nil, nil
}

// walletTotals are the balances and net worth's sides at one moment.
type walletTotals struct {
	balance             map[int64]decimal.Decimal
	name                map[int64]string
	assets, liabilities decimal.Decimal
}

func readWalletTotals(ctx context.Context, q *db.Queries, memberID int64) (walletTotals, error) {
	rows, err := q.ListWalletBalancesForCheck(ctx, memberID)
	if err != nil {
		return walletTotals{}, fmt.Errorf("balances of member %d: %w", memberID, err)
	}
	out := walletTotals{balance: make(map[int64]decimal.Decimal, len(rows)), name: make(map[int64]string, len(rows))}
	for _, r := range rows {
		out.balance[r.ID], out.name[r.ID] = r.Balance, r.Name
		v := r.Balance
		if r.ManualValuation && r.CurrentValue != nil {
			v = decimal.NewFromInt(*r.CurrentValue)
		}
		if v.IsPositive() {
			out.assets = out.assets.Add(v)
		} else {
			out.liabilities = out.liabilities.Sub(v)
		}
	}
	return out, nil
}

// CheckWalletWriteTx is the write check of a wallet's create, edit or
// deletion with moveTo, which move balances (an opening balance, a current
// value, entries moved to another wallet) but no month's total: write runs
// between a read of the balances before it and, under the member's totals
// lock, one after it. A balance or a side of net worth that the write took
// beyond int64, or further beyond, refuses it.
func CheckWalletWriteTx(ctx context.Context, q *db.Queries, memberID int64, write func() error) error {
	before, err := readWalletTotals(ctx, q, memberID)
	if err != nil {
		return err
	}
	if err := write(); err != nil {
		return err
	}
	if err := q.LockMemberLedgerTotals(ctx, memberID); err != nil {
		return fmt.Errorf("lock totals of member %d: %w", memberID, err)
	}
	after, err := readWalletTotals(ctx, q, memberID)
	if err != nil {
		return err
	}
	for id, a := range after.balance {
		if b, had := before.balance[id]; beyond(a) && (!had || a.Abs().GreaterThan(b.Abs())) {
			return errBeyond(fmt.Sprintf("the balance of wallet %d (%q)", id, after.name[id]), a)
		}
	}
	if beyond(after.assets) && after.assets.GreaterThan(before.assets) {
		return errBeyond("net worth's assets (the wallets' positive balances)", after.assets)
	}
	if beyond(after.liabilities) && after.liabilities.GreaterThan(before.liabilities) {
		return errBeyond("net worth's liabilities (the wallets' negative balances)", after.liabilities.Neg())
	}
	return nil
}
