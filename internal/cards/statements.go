// Package cards answers a credit card's bills: its statements by the
// issuer's cycle, the installment slices each holds, whether each is paid,
// and every card's next bill (DECISIONS.md section 10).
//
// The computation is pure (Statements, NextBill): rows in, statements out,
// so the rules are tested without a database. Days are calendar dates as
// UTC midnight (package calendar).
package cards

import (
	"errors"
	"sort"
	"time"

	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/money"
)

// Cycle is a card's issuer cycle: the day of the month its statement closes
// and the day it is paid, 1 to 31; a day past a month's end means its last
// day.
type Cycle struct {
	StatementDay, PaymentDay int
}

// Charge is an entry of the card a statement holds.
type Charge struct {
	EntryID int64
	Date    time.Time
	// Amount counts in the statement: positive for an expense (a purchase, a
	// fee, a transfer out of the card), negative for a refund.
	Amount int64
	// Months is the number of an installment purchase's months (2 to 24),
	// 0 or 1 for none.
	Months int
	// AwaitingRate marks a pending foreign purchase without its won amount:
	// listed, counting 0.
	AwaitingRate bool
}

// Payment is a confirmed transfer into the card.
type Payment struct {
	Date   time.Time
	Amount int64
}

// Slice says which slice of an installment purchase an item is.
type Slice struct {
	Number, Of int
}

// Item is what a statement holds of one entry.
type Item struct {
	EntryID      int64
	Date         time.Time
	Amount       int64
	Installment  *Slice
	AwaitingRate bool
}

// Statement is one statement of a card.
type Statement struct {
	Closing, Due, From, To time.Time
	Total                  int64
	Paid                   bool
	// Owed is what the payments into the card leave of Total (0 when they
	// cover it).
	Owed  int64
	Items []Item
	// awaiting: an item awaits its rate (the statement's total is not
	// known yet), kept when the items are not.
	awaiting bool
}

// period is a statement's index: months since year 0 of its closing date.
type period int

func (p period) year() int            { return int(p) / 12 }
func (p period) month() time.Month    { return time.Month(int(p)%12 + 1) }
func periodOf(t time.Time) period     { return period(t.Year()*12 + int(t.Month()) - 1) }
func lastDay(y int, m time.Month) int { return calendar.Date(y, m+1, 0).Day() }

// dayIn is day of the month y-m, a day past its end meaning its last day.
func dayIn(y int, m time.Month, day int) time.Time {
	return calendar.Date(y, m, min(day, lastDay(y, m)))
}

// Closing is the closing date of the statement of period p.
func (c Cycle) closing(p period) time.Time { return dayIn(p.year(), p.month(), c.StatementDay) }

// periodOn is the statement a day falls in: its month's, when the day is on
// or before that month's closing day, else the next month's.
func (c Cycle) periodOn(day time.Time) period {
	p := periodOf(day)
	if day.After(c.closing(p)) {
		return p + 1
	}
	return p
}

// Due is the first payment day after a closing day.
func (c Cycle) Due(closing time.Time) time.Time {
	d := dayIn(closing.Year(), closing.Month(), c.PaymentDay)
	if d.After(closing) {
		return d
	}
	next := closing.AddDate(0, 0, 1-closing.Day()).AddDate(0, 1, 0)
	return dayIn(next.Year(), next.Month(), c.PaymentDay)
}

// statement is the empty statement of period p.
func (c Cycle) statement(p period) Statement {
	closing := c.closing(p)
	return Statement{Closing: closing, Due: c.Due(closing), From: c.closing(p-1).AddDate(0, 0, 1), To: closing, Paid: true}
}

// Open is the statement today falls in, empty.
func (c Cycle) Open(today time.Time) Statement { return c.statement(c.periodOn(today)) }

