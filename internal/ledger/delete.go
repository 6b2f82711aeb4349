package ledger

import (
	"context"
	"fmt"

	"github.com/nestegg/nestegg/generated/db"
)

// DeleteLedgerTx deletes all of a member's ledger (restore starts with it).
func DeleteLedgerTx(ctx context.Context, q *db.Queries, memberID int64) error {
	steps := []struct {
		what string
		del  func(context.Context, int64) error
	}{
		{"entries", q.DeleteMemberEntries},
		{"recurring entries", q.DeleteMemberRecurrings},
		{"quick entries", q.DeleteMemberQuickEntries},
		{"categories", q.DeleteMemberCategories},
		{"tags", q.DeleteMemberTags},
		{"wallets", q.DeleteMemberWallets},
	}
	for _, s := range steps {
		if err := s.del(ctx, memberID); err != nil {
			return fmt.Errorf("delete %s of member %d: %w", s.what, memberID, err)
		}
	}
	return nil
}
