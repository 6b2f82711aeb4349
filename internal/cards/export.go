package cards

import (
	"context"

	"github.com/nestegg/nestegg/generated/db"
)

// CardStatements are one cycle card's statements, oldest first.
type CardStatements struct {
	WalletID   int64
	Cycle      Cycle
	Statements []Statement
}

// MemberCardStatements computes the statements of every cycle card of the
// member, in the wallets' order, inside q's transaction (two statements
// however many cards): what the cash-flow forecast (package forecast) takes
// the unpaid bills from. A total that cannot be represented is
// money.ErrOutOfRange.
func MemberCardStatements(ctx context.Context, q *db.Queries, memberID int64) ([]CardStatements, error) {
	cards, err := cardStatements(ctx, q, memberID, nil, false)
	if err != nil {
		return nil, err
	}
	out := make([]CardStatements, len(cards))
	for i, c := range cards {
		out[i] = CardStatements{WalletID: c.walletID, Cycle: c.schedule.Current, Statements: c.statements}
	}
	return out, nil
}
