package cards

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// randomSchedule is a cycle with up to three past cycles, each edit ending
// at a closing of the cycle in force (as KeepPaidStatementsTx records it).
func randomSchedule(rng *rand.Rand) Schedule {
	sc := Schedule{Current: Cycle{StatementDay: 1 + rng.IntN(31), PaymentDay: 1 + rng.IntN(31)}}
	at := day(2024, 1, 1).AddDate(0, 0, rng.IntN(300))
	for range rng.IntN(4) {
		until := sc.closingOn(at)
		sc.Past = append(sc.Past, Segment{Until: until, Cycle: sc.Current})
		sc.Current = Cycle{StatementDay: 1 + rng.IntN(31), PaymentDay: 1 + rng.IntN(31)}
		at = until.AddDate(0, 0, 1+rng.IntN(200))
	}
	return sc
}

// randomCharge is a purchase (one in four in installments), a refund, or
// now and then one awaiting its rate, dated from 2024 through 2026.
func randomCharge(rng *rand.Rand, id int64, from time.Time, days int) Charge {
	ch := Charge{EntryID: id, Date: from.AddDate(0, 0, rng.IntN(days))}
	switch rng.IntN(8) {
	case 0:
		ch.Amount = -rng.Int64N(300_000)
	case 1, 2:
		ch.Amount = rng.Int64N(3_000_000)
		ch.Months = 2 + rng.IntN(23)
		if rng.IntN(2) == 0 {
			ch.Months = 2 + rng.IntN(3) // short ones end near the checkpoint
		}
	case 3:
		if rng.IntN(4) == 0 {
			ch.AwaitingRate = true
			break
		}
		fallthrough
	default:
		ch.Amount = rng.Int64N(400_000)
	}
	return ch
}

// Property (issue 45's speed): over random schedules (past cycles
// included), purchases, installments of 2 to 24 months, refunds, purchases
// awaiting their rate and payments, the checkpoint the whole history gives
// on a day, kept while the history then changes only after it (purchases
// and payments added, changed and deleted after its closing day, any of
// them "backdated" before today), gives from the rows dated after it (what
// the entries' query reads for it) the statements after it that the whole
// changed history gives (totals, owed, paid, dates) and the same next
// checkpoint; every statement up to it is paid, and the checkpoint is the
// paid run's end (PaidThrough). When the payments after it no longer hold
// what it took of them, it is stale, and the whole history then has a
// statement up to it that is not paid.
func TestPropertyCheckpointGivesTheSameStatements(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(45, 10))
	used, stale := 0, 0
	for round := range 400 {
		sc := randomSchedule(rng)
		start := day(2024, 1, 1)
		var charges []Charge
		var payments []Payment
		n := 20 + rng.IntN(80)
		for i := range n {
			charges = append(charges, randomCharge(rng, int64(i+1), start, 1000))
		}
		for range rng.IntN(40) {
			payments = append(payments, Payment{Date: start.AddDate(0, 0, 20+rng.IntN(1000)), Amount: rng.Int64N(4_000_000)})
		}
		today := start.AddDate(0, 0, 100+rng.IntN(900))
		full, cp, err := sc.StatementsAfter(Checkpoint{}, charges, payments, true, today)
		if err != nil {
			t.Fatal(err)
		}
		if want := PaidThrough(full, today); !cp.Closing.Equal(want) {
			t.Fatalf("round %d: checkpoint %s, the paid run ends %s", round, cp.Closing.Format(time.DateOnly), want.Format(time.DateOnly))
		}
		if cp.Closing.IsZero() {
			continue
		}
		// The history changes after the checkpoint only.
		after := cp.Closing.AddDate(0, 0, 1)
		span := int(today.AddDate(0, 0, 200).Sub(after).Hours()/24) + 1
		for range rng.IntN(12) {
			switch k := rng.IntN(6); {
			case k == 0 && len(payments) > 0:
				j := rng.IntN(len(payments))
				if payments[j].Date.After(cp.Closing) {
					payments = append(payments[:j], payments[j+1:]...)
				}
			case k == 1:
				payments = append(payments, Payment{Date: after.AddDate(0, 0, rng.IntN(span)), Amount: rng.Int64N(4_000_000)})
			case k == 2:
				j := rng.IntN(len(charges))
				if charges[j].Date.After(cp.Closing) {
					charges = append(charges[:j], charges[j+1:]...)
				}
			case k == 3:
				j := rng.IntN(len(charges))
				if charges[j].Date.After(cp.Closing) {
					charges[j] = randomCharge(rng, charges[j].EntryID, after, span)
				}
			default:
				n++
				charges = append(charges, randomCharge(rng, int64(n), after, span))
			}
		}
		whole, wholeNext, err := sc.StatementsAfter(Checkpoint{}, charges, payments, false, today)
		if err != nil {
			t.Fatal(err)
		}
		// What the entries' query reads for the checkpoint.
		var read []Charge
		for _, ch := range charges {
			if ch.Date.After(cp.Closing) {
				read = append(read, ch)
			}
		}
		var readPay []Payment
		for _, p := range payments {
			if p.Date.After(cp.Closing) {
				readPay = append(readPay, p)
			}
		}
		got, next, err := sc.StatementsAfter(cp, read, readPay, false, today)
		if errors.Is(err, errCheckpointStale) {
			stale++
			if PaidThrough(whole, today).Before(cp.Closing) {
				continue
			}
			t.Fatalf("round %d: stale, yet the whole history pays through %s", round, cp.Closing.Format(time.DateOnly))
		}
		if err != nil {
			t.Fatal(err)
		}
		used++
		var want []Statement
		for _, s := range whole {
			if s.Closing.After(cp.Closing) {
				want = append(want, s)
			} else if !s.Paid {
				t.Fatalf("round %d: statement %s up to the checkpoint %s not paid", round, s.Closing.Format(time.DateOnly), cp.Closing.Format(time.DateOnly))
			}
		}
		if len(got) != len(want) || (len(got) > 0 && !reflect.DeepEqual(got, want)) {
			t.Fatalf("round %d: after %s\n got %+v\nwant %+v", round, cp.Closing.Format(time.DateOnly), got, want)
		}
		if !sameCheckpoint(next, wholeNext) {
			t.Fatalf("round %d: next checkpoint %+v, the whole history's %+v", round, next, wholeNext)
		}
	}
	if used < 100 || stale == 0 {
		t.Fatalf("%d checkpoints used, %d stale: the rounds do not exercise the rule", used, stale)
	}
	t.Logf("%d checkpoints used, %d stale", used, stale)
}

func sameCheckpoint(a, b Checkpoint) bool {
	if !a.Closing.Equal(b.Closing) || a.Consumed != b.Consumed || len(a.Carry) != len(b.Carry) {
		return false
	}
	return len(a.Carry) == 0 || reflect.DeepEqual(a.Carry, b.Carry)
}
