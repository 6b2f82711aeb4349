// Package forecast answers the money ahead (DECISIONS.md section 10): the
// cash-flow forecast of the days to come, day by day, from every projected
// movement, and each budget's pace through its month.
//
// The computation is pure (Project, the movement functions, Pace): rows in,
// answer out, so the rules are tested without a database; handler.go reads
// the rows in a fixed number of statements and answers.
package forecast

import (
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/cards"
	"github.com/nestegg/nestegg/internal/money"
	"github.com/nestegg/nestegg/internal/problem"
)

// Sources of projected movements, as the contract names them.
const (
	SourceRecurring      = "RECURRING"
	SourceCardBill       = "CARD_BILL"
	SourceLoan           = "LOAN"
	SourceExpectedIncome = "EXPECTED_INCOME"
	SourcePending        = "PENDING"
	SourceOnetimeBudget  = "ONETIME_BUDGET"
)

// MaxDays and DefaultDays bound the forecast's window.
const (
	MaxDays     = 92
	DefaultDays = 30
)

// Wallet is a wallet the forecast starts from.
type Wallet struct {
	ID int64
	// Held: the wallet holds money (not a CARD nor a LOAN wallet).
	Held    bool
	Balance int64
}

// Movement is one projected movement.
type Movement struct {
	Date time.Time
	// WalletID is nil for a movement with no natural wallet; it counts in
	// the total only.
	WalletID *int64
	Amount   int64
	Source   string
	SourceID int64
}

// Day is one day of a forecast.
type Day struct {
	Date      time.Time
	Balance   int64
	Movements []Movement
}

// Point is a day's balance.
type Point struct {
	Date    time.Time
	Balance int64
}

// BelowZero is the first day a wallet's balance is below zero.
type BelowZero struct {
	WalletID int64
	Point
}

// Forecast is the answer.
type Forecast struct {
	From, To  time.Time
	Days      []Day
	Lowest    Point
	BelowZero []BelowZero
}

// outOfRange is the 422 TOTAL_OUT_OF_RANGE naming the total that cannot be
// represented.
func outOfRange(what string) error {
	return problem.New(http.StatusUnprocessableEntity, problem.CodeTotalOutOfRange,
		fmt.Sprintf("%s is beyond what an amount can hold (±9,223,372,036,854,775,807 won)", what))
}

// Project lays moves over days days from today (day 1): each day's
// movements (a movement dated before today counts on today; one after the
// last day is left out), the end-of-day total of the money held (held
// wallets plus movements without a wallet), the lowest day (the earliest of
// equal ones) and each held wallet's first day below zero, in wallets'
// order. Movements on wallets that do not hold money (or are unknown) are
// listed and move nothing held. Every sum is checked.
func Project(today time.Time, days int, wallets []Wallet, moves []Movement) (Forecast, error) {
	last := today.AddDate(0, 0, days-1)
	out := Forecast{From: today, To: last, Days: make([]Day, days), BelowZero: []BelowZero{}}
	for i := range out.Days {
		out.Days[i] = Day{Date: today.AddDate(0, 0, i), Movements: []Movement{}}
	}
	for _, m := range moves {
		if m.Date.After(last) {
			continue
		}
		i := 0
		if m.Date.After(today) {
			i = int(m.Date.Sub(today).Hours() / 24)
		} else {
			m.Date = today
		}
		out.Days[i].Movements = append(out.Days[i].Movements, m)
	}
	held := map[int64]int{} // wallet id → index in wallets
	balances := make([]int64, len(wallets))
	var total int64
	for i, w := range wallets {
		if !w.Held {
			continue
		}
		held[w.ID] = i
		balances[i] = w.Balance
		s, ok := money.Add(total, w.Balance)
		if !ok {
			return Forecast{}, outOfRange("today's total of the wallets that hold money")
		}
		total = s
	}
	below := make([]bool, len(wallets))
	for d := range out.Days {
		day := &out.Days[d]
		sort.SliceStable(day.Movements, func(i, j int) bool {
			return sourceOrder[day.Movements[i].Source] < sourceOrder[day.Movements[j].Source]
		})
		for _, m := range day.Movements {
			i, isHeld := -1, false
			if m.WalletID != nil {
				i, isHeld = held[*m.WalletID]
				if !isHeld {
					continue
				}
			}
			s, ok := money.Add(total, m.Amount)
			if !ok {
				return Forecast{}, outOfRange("the forecast's total balance of " + day.Date.Format(time.DateOnly))
			}
			total = s
			if isHeld {
				b, ok := money.Add(balances[i], m.Amount)
				if !ok {
					return Forecast{}, outOfRange(fmt.Sprintf("the forecast's balance of wallet %d on %s", *m.WalletID, day.Date.Format(time.DateOnly)))
				}
				balances[i] = b
			}
		}
		day.Balance = total
		if d == 0 || total < out.Lowest.Balance {
			out.Lowest = Point{Date: day.Date, Balance: total}
		}
		for i, w := range wallets {
			if w.Held && !below[i] && balances[i] < 0 {
				below[i] = true
				out.BelowZero = append(out.BelowZero, BelowZero{WalletID: w.ID, Point: Point{Date: day.Date, Balance: balances[i]}})
			}
		}
	}
	sort.SliceStable(out.BelowZero, func(i, j int) bool {
		return walletIndex(wallets, out.BelowZero[i].WalletID) < walletIndex(wallets, out.BelowZero[j].WalletID)
	})
	return out, nil
}

