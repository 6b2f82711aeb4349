package budget

import (
	"context"
	"fmt"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/ledger"
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
