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

// UnpaidRead is MemberCardStatements' read, made and not answered yet.
type UnpaidRead struct {
	read *cardsRead
}

// QueueMemberCardStatements makes the read of MemberCardStatements through
// q without reading its answer: with a database.Pipeline under q it goes
// out with the queries made beside it (the forecast's), in one round trip.
// Read its answer (Statements) after theirs.
func QueueMemberCardStatements(ctx context.Context, q *db.Queries, memberID int64, today time.Time) *UnpaidRead {
	return &UnpaidRead{read: queueCards(ctx, q, memberID, reading{checkpoints: true, today: today})}
}

// Statements reads the answer and computes the statements, recording the
// checkpoints that moved through q, as MemberCardStatements does.
func (u *UnpaidRead) Statements(ctx context.Context, q *db.Queries) ([]CardStatements, error) {
	cards, err := u.read.cards(ctx, q)
	if err != nil {
		return nil, err
	}
	out := make([]CardStatements, len(cards))
	for i, c := range cards {
		out[i] = CardStatements{WalletID: c.walletID, Cycle: c.schedule.Current, Statements: c.statements}
	}
	return out, nil
}

// MemberCardStatements computes the statements of every cycle card of the
// member that close after its checkpoint, in the wallets' order (one
// statement however many cards, and one more recording the checkpoints
// that moved): every statement that is not paid is among them (those
// before the checkpoint are paid), which is what the cash-flow forecast
// (package forecast) takes the unpaid bills from. today decides which
// statements are closed (a checkpoint is the last closed statement of the
// paid run). A total that cannot be represented is money.ErrOutOfRange.
func MemberCardStatements(ctx context.Context, q *db.Queries, memberID int64, today time.Time) ([]CardStatements, error) {
	return QueueMemberCardStatements(ctx, q, memberID, today).Statements(ctx, q)
}
