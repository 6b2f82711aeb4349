// Package money keeps amounts honest: every total the service answers is
// added here with overflow checked, because a wrapped number is worse than an
// error (a member would see a negative net worth, or plan around it).
//
// Amounts are int64 won. One amount is within Bound (the contract's bound on
// every amount a request carries); a total of many can still pass what int64
// holds, and then the read answers ErrOutOfRange instead of a wrapped number.
package money

import (
	"errors"
	"math"
	"math/big"
	"net/http"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/shopspring/decimal"

	"github.com/nestegg/nestegg/internal/problem"
)

// Bound is the largest amount one request field may carry (10^15 won), as
// the contract's Money and Amount schemas declare it.
const Bound = 1_000_000_000_000_000

// BoundDecimal is Bound as a decimal, for values computed from decimals (a
// trade's quantity × price + fee).
var BoundDecimal = decimal.NewFromInt(Bound)

// ErrOutOfRange answers a read whose total cannot be represented as an int64
// amount: 422 TOTAL_OUT_OF_RANGE, never a wrapped number and never a 500.
var ErrOutOfRange = problem.New(http.StatusUnprocessableEntity, problem.CodeTotalOutOfRange,
	"a total of this answer is beyond what an amount can hold (±9,223,372,036,854,775,807 won)")

// Add is a + b, and false when the sum does not fit an int64.
func Add(a, b int64) (int64, bool) {
	s := a + b
	// Overflow happened exactly when both operands have the sign the sum lacks.
	if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
		return 0, false
	}
	return s, true
}

// Sub is a − b, and false when the difference does not fit an int64.
func Sub(a, b int64) (int64, bool) {
	if b == math.MinInt64 {
		if a >= 0 {
			return 0, false
		}
		return a - b, true
	}
	return Add(a, -b)
}

// FromDecimal rounds d to whole won (half away from zero), and false when
// that does not fit an int64. decimal's IntPart silently keeps the low 64
// bits of a larger value; this never does.
func FromDecimal(d decimal.Decimal) (int64, bool) {
	i := d.Round(0).BigInt()
	if !i.IsInt64() {
		return 0, false
	}
	return i.Int64(), true
}

// FromBig is i as an int64, and false when it does not fit.
func FromBig(i *big.Int) (int64, bool) {
	if !i.IsInt64() {
		return 0, false
	}
	return i.Int64(), true
}

// Checked accumulates totals and remembers the first overflow, so a loop of
// additions reads as plainly as += and is checked once at the end with Err.
// After an overflow the values it wrote are meaningless; Err must be asked
// before any of them is answered.
type Checked struct {
	failed bool
}

// Add adds v to *dst.
func (c *Checked) Add(dst *int64, v int64) {
	s, ok := Add(*dst, v)
	if !ok {
		c.failed = true
	}
	*dst = s
}

// Sum is a + b.
func (c *Checked) Sum(a, b int64) int64 {
	s, ok := Add(a, b)
	if !ok {
		c.failed = true
	}
	return s
}

// Sub is a − b.
func (c *Checked) Sub(a, b int64) int64 {
	s, ok := Sub(a, b)
	if !ok {
		c.failed = true
	}
	return s
}

// Won is d rounded to whole won.
func (c *Checked) Won(d decimal.Decimal) int64 {
	v, ok := FromDecimal(d)
	if !ok {
		c.failed = true
	}
	return v
}

// Err is ErrOutOfRange once any operation overflowed, else nil.
func (c *Checked) Err() error {
	if c.failed {
		return ErrOutOfRange
	}
	return nil
}

// sqlOutOfRange is PostgreSQL's numeric_value_out_of_range.
const sqlOutOfRange = "22003"

// FromSQL turns PostgreSQL's "bigint out of range" into ErrOutOfRange (with
// err kept as the cause for the logs) and leaves any other error as it is.
// Queries sum amounts as numeric (SUM of bigint is numeric, so the sum itself
// never wraps) and cast the result back to bigint: the cast is a checked
// narrowing, and this is where its failure becomes the stable problem.
func FromSQL(err error) error {
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.Code == sqlOutOfRange {
		return &problem.Error{Status: ErrOutOfRange.Status, Code: ErrOutOfRange.Code, Detail: ErrOutOfRange.Detail, Err: err}
	}
	return err
}

// Held is d rounded to whole won when that fits an int64 (exact true), else
// the nearest end of int64's range (exact false): what an answer that must be
// given whatever the total (a wallet in the changes feed, the entry list's
// summary) carries, with a flag saying the figure is not exact (issue 42).
// Never a wrapped number.
func Held(d decimal.Decimal) (v int64, exact bool) {
	if v, ok := FromDecimal(d); ok {
		return v, true
	}
	if d.IsNegative() {
		return math.MinInt64, false
	}
	return math.MaxInt64, false
}
