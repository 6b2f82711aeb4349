package cards

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/money"
)

func day(y int, m time.Month, d int) time.Time { return calendar.Date(y, m, d) }

func TestClosingAndDueFollowTheMonthEnd(t *testing.T) {
	for _, tc := range []struct {
		cycle              Cycle
		on                 time.Time
		closing, from, due time.Time
	}{
		// Day 31 closes on each month's last day; February's is the 28th, or the 29th in a leap year.
		{Cycle{31, 14}, day(2026, 2, 10), day(2026, 2, 28), day(2026, 2, 1), day(2026, 3, 14)},
		{Cycle{31, 14}, day(2024, 2, 29), day(2024, 2, 29), day(2024, 2, 1), day(2024, 3, 14)},
		{Cycle{31, 14}, day(2026, 3, 1), day(2026, 3, 31), day(2026, 3, 1), day(2026, 4, 14)},
		// The closing day itself is in the statement; the day after starts the next.
		{Cycle{15, 25}, day(2026, 1, 15), day(2026, 1, 15), day(2025, 12, 16), day(2026, 1, 25)},
		{Cycle{15, 25}, day(2026, 1, 16), day(2026, 2, 15), day(2026, 1, 16), day(2026, 2, 25)},
		// December's statement is due in January; a payment day equal to the closing day is the next month's.
		{Cycle{20, 20}, day(2026, 12, 25), day(2027, 1, 20), day(2026, 12, 21), day(2027, 2, 20)},
		// Payment day 30 after a closing on February 28 is March 30; on a 30-day month's 31 it clamps.
		{Cycle{28, 30}, day(2026, 2, 1), day(2026, 2, 28), day(2026, 1, 29), day(2026, 3, 30)},
		{Cycle{30, 31}, day(2026, 4, 2), day(2026, 4, 30), day(2026, 3, 31), day(2026, 5, 31)},
		{Cycle{30, 31}, day(2026, 2, 1), day(2026, 2, 28), day(2026, 1, 31), day(2026, 3, 31)},
	} {
		s := tc.cycle.Open(tc.on)
		if !s.Closing.Equal(tc.closing) || !s.From.Equal(tc.from) || !s.Due.Equal(tc.due) || !s.To.Equal(tc.closing) {
			t.Errorf("%+v on %s: closing %s from %s due %s, want %s %s %s", tc.cycle, tc.on.Format(time.DateOnly),
				s.Closing.Format(time.DateOnly), s.From.Format(time.DateOnly), s.Due.Format(time.DateOnly),
				tc.closing.Format(time.DateOnly), tc.from.Format(time.DateOnly), tc.due.Format(time.DateOnly))
		}
	}
}

func TestSlicesPutTheRemainderFirst(t *testing.T) {
	got := Slices(100_000, 3)
	if len(got) != 3 || got[0] != 33_334 || got[1] != 33_333 || got[2] != 33_333 {
		t.Errorf("Slices(100000, 3) = %v", got)
	}
	if got := Slices(5, 24); got[0] != 5 || got[23] != 0 {
		t.Errorf("Slices(5, 24) = %v", got)
	}
	if got := Slices(7, 0); len(got) != 1 || got[0] != 7 {
		t.Errorf("Slices(7, 0) = %v", got)
	}
}

