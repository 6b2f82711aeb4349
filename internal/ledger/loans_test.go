package ledger_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/ledger"
)

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// row is principal, interest and remaining of one instalment (payment is
// their sum and checked as such).
type row struct{ principal, interest, remaining int64 }

func TestScheduleAgainstHandComputedOnes(t *testing.T) {
	t.Parallel()
	start := day(2026, 1, 15)
	for _, tc := range []struct {
		name string
		loan ledger.Loan
		want []row
	}{
		{
			// r = 1 %: interest on 1.2M, 1.1M, ... 0.1M.
			name: "equal principal",
			loan: ledger.Loan{Amount: 1_200_000, Rate: decimal.RequireFromString("12"), Method: ledger.LoanEqualPrincipal, Months: 12, Start: start},
			want: []row{
				{100_000, 12_000, 1_100_000}, {100_000, 11_000, 1_000_000}, {100_000, 10_000, 900_000},
				{100_000, 9_000, 800_000}, {100_000, 8_000, 700_000}, {100_000, 7_000, 600_000},
				{100_000, 6_000, 500_000}, {100_000, 5_000, 400_000}, {100_000, 4_000, 300_000},
				{100_000, 3_000, 200_000}, {100_000, 2_000, 100_000}, {100_000, 1_000, 0},
			},
		},
		{
			name: "equal principal with a remainder",
			loan: ledger.Loan{Amount: 1_000_000, Rate: decimal.Zero, Method: ledger.LoanEqualPrincipal, Months: 3, Start: start},
			want: []row{{333_333, 0, 666_667}, {333_333, 0, 333_334}, {333_334, 0, 0}},
		},
		{
			// r = 0.5 %: 5,000 a month, the principal at the end.
			name: "bullet",
			loan: ledger.Loan{Amount: 1_000_000, Rate: decimal.RequireFromString("6"), Method: ledger.LoanBullet, Months: 3, Start: start},
			want: []row{{0, 5_000, 1_000_000}, {0, 5_000, 1_000_000}, {1_000_000, 5_000, 0}},
		},
		{
			name: "zero rate equal payment",
			loan: ledger.Loan{Amount: 1_000_000, Rate: decimal.Zero, Method: ledger.LoanEqualPayment, Months: 3, Start: start},
			want: []row{{333_333, 0, 666_667}, {333_333, 0, 333_334}, {333_334, 0, 0}},
		},
		{
			name: "one month",
			loan: ledger.Loan{Amount: 500_000, Rate: decimal.RequireFromString("12"), Method: ledger.LoanEqualPayment, Months: 1, Start: start},
			want: []row{{500_000, 5_000, 0}},
		},
		{
			// payment = 1,000,000 × 0.01 × 1.0201 / 0.0201 = 507,512.44 → 507,512;
			// month 2 interest 502,488 × 0.01 = 5,024.88 → 5,025.
			name: "equal payment",
			loan: ledger.Loan{Amount: 1_000_000, Rate: decimal.RequireFromString("12"), Method: ledger.LoanEqualPayment, Months: 2, Start: start},
			want: []row{{497_512, 10_000, 502_488}, {502_488, 5_025, 0}},
		},
		{
			// The bank's 510,000 replaces the computed payment; the last
			// instalment absorbs the difference.
			name: "equal payment at the bank's figure",
			loan: ledger.Loan{Amount: 1_000_000, Rate: decimal.RequireFromString("12"), Method: ledger.LoanEqualPayment, Months: 2, Start: start, Payment: 510_000},
			want: []row{{500_000, 10_000, 500_000}, {500_000, 5_000, 0}},
		},
	} {
		got, err := ledger.Schedule(tc.loan)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: %d instalments, want %d", tc.name, len(got), len(tc.want))
			continue
		}
		for i, w := range tc.want {
			g := got[i]
			if g.Number != i+1 || g.Principal != w.principal || g.Interest != w.interest || g.Remaining != w.remaining || g.Payment != w.principal+w.interest {
				t.Errorf("%s: instalment %d is %+v, want %+v", tc.name, i+1, g, w)
			}
		}
	}
}

func TestScheduleDatesUseTheLastDayOfShorterMonths(t *testing.T) {
	t.Parallel()
	got, err := ledger.Schedule(ledger.Loan{Amount: 300, Rate: decimal.Zero, Method: ledger.LoanBullet, Months: 3, Start: day(2026, 1, 31)})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []time.Time{day(2026, 2, 28), day(2026, 3, 31), day(2026, 4, 30)} {
		if !got[i].Date.Equal(want) {
			t.Errorf("instalment %d on %s, want %s", i+1, got[i].Date.Format(time.DateOnly), want.Format(time.DateOnly))
		}
	}
}

// TestSchedulePrincipalAlwaysSumsToTheLoan is a property test over random
// loans, bank payments included.
func TestSchedulePrincipalAlwaysSumsToTheLoan(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 11))
	methods := []string{ledger.LoanEqualPayment, ledger.LoanEqualPrincipal, ledger.LoanBullet}
	for i := range 2000 {
		l := ledger.Loan{
			Amount: 1 + r.Int64N(2_000_000_000),
			Rate:   decimal.New(r.Int64N(250_000), -4), // 0 to 24.9999 %
			Method: methods[r.IntN(3)],
			Months: 1 + r.IntN(480),
			Start:  day(2026, time.Month(1+r.IntN(12)), 1+r.IntN(31)),
		}
		if r.IntN(4) == 0 {
			l.Payment = 1 + r.Int64N(l.Amount)
		}
		rows, err := ledger.Schedule(l)
		if err != nil {
			t.Fatalf("case %d %+v: %v", i, l, err)
		}
		var sum int64
		for _, x := range rows {
			sum += x.Principal
			if x.Payment != x.Principal+x.Interest || x.Interest < 0 {
				t.Fatalf("case %d %+v: instalment %+v", i, l, x)
			}
		}
		if len(rows) != l.Months || sum != l.Amount || rows[len(rows)-1].Remaining != 0 {
			t.Fatalf("case %d %+v: %d instalments, principal sums to %d, last remaining %d", i, l, len(rows), sum, rows[len(rows)-1].Remaining)
		}
	}
}

func TestLoanScheduleOperation(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	start := lt.Date(2026, 1, 15)
	var w api.Wallet
	m.Do(http.MethodPost, "/api/account/wallets", api.WalletRequest{
		Name: "Car loan", Type: api.WalletTypeLoan, OpeningBalance: lt.Ptr[int64](-1_000_000),
		LoanAmount: lt.Ptr[int64](1_000_000), LoanRate: lt.Ptr("12"), LoanMethod: lt.Ptr(api.LoanMethodEqualPayment),
		LoanMonths: lt.Ptr[int32](2), LoanStart: &start,
	}).Want(http.StatusCreated).JSON(&w)
	var s api.LoanSchedule
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d/loan-schedule", w.ID), nil).Want(http.StatusOK).JSON(&s)
	if len(s.Items) != 2 || s.Items[0].Payment != 507_512 || s.Items[1].Payment != 507_513 || s.TotalInterest != 15_025 ||
		s.Items[0].Date.Time.Format(time.DateOnly) != "2026-02-15" {
		t.Fatalf("schedule %+v", s)
	}
}
