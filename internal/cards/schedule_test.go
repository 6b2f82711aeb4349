package cards

import (
	"math/rand/v2"
	"testing"
)

// TestPropertyScheduleTilesEveryDay: whatever past cycles a card had, every
// day falls in exactly one statement (From ≤ day ≤ To), statements follow
// one another without gap or overlap, each is due after it closes, and the
// statements up to a past cycle's last closing keep that cycle's dates.
func TestPropertyScheduleTilesEveryDay(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(45, 7))
	for round := range 300 {
		first := Cycle{StatementDay: 1 + rng.IntN(31), PaymentDay: 1 + rng.IntN(31)}
		sc := Schedule{Current: first}
		at := day(2024, 1, 1).AddDate(0, 0, rng.IntN(60))
		for range rng.IntN(4) {
			// An edit: the paid run ends at a closing of the cycle in force.
			until := sc.closingOn(at)
			sc.Past = append(sc.Past, Segment{Until: until, Cycle: sc.Current})
			sc.Current = Cycle{StatementDay: 1 + rng.IntN(31), PaymentDay: 1 + rng.IntN(31)}
			at = until.AddDate(0, 0, 1+rng.IntN(120))
		}
		for _, seg := range sc.Past {
			if got := sc.statement(seg.Until); !got.Closing.Equal(seg.Until) || !got.Due.Equal(seg.Cycle.Due(seg.Until)) {
				t.Fatalf("round %d: the statement closing %s moved: %+v", round, seg.Until.Format("2006-01-02"), got)
			}
		}
		closing := sc.closingOn(day(2024, 1, 1))
		for d := day(2024, 1, 1); d.Before(day(2027, 1, 1)); d = d.AddDate(0, 0, 1) {
			s := sc.statement(sc.closingOn(d))
			if d.Before(s.From) || d.After(s.To) || !s.Due.After(s.Closing) {
				t.Fatalf("round %d: %s falls in %+v (schedule %+v)", round, d.Format("2006-01-02"), s, sc)
			}
			if d.After(closing) {
				next := sc.next(closing)
				if n := sc.statement(next); !n.From.Equal(closing.AddDate(0, 0, 1)) {
					t.Fatalf("round %d: after %s comes %+v", round, closing.Format("2006-01-02"), n)
				}
				closing = next
			}
		}
	}
}