// Slices splits an installment purchase of amount over months: floor(amount
// / months) each, the remainder in the first. An amount that is not a
// purchase in months (months < 2) is one slice.
func Slices(amount int64, months int) []int64 {
	if months < 2 {
		return []int64{amount}
	}
	n := int64(months)
	out := make([]int64, months)
	for i := range out {
		out[i] = amount / n
	}
	out[0] += amount % n
	return out
}

// Segment is a cycle a card had before its cycle was edited: it decides
// the statements closing on or before Until (a closing day of that cycle),
// which were paid when the edit came (DECISIONS.md section 10: editing the
// cycle moves only statements not yet paid).
type Segment struct {
	Until time.Time
	Cycle Cycle
}

// Schedule is a card's statement closings: its past cycles, oldest first,
// then its current cycle for everything after the last of them.
type Schedule struct {
	Past    []Segment
	Current Cycle
}

// cycleAt is the cycle that decides day, and the last closing before its
// segment (zero for the first segment).
func (sc Schedule) cycleAt(day time.Time) (Cycle, time.Time) {
	var before time.Time
	for _, seg := range sc.Past {
		if !day.After(seg.Until) {
			return seg.Cycle, before
		}
		before = seg.Until
	}
	return sc.Current, before
}

// closingOn is the closing day of the statement day falls in.
func (sc Schedule) closingOn(day time.Time) time.Time {
	c, _ := sc.cycleAt(day)
	return c.closing(c.periodOn(day))
}

// next is the closing day after closing.
func (sc Schedule) next(closing time.Time) time.Time { return sc.closingOn(closing.AddDate(0, 0, 1)) }

// statement is the empty statement closing on closing.
func (sc Schedule) statement(closing time.Time) Statement {
	c, before := sc.cycleAt(closing)
	prev := c.closing(c.periodOn(closing) - 1)
	if !before.IsZero() && prev.Before(before) {
		prev = before
	}
	return Statement{Closing: closing, Due: c.Due(closing), From: prev.AddDate(0, 0, 1), To: closing, Paid: true}
}

// Open is the statement today falls in, empty.
func (sc Schedule) Open(today time.Time) Statement { return sc.statement(sc.closingOn(today)) }

// Statements are the card's statements that hold an item, oldest first,
// each with its total and whether it is paid, under one cycle.
func Statements(c Cycle, charges []Charge, payments []Payment) ([]Statement, error) {
	return Schedule{Current: c}.Statements(charges, payments, true)
}

// Statements are the card's statements that hold an item, oldest first,
// each with its total and whether it is paid, and its items when items is
// set (the bills and the forecast need only the totals: years of
// installment slices are not built for them). A total that cannot be
// represented is money.ErrOutOfRange.
func (sc Schedule) Statements(charges []Charge, payments []Payment, items bool) ([]Statement, error) {
	out, _, err := sc.StatementsAfter(Checkpoint{}, charges, payments, items, time.Time{})
	return out, err
}

// Checkpoint is where a card's paid run has reached: Closing is the closing
// day of a statement of the paid run that starts the card's history (every
// statement up to it is paid), Consumed what the statements up to it took
// of the payments dated after it (oldest first: always a first part of
// them), and Carry the slices the installment purchases dated up to it put
// in the statements after it, summed per statement. The statements after
// it are then those the whole history gives, without their items
// (TestPropertyCheckpointGivesTheSameStatements), from its carry, the
// charges dated after it and the payments dated after it, the first
// Consumed of them taken, as long as nothing dated on or before it
// changes. The zero Checkpoint is the start of the history.
type Checkpoint struct {
	Closing  time.Time
	Consumed int64
	Carry    []Carried
}

// Carried is what earlier installment purchases put in the statement
// closing on Closing (a statement holding only a slice of 0 still holds
// an item).
type Carried struct {
	Closing time.Time
	Amount  int64
}

// errCheckpointStale: the payments dated after a checkpoint hold less than
// it says its statements took of them (one was deleted or lowered since).
var errCheckpointStale = errors.New("the card's checkpoint is stale: its payments changed")

