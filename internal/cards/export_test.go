package cards

import (
	"context"
	"time"

	"github.com/nestegg/nestegg/generated/db"
)

// TestCard is a card's statements as a test compares them, with the
// checkpoint they start after.
type TestCard struct {
	WalletID   int64
	From       Checkpoint
	Statements []Statement
}

func testCards(cards []card) []TestCard {
	out := make([]TestCard, len(cards))
	for i, c := range cards {
		out[i] = TestCard{WalletID: c.walletID, From: c.from, Statements: c.statements}
	}
	return out
}

// UnpaidForTest is what the bills, the payment-day job and the forecast
// compute (unpaidCardStatements: from the checkpoints, recording them).
func UnpaidForTest(ctx context.Context, q *db.Queries, memberID int64, today time.Time) ([]TestCard, error) {
	cards, err := unpaidCardStatements(ctx, q, memberID, today)
	return testCards(cards), err
}

// WholeForTest is every statement from the whole history, without items.
func WholeForTest(ctx context.Context, q *db.Queries, memberID int64) ([]TestCard, error) {
	cards, err := cardStatements(ctx, q, memberID, nil, false)
	return testCards(cards), err
}
