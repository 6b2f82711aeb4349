package invest

import (
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/nestegg/nestegg/internal/money"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// TestMovingAverageReferenceCases are computed by hand.
func TestMovingAverageReferenceCases(t *testing.T) {
	t.Parallel()
	type step struct{ side, qty, price, fee string }
	type want struct{ qty, avg, realised string }
	cases := []struct {
		name  string
		steps []step
		want  want
	}{
		{"buy, buy: quantity-weighted with fees", []step{{SideBuy, "10", "100", "10"}, {SideBuy, "10", "120", "10"}},
			want{"20", "111", "0"}},
		{"partial sell at the average", []step{{SideBuy, "10", "100", "10"}, {SideBuy, "10", "120", "10"}, {SideSell, "5", "130", "5"}},
			want{"15", "111", "90"}},
		{"full sell, then a re-buy starts a new average", []step{{SideBuy, "10", "100", "10"}, {SideBuy, "10", "120", "10"},
			{SideSell, "5", "130", "5"}, {SideSell, "15", "100", "0"}, {SideBuy, "2", "50", "0"}},
			want{"2", "50", "-75"}},
		{"fractional quantities", []step{{SideBuy, "0.5", "1000.5", "0.25"}, {SideBuy, "1.25", "999", "0"}, {SideSell, "0.75", "1100", "1"}},
			want{"1", "999.571429", "74.3214285714285714"}},
	}
	for _, c := range cases {
		var p Position
		for _, s := range c.steps {
			if !p.Apply(s.side, d(s.qty), d(s.price), d(s.fee)) {
				t.Fatalf("%s: a step was refused", c.name)
			}
		}
		if !p.Quantity.Equal(d(c.want.qty)) || !p.AverageCost().Equal(d(c.want.avg)) ||
			p.Realised.Sub(d(c.want.realised)).Abs().GreaterThan(d("0.0000000001")) {
			t.Errorf("%s: quantity %s, average %s, realised %s; want %+v", c.name, p.Quantity, p.AverageCost(), p.Realised, c.want)
		}
	}
	var p Position
	if p.Apply(SideSell, d("1"), d("1"), d("0")) {
		t.Fatal("a sell of nothing was accepted")
	}
	var c money.Checked
	if c.Won(d("2.5")) != 3 || c.Won(d("-2.5")) != -3 || c.Won(d("2.49")) != 2 || c.Err() != nil {
		t.Fatal("won does not round half up (away from zero)")
	}
}

// TestReplayMatchesAnIndependentComputation: random valid trade sequences
// replayed by Position give the same quantity, cost and realised profit as a
// plain computation in exact rationals that tracks the average price itself.
func TestReplayMatchesAnIndependentComputation(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(9, 2026))
	tolerance := big.NewRat(1, 1_000_000_000)
	for run := range 500 {
		var p Position
		qty, avg, realised := new(big.Rat), new(big.Rat), new(big.Rat)
		for range 1 + rng.IntN(30) {
			price := decimal.New(rng.Int64N(10_000_000), -int32(rng.IntN(4)))
			fee := decimal.New(rng.Int64N(10_000), -int32(rng.IntN(3)))
			held := decimal.NewFromBigRat(qty, 6)
			var side string
			var q decimal.Decimal
			switch {
			case held.IsPositive() && rng.IntN(5) == 0:
				side, q = SideSell, held // close the position
			case held.IsPositive() && rng.IntN(2) == 0:
				side = SideSell
				q = held.Mul(decimal.New(1+rng.Int64N(99), -2)).Truncate(6)
				if !q.IsPositive() {
					q = held
				}
			default:
				side, q = SideBuy, decimal.New(1+rng.Int64N(10_000_000), -int32(rng.IntN(7)))
			}
			if !p.Apply(side, q, price, fee) {
				t.Fatalf("run %d: a valid step was refused", run)
			}
			qr, pr, fr := q.Rat(), price.Rat(), fee.Rat()
			if side == SideBuy {
				total := new(big.Rat).Mul(avg, qty)
				total.Add(total, new(big.Rat).Mul(qr, pr)).Add(total, fr)
				qty.Add(qty, qr)
				avg.Quo(total, qty)
			} else {
				gain := new(big.Rat).Mul(qr, pr)
				gain.Sub(gain, fr).Sub(gain, new(big.Rat).Mul(qr, avg))
				realised.Add(realised, gain)
				qty.Sub(qty, qr)
				if qty.Sign() == 0 {
					avg.SetInt64(0)
				}
			}
			cost := new(big.Rat).Mul(avg, qty)
			if p.Quantity.Rat().Cmp(qty) != 0 ||
				new(big.Rat).Abs(new(big.Rat).Sub(p.Cost.Rat(), cost)).Cmp(tolerance) > 0 ||
				new(big.Rat).Abs(new(big.Rat).Sub(p.Realised.Rat(), realised)).Cmp(tolerance) > 0 {
				t.Fatalf("run %d: quantity %s cost %s realised %s; reference %s %s %s", run, p.Quantity, p.Cost, p.Realised,
					qty.FloatString(6), cost.FloatString(10), realised.FloatString(10))
			}
		}
	}
}

func TestPointDaysEndPeriodsInTheServiceTimeZone(t *testing.T) {
	t.Parallel()
	seoul, _ := loadSeoul()
	// 2026-11-01 00:30 in Seoul is still October 31 in UTC.
	now := mustTime("2026-10-31T15:30:00Z")
	got := PointDays(now, seoul, "MONTH", 3)
	want := []string{"2026-09-30", "2026-10-31", "2026-11-01"}
	for i := range want {
		if got[i].Format("2006-01-02") != want[i] {
			t.Fatalf("months: %v, want %v", got, want)
		}
	}
	// Wednesday 2026-11-04: this week runs from Monday 2 November; the one
	// before is 26 October to 1 November, across the month end.
	got = PointDays(mustTime("2026-11-04T03:00:00Z"), seoul, "WEEK", 3)
	want = []string{"2026-10-25", "2026-11-01", "2026-11-04"}
	for i := range want {
		if got[i].Format("2006-01-02") != want[i] {
			t.Fatalf("weeks: %v, want %v", got, want)
		}
	}
}
func loadSeoul() (*time.Location, error) { return time.LoadLocation("Asia/Seoul") }

func mustTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}