func walletIndex(wallets []Wallet, id int64) int {
	for i, w := range wallets {
		if w.ID == id {
			return i
		}
	}
	return len(wallets)
}

// sourceOrder orders a day's movements: the contract's order of sources,
// then as they came (each source's function answers them in order).
var sourceOrder = map[string]int{
	SourceExpectedIncome: 0, SourcePending: 1, SourceRecurring: 2, SourceCardBill: 3, SourceLoan: 4, SourceOnetimeBudget: 5,
}

// dayIn is day of the month y-m, a day past its end meaning its last day.
func dayIn(y int, m time.Month, day int) time.Time {
	return calendar.Date(y, m, min(day, calendar.Date(y, m+1, 0).Day()))
}

// Recurring is a recurring entry as the forecast reads it.
type Recurring struct {
	ID         int64
	Income     bool
	Amount     int64
	WalletID   *int64
	CategoryID *int64
	ParentID   *int64
	Day        int
	AutoPost   bool
	// NextMonth is the first calendar month the posting job has not posted
	// yet (its cursor); the months before it are posted.
	NextMonth time.Time
}

// Occurrences are r's occurrences from from through to that are not posted
// yet: one per calendar month on its day (a shorter month's last day), the
// months before the posting cursor left out when the job posts r.
func (r Recurring) Occurrences(from, to time.Time) []time.Time {
	var out []time.Time
	for month := calendar.Date(from.Year(), from.Month(), 1); !month.After(to); month = month.AddDate(0, 1, 0) {
		if r.AutoPost && month.Before(r.NextMonth) {
			continue
		}
		d := dayIn(month.Year(), month.Month(), r.Day)
		if d.Before(from) || d.After(to) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// RecurringMoves are the occurrences of every recurring entry from today
// through last not posted yet (a posted one is a pending entry, which
// PendingMoves counts), income positive.
func RecurringMoves(today, last time.Time, recs []Recurring) []Movement {
	var out []Movement
	for _, r := range recs {
		amount := -r.Amount
		if r.Income {
			amount = r.Amount
		}
		for _, d := range r.Occurrences(today, last) {
			out = append(out, Movement{Date: d, WalletID: r.WalletID, Amount: amount, Source: SourceRecurring, SourceID: r.ID})
		}
	}
	return out
}

// Pending is a pending entry with a known amount.
type Pending struct {
	ID       int64
	WalletID *int64
	Income   bool
	Amount   int64
	Date     time.Time
	Transfer bool
}

// PendingMoves are the pending entries on their dates (PENDING), and what
// each card's pending transfers in pay of its bills: a pending transfer
// into a cycle card counts once, as PENDING, so it is taken off the card's
// projected bills.
func PendingMoves(pending []Pending, cycleCards map[int64]bool) (moves []Movement, paying map[int64]int64) {
	paying = map[int64]int64{}
	for _, p := range pending {
		amount := -p.Amount
		if p.Income {
			amount = p.Amount
		}
		moves = append(moves, Movement{Date: p.Date, WalletID: p.WalletID, Amount: amount, Source: SourcePending, SourceID: p.ID})
		if p.Transfer && p.Income && p.WalletID != nil && cycleCards[*p.WalletID] {
			if s, ok := money.Add(paying[*p.WalletID], p.Amount); ok {
				paying[*p.WalletID] = s
			} else {
				paying[*p.WalletID] = 1<<63 - 1
			}
		}
	}
	return moves, paying
}

// CardBillMoves are the unpaid statements of each card (that owe more than
// 0) due by last, out of the card's paying wallet on their due dates (one
// past due counts on day 1, as Project places it). paying[card] is what
// pending transfers into the card pay, taken off its bills oldest first.
func CardBillMoves(last time.Time, cs []cards.CardStatements, payFrom map[int64]int64, paying map[int64]int64) []Movement {
	var out []Movement
	for _, c := range cs {
		left := paying[c.WalletID]
		var from *int64
		if w, ok := payFrom[c.WalletID]; ok {
			from = &w
		}
		for _, s := range c.Statements {
			if s.Paid || s.Owed <= 0 {
				continue
			}
			owed := s.Owed
			take := min(owed, left)
			owed -= take
			left -= take
			if owed <= 0 || s.Due.After(last) {
				continue
			}
			out = append(out, Movement{Date: s.Due, WalletID: from, Amount: -owed, Source: SourceCardBill, SourceID: c.WalletID})
		}
	}
	return out
}

// Instalment is a loan payment on its date.
type Instalment struct {
	Date    time.Time
	Payment int64
}

// LoanMoves are the loan instalments dated from today through last, out of
// no wallet (a loan has no paying wallet).
func LoanMoves(today, last time.Time, loanWallet int64, schedule []Instalment) []Movement {
	var out []Movement
	for _, in := range schedule {
		if in.Date.Before(today) || in.Date.After(last) {
			continue
		}
		out = append(out, Movement{Date: in.Date, Amount: -in.Payment, Source: SourceLoan, SourceID: loanWallet})
	}
	return out
}

// Income is a ledger month's expected income.
type Income struct {
	Year   int
	Month  time.Month
	Amount int64
}

// IncomeMoves are the expected incomes of the ledger months (month start
// day startDay) that begin from today through last, on their first day;
// a month without its own takes the latest earlier month's. incomes may come
// in any order.
func IncomeMoves(today, last time.Time, startDay int, incomes []Income) []Movement {
	sorted := append([]Income(nil), incomes...)
	sort.Slice(sorted, func(i, j int) bool {
		return key(sorted[i].Year, sorted[i].Month) < key(sorted[j].Year, sorted[j].Month)
	})
	var out []Movement
	for m := calendar.MonthOf(today, startDay); !m.From().After(last); m = m.Add(1) {
		if m.From().Before(today) {
			continue
		}
		k := key(m.Year(), m.Month())
		var amount int64
		found := false
		for _, in := range sorted {
			if key(in.Year, in.Month) > k {
				break
			}
			amount, found = in.Amount, true
		}
		if !found || amount == 0 {
			continue
		}
		out = append(out, Movement{Date: m.From(), Amount: amount, Source: SourceExpectedIncome, SourceID: int64(m.Year()*100 + int(m.Month()))})
	}
	return out
}

func key(y int, m time.Month) int { return y*12 + int(m) - 1 }

// Onetime is a one-time budget with its confirmed spending so far.
type Onetime struct {
	ID         int64
	Amount     int64
	Start, End time.Time
	Spent      int64
}

// OnetimeMoves spread what is left of each one-time budget (its amount less
// its spending, never below 0) evenly over its remaining days, from today or
// its start (the later) through its end: floor(left / days) a day and the
// remainder on the first (Spread), the days after last left out.
func OnetimeMoves(today, last time.Time, budgets []Onetime) []Movement {
	var out []Movement
	for _, b := range budgets {
		left := b.Amount - b.Spent
		if b.Spent < 0 || left <= 0 || b.End.Before(today) {
			continue
		}
		first := b.Start
		if first.Before(today) {
			first = today
		}
		n := int(b.End.Sub(first).Hours()/24) + 1
		for i, amount := range Spread(left, n) {
			d := first.AddDate(0, 0, i)
			if d.After(last) {
				break
			}
			if amount == 0 {
				continue
			}
			out = append(out, Movement{Date: d, Amount: -amount, Source: SourceOnetimeBudget, SourceID: b.ID})
		}
	}
	return out
}

// Spread splits amount over n days: floor(amount / n) each and the
// remainder on the first, so the slices sum exactly to amount.
func Spread(amount int64, n int) []int64 {
	return cards.Slices(amount, n)
}
