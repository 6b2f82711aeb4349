package cards

import (
	"context"
	"time"

	"github.com/nestegg/nestegg/generated/db"
)

// CardStatements are one cycle card's statements, oldest first.
type CardStatements struct {
	WalletID   int64
	Cycle      Cycle
	Statements []Statement
}

// MemberCardStatements computes the statements of every cycle card of the
// member that close after its checkpoint, in the wallets' order, inside q's
// transaction (three statements however many cards): every statement that
// is not paid is among them (those before the checkpoint are paid), which
// is what the cash-flow forecast (package forecast) takes the unpaid bills
// from. today decides which statements are closed (a checkpoint is the last
// closed statement of the paid run). A total that cannot be represented is
// money.ErrOutOfRange.
func MemberCardStatements(ctx context.Context, q *db.Queries, memberID int64, today time.Time) ([]CardStatements, error) {
	cards, err := unpaidCardStatements(ctx, q, memberID, today)
	if err != nil {
		return nil, err
	}
	out := make([]CardStatements, len(cards))
	for i, c := range cards {
		out[i] = CardStatements{WalletID: c.walletID, Cycle: c.schedule.Current, Statements: c.statements}
	}
	return out, nil
}
