package budget

import (
	"context"

	"github.com/nestegg/nestegg/generated/db"
)

// Reads and writes of the budget tables for other areas (backup), inside
// their transaction (q).

// ForBackupTx answers the monthly budgets of the latest month up to the given one that has any.
func ForBackupTx(ctx context.Context, q *db.Queries, arg db.ListBackupBudgetsParams) ([]db.ListBackupBudgetsRow, error) {
	return q.ListBackupBudgets(ctx, arg)
}

// OnetimeForBackupTx answers every one-time budget of the member.
func OnetimeForBackupTx(ctx context.Context, q *db.Queries, memberID int64) ([]db.ListBackupOnetimeBudgetsRow, error) {
	return q.ListBackupOnetimeBudgets(ctx, memberID)
}

// IncomesForBackupTx answers every expected income of the member, by month.
func IncomesForBackupTx(ctx context.Context, q *db.Queries, memberID int64) ([]db.ListBackupBudgetIncomesRow, error) {
	return q.ListBackupBudgetIncomes(ctx, memberID)
}

// DeleteAllIncomesTx deletes the expected income of every month of the member.
func DeleteAllIncomesTx(ctx context.Context, q *db.Queries, memberID int64) error {
	return q.DeleteMemberBudgetIncomes(ctx, memberID)
}

// DeleteAllTx deletes every monthly budget of the member.
func DeleteAllTx(ctx context.Context, q *db.Queries, memberID int64) error {
	return q.DeleteMemberBudgets(ctx, memberID)
}

// DeleteAllOnetimeTx deletes every one-time budget of the member.
func DeleteAllOnetimeTx(ctx context.Context, q *db.Queries, memberID int64) error {
	return q.DeleteMemberOnetimeBudgets(ctx, memberID)
}