func TestPaymentsCoverTheOldestStatementFirst(t *testing.T) {
	c := Cycle{StatementDay: 10, PaymentDay: 20}
	charges := []Charge{
		{EntryID: 1, Date: day(2026, 1, 5), Amount: 100}, // closes Jan 10
		{EntryID: 2, Date: day(2026, 2, 5), Amount: 200}, // closes Feb 10
		{EntryID: 3, Date: day(2026, 3, 5), Amount: 300}, // closes Mar 10
		{EntryID: 4, Date: day(2026, 4, 5), Amount: -50}, // a refund alone: owes nothing
		{EntryID: 5, Date: day(2026, 5, 5), Amount: 0, AwaitingRate: true},
	}
	payments := []Payment{
		{Date: day(2026, 1, 10), Amount: 1000}, // on the closing day: pays nothing of January's
		{Date: day(2026, 2, 20), Amount: 250},  // January's 100, then 150 of February's 200
		{Date: day(2026, 3, 11), Amount: 50},   // the rest of February's
	}
	s, err := Statements(c, charges, payments)
	if err != nil {
		t.Fatal(err)
	}
	want := []bool{true, true, false, true, false}
	if len(s) != len(want) {
		t.Fatalf("%d statements, want %d", len(s), len(want))
	}
	for i, w := range want {
		if s[i].Paid != w {
			t.Errorf("statement closing %s: paid %v, want %v", s[i].Closing.Format(time.DateOnly), s[i].Paid, w)
		}
	}
	if next := NextBill(c, s, day(2026, 6, 1)); !next.Closing.Equal(day(2026, 3, 10)) || next.Total != 300 {
		t.Errorf("next bill %+v, want March's 300", next)
	}
	// Everything paid: the open statement, empty.
	s, _ = Statements(c, charges[:1], []Payment{{Date: day(2026, 1, 11), Amount: 100}})
	if next := NextBill(c, s, day(2026, 6, 1)); !next.Closing.Equal(day(2026, 6, 10)) || next.Total != 0 || len(next.Items) != 0 {
		t.Errorf("next bill %+v, want the open June statement", next)
	}
}

func TestATotalPastInt64IsRefused(t *testing.T) {
	c := Cycle{StatementDay: 1, PaymentDay: 2}
	charges := []Charge{{EntryID: 1, Date: day(2026, 1, 1), Amount: math.MaxInt64}, {EntryID: 2, Date: day(2026, 1, 1), Amount: 1}}
	if _, err := Statements(c, charges, nil); err != money.ErrOutOfRange {
		t.Errorf("err %v, want ErrOutOfRange", err)
	}
}

