package budget

import (
	"context"
	"fmt"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/ledger"
)

// CreateOnetimeTx checks and creates a one-time budget inside the caller's
// transaction (a restore), with the checks of the API's create.
func CreateOnetimeTx(ctx context.Context, q *db.Queries, memberID int64, req api.OnetimeBudgetRequest) error {
	in, err := onetimeInputFrom(req)
	if err != nil {
		return err
	}
	if err := checkOnetimeCategory(ctx, q, memberID, in.CategoryID); err != nil {
		return err
	}
	_, err = q.CreateOnetimeBudget(ctx, db.CreateOnetimeBudgetParams{
		MemberID: memberID, Name: in.Name, Amount: in.Amount, StartDate: in.Start, EndDate: in.End, CategoryID: in.CategoryID,
	})
	if isFK(err) {
		return ledger.ErrCategoryNotFound
	}
	if err != nil {
		return fmt.Errorf("create one-time budget: %w", err)
	}
	return nil
}

// CheckAmount refuses a budget amount out of 0..10^15 won, naming field.
func CheckAmount(field string, v int64) error { return checkAmount(field, v) }
