package ledger

import (
	"context"
	"fmt"
	"time"

	"github.com/oapi-codegen/runtime/types"
	"github.com/shopspring/decimal"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/money"
	"github.com/nestegg/nestegg/internal/problem"
)

// Loan is what a repayment schedule is computed from.
type Loan struct {
	Amount int64
	// Rate is the annual interest rate in percent.
	Rate   decimal.Decimal
	Method string
	Months int
	Start  time.Time
	// Payment, when positive, replaces the computed equal payment.
	Payment int64
}

// Installment is one month of a schedule.
type Installment struct {
	Number                                  int
	Date                                    time.Time
	Payment, Principal, Interest, Remaining int64
}

// Schedule computes the monthly repayments of a loan. Interest is charged on
// the outstanding balance at rate/12 and rounded half up to the won; the last
// instalment repays whatever principal is left, so the principals always sum
// to the loan amount whatever the rounding (or a bank's fixed payment) did.
//
// A fixed payment below the interest makes the balance grow (a request can
// no longer set one, see CheckLoanPayment, but a loan stored before may have
// it); every sum is checked, and a schedule whose amounts pass what int64
// holds answers money.ErrOutOfRange rather than wrapped numbers.
func Schedule(l Loan) ([]Installment, error) {
	monthly := l.Rate.Div(decimal.NewFromInt(1200))
	n := l.Months
	payment := l.Payment
	if l.Method == LoanEqualPayment && payment <= 0 {
		payment = equalPayment(l.Amount, monthly, n)
	}
	var c money.Checked
	out := make([]Installment, 0, n)
	remaining := l.Amount
	for k := 1; k <= n; k++ {
		interest := c.Won(decimal.NewFromInt(remaining).Mul(monthly))
		var principal int64
		switch {
		case k == n:
			principal = remaining
		case l.Method == LoanEqualPayment:
			principal = min(c.Sub(payment, interest), remaining)
		case l.Method == LoanEqualPrincipal:
			principal = min(l.Amount/int64(n), remaining)
		default: // BULLET
			principal = 0
		}
		remaining = c.Sub(remaining, principal)
		out = append(out, Installment{
			Number: k, Date: addMonths(l.Start, k),
			Payment: c.Sum(principal, interest), Principal: principal, Interest: interest, Remaining: remaining,
		})
		if err := c.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// CheckLoanPayment refuses, as a 400 naming field, a fixed monthly payment
// of an EQUAL_PAYMENT loan that does not cover its first month's interest:
// such a loan never shrinks, and its balance grows without bound.
func CheckLoanPayment(field string, amount, payment int64, rate decimal.Decimal, method string) error {
	if method != LoanEqualPayment || payment <= 0 {
		return nil
	}
	interest := decimal.NewFromInt(amount).Mul(rate).Div(decimal.NewFromInt(1200)).Round(0)
	if decimal.NewFromInt(payment).LessThan(interest) {
		return problem.Invalid(field, fmt.Sprintf("must cover at least the first month's interest (%s)", interest.String()))
	}
	return nil
}

// equalPayment is the annuity payment P·r / (1 − (1+r)^−n), rounded half up;
// P/n without interest.
func equalPayment(amount int64, monthly decimal.Decimal, n int) int64 {
	p := decimal.NewFromInt(amount)
	if monthly.IsZero() {
		return p.Div(decimal.NewFromInt(int64(n))).Round(0).IntPart()
	}
	growth, err := decimal.NewFromInt(1).Add(monthly).PowWithPrecision(decimal.NewFromInt(int64(n)), 24)
	if err != nil { // only for a zero base with a negative power, which cannot happen here
		return p.Div(decimal.NewFromInt(int64(n))).Round(0).IntPart()
	}
	// P·r·g / (g − 1) is the same payment without a negative power.
	return p.Mul(monthly).Mul(growth).DivRound(growth.Sub(decimal.NewFromInt(1)), 8).Round(0).IntPart()
}

// addMonths is the same day k months later, or that month's last day when it
// is shorter (31 January + 1 month = 28 or 29 February).
func addMonths(start time.Time, k int) time.Time {
	return dayOfMonth(start.Year(), start.Month()+time.Month(k), start.Day())
}

// errNoLoan answers the schedule of a wallet without loan terms.
var errNoLoan = problem.NotFound("loan schedule (the wallet has no loan terms)")

// GetLoanSchedule answers a loan wallet's repayment schedule.
func (h *LedgerHandler) GetLoanSchedule(ctx context.Context, req api.GetLoanScheduleRequestObject) (api.GetLoanScheduleResponseObject, error) {
	w, err := ownWallet(ctx, db.New(h.pool), caller(ctx).MemberID, &req.ID)
	if err != nil {
		return nil, err
	}
	if w.LoanAmount == nil || w.LoanMethod == nil || w.LoanMonths == nil || !w.LoanStart.Valid || !w.LoanRate.Valid {
		return nil, errNoLoan
	}
	l := Loan{Amount: *w.LoanAmount, Rate: w.LoanRate.Decimal, Method: *w.LoanMethod, Months: int(*w.LoanMonths), Start: w.LoanStart.Time}
	if w.LoanPayment != nil {
		l.Payment = *w.LoanPayment
	}
	rows, err := Schedule(l)
	if err != nil {
		return nil, err
	}
	var c money.Checked
	out := api.LoanSchedule{WalletID: w.ID, Method: api.LoanMethodValue(l.Method), LoanAmount: l.Amount, Items: make([]api.LoanInstallment, len(rows))}
	for i, r := range rows {
		c.Add(&out.TotalInterest, r.Interest)
		out.Items[i] = api.LoanInstallment{
			Number: int32(r.Number), Date: types.Date{Time: r.Date},
			Payment: r.Payment, Principal: r.Principal, Interest: r.Interest, Remaining: r.Remaining,
		}
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	return api.GetLoanSchedule200JSONResponse(out), nil
}
