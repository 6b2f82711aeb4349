package budget

import (
	"context"
	"fmt"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/problem"
)

// CreateOnetimeTx checks and creates a one-time budget inside the caller's
// transaction (a restore), as the API's create does.
func CreateOnetimeTx(ctx context.Context, q *db.Queries, memberID int64, req api.OnetimeBudgetRequest) error {
	in, err := onetimeInputFrom(req)
	if err != nil {
		return err
	}
	_, err = createOnetimeTx(ctx, q, memberID, in)
	return err
}

// createOnetimeTx creates a checked one-time budget of an expense category
// of the member (or of none) and answers its id.
func createOnetimeTx(ctx context.Context, q *db.Queries, memberID int64, in onetimeInput) (int64, error) {
	if err := checkOnetimeCategory(ctx, q, memberID, in.CategoryID); err != nil {
		return 0, err
	}
	id, err := q.CreateOnetimeBudget(ctx, db.CreateOnetimeBudgetParams{
		MemberID: memberID, Name: in.Name, Amount: in.Amount, StartDate: in.Start, EndDate: in.End, CategoryID: in.CategoryID,
	})
	if database.IsForeignKeyViolation(err) {
		return 0, ledger.ErrCategoryNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("create one-time budget: %w", err)
	}
	return id, nil
}

// Income is a month's expected income.
type Income struct {
	Year, Month int32
	Amount      int64
}

// CreateIncomesTx checks and sets the expected income of several months
// inside the caller's transaction (a restore, after it deleted the member's
// expected incomes), in one statement. A field error names the income by its
// position ("/3/month"); a month given twice is refused.
func CreateIncomesTx(ctx context.Context, q *db.Queries, memberID int64, incomes []Income) error {
	if len(incomes) == 0 {
		return nil
	}
	arg := db.InsertBudgetIncomesParams{
		MemberID: memberID, Years: make([]int32, len(incomes)), Months: make([]int32, len(incomes)), Amounts: make([]int64, len(incomes)),
	}
	seen := make(map[[2]int32]int, len(incomes))
	for i, in := range incomes {
		at := fmt.Sprintf("/%d", i)
		if err := checkMonth(at+"/year", at+"/month", in.Year, in.Month); err != nil {
			return err
		}
		if err := checkAmount(at+"/amount", in.Amount); err != nil {
			return err
		}
		if j, dup := seen[[2]int32{in.Year, in.Month}]; dup {
			return problem.Invalid(at+"/month", fmt.Sprintf("repeats the month of expected income %d", j))
		}
		seen[[2]int32{in.Year, in.Month}] = i
		arg.Years[i], arg.Months[i], arg.Amounts[i] = in.Year, in.Month, in.Amount
	}
	if err := q.InsertBudgetIncomes(ctx, arg); err != nil {
		return fmt.Errorf("set expected incomes of member %d: %w", memberID, err)
	}
	return nil
}
