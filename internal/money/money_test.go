package money

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"
)

// exact answers whether the big.Int result fits, and its value.
func exact(i *big.Int) (int64, bool) {
	if !i.IsInt64() {
		return 0, false
	}
	return i.Int64(), true
}

// TestAddAndSubMatchBigInt: random operands, edges included, give the big.Int
// result when it fits and report overflow exactly when it does not.
func TestAddAndSubMatchBigInt(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(18, 2026))
	edges := []int64{0, 1, -1, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1, Bound, -Bound}
	pick := func() int64 {
		switch r.IntN(3) {
		case 0:
			return edges[r.IntN(len(edges))]
		case 1:
			return r.Int64N(2*Bound+1) - Bound
		default:
			return int64(r.Uint64())
		}
	}
	overflows := 0
	for range 5000 {
		a, b := pick(), pick()
		wantSum, okSum := exact(new(big.Int).Add(big.NewInt(a), big.NewInt(b)))
		if got, ok := Add(a, b); ok != okSum || (ok && got != wantSum) {
			t.Fatalf("Add(%d, %d) = %d, %v; want %d, %v", a, b, got, ok, wantSum, okSum)
		}
		wantDiff, okDiff := exact(new(big.Int).Sub(big.NewInt(a), big.NewInt(b)))
		if got, ok := Sub(a, b); ok != okDiff || (ok && got != wantDiff) {
			t.Fatalf("Sub(%d, %d) = %d, %v; want %d, %v", a, b, got, ok, wantDiff, okDiff)
		}
		if !okSum || !okDiff {
			overflows++
		}
	}
	if overflows == 0 {
		t.Fatal("no case overflowed: the overflow branch was never tested")
	}
}

func TestFromDecimalRefusesWhatIntPartWouldWrap(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"2.5", 3, true}, {"-2.5", -3, true}, {"2.49", 2, true},
		{"9223372036854775807", math.MaxInt64, true},
		{"9223372036854775807.4", math.MaxInt64, true},
		{"9223372036854775807.5", 0, false},
		{"-9223372036854775808", math.MinInt64, true},
		{"-9223372036854775809", 0, false},
		// 999999999999 × 999999999999, which decimal's IntPart wraps to
		// 2003762205206896641 (the portfolio value of issue 18's probe).
		{"999999999998000000000001", 0, false},
	} {
		got, ok := FromDecimal(decimal.RequireFromString(c.in))
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("FromDecimal(%s) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestCheckedRemembersAnOverflow(t *testing.T) {
	t.Parallel()
	var c Checked
	total := int64(math.MaxInt64 - 5)
	c.Add(&total, 3)
	if c.Err() != nil || total != math.MaxInt64-2 {
		t.Fatalf("in range: %d, %v", total, c.Err())
	}
	c.Add(&total, 3)
	c.Add(&total, -100) // a later add in range does not clear the overflow
	if !errors.Is(c.Err(), ErrOutOfRange) {
		t.Fatalf("after an overflow: %v", c.Err())
	}
}