// StatementsAfter are the card's statements that close after cp.Closing
// and hold an item, as Statements answers them (without the items of
// cp.Carry), and the checkpoint that follows: the last statement of the
// paid run that closed before today (cp when the run ends at it). Charges
// and payments dated on or before cp.Closing are left out (cp holds what
// they do after it). It is errCheckpointStale when the payments after cp
// hold less than cp.Consumed.
func (sc Schedule) StatementsAfter(cp Checkpoint, charges []Charge, payments []Payment, items bool, today time.Time) ([]Statement, Checkpoint, error) {
	byClosing := map[time.Time]*Statement{}
	var check money.Checked
	at := func(closing time.Time) *Statement {
		s := byClosing[closing]
		if s == nil {
			st := sc.statement(closing)
			s = &st
			byClosing[closing] = s
		}
		return s
	}
	for _, c := range cp.Carry {
		if c.Closing.After(cp.Closing) {
			check.Add(&at(c.Closing).Total, c.Amount)
		}
	}
	if !cp.Closing.IsZero() {
		charges = after(charges, cp.Closing)
	}
	for _, ch := range charges {
		closing := sc.closingOn(ch.Date)
		slices := Slices(ch.Amount, ch.Months)
		for i, amount := range slices {
			if i > 0 {
				closing = sc.next(closing)
			}
			s := at(closing)
			if ch.AwaitingRate {
				amount = 0
				s.awaiting = true
			}
			check.Add(&s.Total, amount)
			if !items {
				continue
			}
			it := Item{EntryID: ch.EntryID, Date: ch.Date, Amount: amount, AwaitingRate: ch.AwaitingRate}
			if len(slices) > 1 {
				it.Installment = &Slice{Number: i + 1, Of: len(slices)}
			}
			s.Items = append(s.Items, it)
		}
	}
	if err := check.Err(); err != nil {
		return nil, Checkpoint{}, err
	}
	out := make([]Statement, 0, len(byClosing))
	for _, s := range byClosing {
		sort.SliceStable(s.Items, func(i, j int) bool {
			a, b := s.Items[i], s.Items[j]
			if !a.Date.Equal(b.Date) {
				return a.Date.Before(b.Date)
			}
			return a.EntryID < b.EntryID
		})
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Closing.Before(out[j].Closing) })
	next, err := markPaid(out, payments, cp, today)
	if err != nil {
		return nil, Checkpoint{}, err
	}
	if next.Closing.Equal(cp.Closing) {
		next.Carry = cp.Carry
	} else if next.Carry, err = sc.carry(cp, charges, next.Closing); err != nil {
		return out, cp, nil // beyond an amount: the old checkpoint still holds
	}
	return out, next, nil
}

// after are the charges dated after day.
func after(charges []Charge, day time.Time) []Charge {
	out := make([]Charge, 0, len(charges))
	for _, ch := range charges {
		if ch.Date.After(day) {
			out = append(out, ch)
		}
	}
	return out
}

// carry is the carry of a checkpoint at through, after cp: cp's carry after
// it and the slices after it of the charges dated from cp through it.
func (sc Schedule) carry(cp Checkpoint, charges []Charge, through time.Time) ([]Carried, error) {
	sums := map[time.Time]int64{}
	var check money.Checked
	for _, c := range cp.Carry {
		if c.Closing.After(through) {
			sums[c.Closing] = check.Sum(sums[c.Closing], c.Amount)
		}
	}
	for _, ch := range charges {
		if ch.Date.After(through) || ch.Months < 2 {
			continue
		}
		closing := sc.closingOn(ch.Date)
		for i, amount := range Slices(ch.Amount, ch.Months) {
			if i > 0 {
				closing = sc.next(closing)
			}
			if closing.After(through) {
				sums[closing] = check.Sum(sums[closing], amount)
			}
		}
	}
	if err := check.Err(); err != nil {
		return nil, err
	}
	out := make([]Carried, 0, len(sums))
	for closing, amount := range sums {
		out = append(out, Carried{Closing: closing, Amount: amount})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Closing.Before(out[j].Closing) })
	return out, nil
}