// Property (issue 45): over random cycles with month-end days, random
// installment purchases of 2 to 24 months, plain purchases and refunds, each
// purchase's slices over its statements sum exactly to it, one slice per
// consecutive statement, and every statement's total is the sum of its
// items; statements tile the calendar (each starts the day after the one
// before closes) and each item's own statement contains its date.
func TestPropertySlicesSumToThePurchase(t *testing.T) {
	r := rand.New(rand.NewPCG(45, 2026))
	days := []int{1, 5, 14, 15, 25, 27, 28, 29, 30, 31}
	for round := 0; round < 300; round++ {
		c := Cycle{StatementDay: days[r.IntN(len(days))], PaymentDay: days[r.IntN(len(days))]}
		var charges []Charge
		purchases := map[int64]Charge{}
		for i := range 1 + r.IntN(30) {
			// Dates from 2023-12 through 2026-03: two Februaries, one of a leap year, and month ends.
			d := day(2023, 12, 1).AddDate(0, 0, r.IntN(850))
			if r.IntN(4) == 0 {
				d = day(d.Year(), d.Month()+1, 0)
			}
			ch := Charge{EntryID: int64(i + 1), Date: d}
			switch r.IntN(4) {
			case 0:
				ch.Amount = -r.Int64N(500_000) // a refund
			case 1:
				ch.Amount = r.Int64N(2_000_000)
			default:
				ch.Amount = r.Int64N(money.Bound)
				ch.Months = 2 + r.IntN(23)
			}
			charges = append(charges, ch)
			purchases[ch.EntryID] = ch
		}
		statements, err := Statements(c, charges, nil)
		if err != nil {
			t.Fatal(err)
		}
		sums := map[int64]int64{}
		slices := map[int64][]time.Time{} // closing dates of each purchase's slices, by number
		for i, s := range statements {
			var total int64
			for _, it := range s.Items {
				total += it.Amount
				sums[it.EntryID] += it.Amount
				if it.Installment != nil {
					for len(slices[it.EntryID]) < it.Installment.Number {
						slices[it.EntryID] = append(slices[it.EntryID], time.Time{})
					}
					slices[it.EntryID][it.Installment.Number-1] = s.Closing
				}
				if (it.Installment == nil || it.Installment.Number == 1) && (it.Date.Before(s.From) || it.Date.After(s.To)) {
					t.Fatalf("%+v: entry %d of %s in the statement %s..%s", c, it.EntryID, it.Date.Format(time.DateOnly), s.From.Format(time.DateOnly), s.To.Format(time.DateOnly))
				}
			}
			if total != s.Total {
				t.Fatalf("%+v: statement closing %s totals %d, its items %d", c, s.Closing.Format(time.DateOnly), s.Total, total)
			}
			if !s.Due.After(s.Closing) || s.Due.After(s.Closing.AddDate(0, 0, 62)) {
				t.Fatalf("%+v: closing %s due %s", c, s.Closing.Format(time.DateOnly), s.Due.Format(time.DateOnly))
			}
			if i > 0 && !s.Closing.After(statements[i-1].Closing) {
				t.Fatalf("%+v: statements out of order", c)
			}
			if prev := c.statement(c.periodOn(s.From) - 1); !prev.Closing.AddDate(0, 0, 1).Equal(s.From) {
				t.Fatalf("%+v: statement %s..%s does not follow %s", c, s.From.Format(time.DateOnly), s.To.Format(time.DateOnly), prev.Closing.Format(time.DateOnly))
			}
		}
		for id, ch := range purchases {
			if sums[id] != ch.Amount {
				t.Fatalf("%+v: entry %d of %d over %d months: slices sum to %d", c, id, ch.Amount, ch.Months, sums[id])
			}
			if ch.Months < 2 {
				continue
			}
			closings := slices[id]
			if len(closings) != ch.Months {
				t.Fatalf("%+v: entry %d has %d slices, want %d", c, id, len(closings), ch.Months)
			}
			if first := c.Open(ch.Date).Closing; !closings[0].Equal(first) {
				t.Fatalf("%+v: entry %d of %s: first slice in %s, want %s", c, id, ch.Date.Format(time.DateOnly), closings[0].Format(time.DateOnly), first.Format(time.DateOnly))
			}
			for k := 1; k < len(closings); k++ {
				if want := c.Open(closings[k-1].AddDate(0, 0, 1)).Closing; !closings[k].Equal(want) {
					t.Fatalf("%+v: entry %d: slice %d in %s, want the next statement %s", c, id, k+1, closings[k].Format(time.DateOnly), want.Format(time.DateOnly))
				}
			}
		}
	}
}

// TestEntriesOfSortsByDateAndID: ListCycleCards' arrays come in no order
// (element i of each is the same entry); a card's charges and payments come
// out in date and id order, each entry's fields together.
func TestEntriesOfSortsByDateAndID(t *testing.T) {
	row := db.ListCycleCardsRow{
		ID:             7,
		EntryIds:       []int64{30, 10, 20, 40},
		EntryDates:     []time.Time{day(2026, 3, 2), day(2026, 3, 2), day(2026, 3, 1), day(2026, 2, 27)},
		EntryIncomes:   []bool{false, false, true, true},
		EntryAmounts:   []int64{300, 100, 200, 400},
		EntryMonths:    []int32{3, 0, 0, 0},
		EntryAwaiting:  []bool{false, true, false, false},
		EntryTransfers: []bool{false, false, false, true},
	}
	charges, payments, err := entriesOf(row)
	if err != nil {
		t.Fatal(err)
	}
	want := []Charge{
		{EntryID: 20, Date: day(2026, 3, 1), Amount: -200},
		{EntryID: 10, Date: day(2026, 3, 2), Amount: 100, AwaitingRate: true},
		{EntryID: 30, Date: day(2026, 3, 2), Amount: 300, Months: 3},
	}
	if !reflect.DeepEqual(charges, want) || !reflect.DeepEqual(payments, []Payment{{Date: day(2026, 2, 27), Amount: 400}}) {
		t.Errorf("charges %+v\npayments %+v", charges, payments)
	}
}