// PaidThrough is the closing day of the last statement of the paid run
// that starts the card's history: every closed statement up to it is paid
// (zero when the oldest closed statement is not). Editing the cycle keeps
// the statements up to it where they are.
func PaidThrough(statements []Statement, today time.Time) time.Time {
	var through time.Time
	for _, s := range statements {
		if !s.Closing.Before(today) || !s.Paid {
			break
		}
		through = s.Closing
	}
	return through
}

// markPaid decides which statements are paid: walking them oldest first,
// each takes what is left of the payments dated after its closing day,
// earliest first, until its total is covered. A statement that owes nothing
// is paid and takes nothing; one that holds an item awaiting its rate is not
// paid (its total is not known yet) though it takes what covers the rest.
//
// statements close after cp.Closing; the statements up to it took
// cp.Consumed of the payments dated after it, earliest first, and those
// dated on or before it can pay no later statement, so they are left out.
// The answer is the checkpoint that follows: the paid run's last statement
// closed before today, with what the statements up to it took of the
// payments dated after it.
func markPaid(statements []Statement, payments []Payment, cp Checkpoint, today time.Time) (Checkpoint, error) {
	left := make([]Payment, 0, len(payments))
	for _, p := range payments {
		if p.Date.After(cp.Closing) {
			left = append(left, p)
		}
	}
	sort.SliceStable(left, func(i, j int) bool { return left[i].Date.Before(left[j].Date) })
	// byRun[j]: what the statements up to the checkpoint so far took of
	// payment j.
	byRun := make([]int64, len(left))
	taken := cp.Consumed
	for j := range left {
		if taken <= 0 {
			break
		}
		if left[j].Amount <= 0 {
			continue
		}
		take := min(taken, left[j].Amount)
		left[j].Amount -= take
		byRun[j] += take
		taken -= take
	}
	if taken > 0 {
		return Checkpoint{}, errCheckpointStale
	}
	next, run := cp, true
	type took struct {
		j      int
		amount int64
	}
	var took1 []took
	for i := range statements {
		s := &statements[i]
		owed := s.Total
		took1 = took1[:0]
		for j := range left {
			if owed <= 0 {
				break
			}
			if !left[j].Date.After(s.Closing) || left[j].Amount <= 0 {
				continue
			}
			take := min(owed, left[j].Amount)
			left[j].Amount -= take
			owed -= take
			if run {
				took1 = append(took1, took{j, take})
			}
		}
		s.Owed = max(owed, 0)
		s.Paid = owed <= 0 && !s.awaiting
		if run && s.Paid && s.Closing.Before(today) {
			next.Closing = s.Closing
			for _, t := range took1 {
				byRun[t.j] += t.amount
			}
		} else {
			run = false
		}
	}
	next.Consumed = 0
	for j := range left {
		if left[j].Date.After(next.Closing) {
			sum, ok := money.Add(next.Consumed, byRun[j])
			if !ok {
				return cp, nil // beyond an amount: the old checkpoint still holds
			}
			next.Consumed = sum
		}
	}
	return next, nil
}

// NextBill is a card's next bill under one cycle (Schedule.NextBill).
func NextBill(c Cycle, statements []Statement, today time.Time) Statement {
	return Schedule{Current: c}.NextBill(statements, today)
}

// NextBill is a card's next bill: its oldest closed statement that is not
// paid (closed: its closing day is before today), else the open one, empty
// when it holds nothing yet. statements are Statements' answer.
func (sc Schedule) NextBill(statements []Statement, today time.Time) Statement {
	for _, s := range statements {
		if s.Closing.Before(today) && !s.Paid {
			return s
		}
	}
	open := sc.Open(today)
	for _, s := range statements {
		if s.Closing.Equal(open.Closing) {
			return s
		}
	}
	return open
}
