package cards

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/oapi-codegen/runtime/types"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/money"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// CardsHandler implements the card statement operations of the contract.
type CardsHandler struct {
	pool  *pgxpool.Pool
	clock clock.Clock
	loc   *time.Location
}

// NewHandler returns the cards handler; loc is the service time zone, which
// decides what today is.
func NewHandler(pool *pgxpool.Pool, c clock.Clock, loc *time.Location) *CardsHandler {
	return &CardsHandler{pool: pool, clock: c, loc: loc}
}

// ListCardStatements answers a card's statements, newest first.
func (h *CardsHandler) ListCardStatements(ctx context.Context, req api.ListCardStatementsRequestObject) (api.ListCardStatementsResponseObject, error) {
	memberID := session.PrincipalFrom(ctx).MemberID
	if req.Params.From != nil && req.Params.To != nil && req.Params.From.After(req.Params.To.Time) {
		return nil, problem.Invalid("from", "must not be after to")
	}
	statements, err := database.InTxV(ctx, h.pool, func(q *db.Queries) ([]Statement, error) {
		w, err := q.GetCardCycle(ctx, db.GetCardCycleParams{MemberID: memberID, ID: req.ID})
		if err := database.NoRows(err, ledger.ErrWalletNotFound, fmt.Sprintf("wallet %d", req.ID)); err != nil {
			return nil, err
		}
		if w.Type != "CARD" || w.StatementDay == nil || w.PaymentDay == nil {
			return nil, problem.Invalid("id", "the wallet has no statement cycle (a CARD with statementDay)")
		}
		cards, err := cardStatements(ctx, q, memberID, &w.ID, true)
		if err != nil || len(cards) == 0 {
			return nil, err
		}
		return cards[0].statements, nil
	})
	if err != nil {
		return nil, err
	}
	out := api.ListCardStatements200JSONResponse{}
	for i := len(statements) - 1; i >= 0; i-- {
		s := statements[i]
		if (req.Params.From != nil && s.Closing.Before(req.Params.From.Time)) || (req.Params.To != nil && s.Closing.After(req.Params.To.Time)) {
			continue
		}
		out = append(out, toAPIStatement(s))
	}
	return out, nil
}

// GetNextCardBills answers every cycle card's next bill and their sum.
func (h *CardsHandler) GetNextCardBills(ctx context.Context, _ api.GetNextCardBillsRequestObject) (api.GetNextCardBillsResponseObject, error) {
	memberID := session.PrincipalFrom(ctx).MemberID
	today := calendar.Day(h.clock.Now(), h.loc)
	out := api.GetNextCardBills200JSONResponse{Cards: []api.NextCardBill{}}
	err := database.InTx(ctx, h.pool, func(q *db.Queries) error {
		cards, err := cardStatements(ctx, q, memberID, nil, false)
		if err != nil {
			return err
		}
		var check money.Checked
		for _, c := range cards {
			next := c.schedule.NextBill(c.statements, today)
			out.Cards = append(out.Cards, api.NextCardBill{
				WalletID: c.walletID, ClosingDate: types.Date{Time: next.Closing}, DueDate: types.Date{Time: next.Due}, Total: next.Total,
			})
			check.Add(&out.Total, next.Total)
		}
		return check.Err()
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// card is a cycle card with its statements, oldest first.
type card struct {
	walletID, paymentWalletID int64
	schedule                  Schedule
	statements                []Statement
}

// KeepPaidStatementsTx runs before a card's cycle is edited (the ledger's
// cycle hook, inside the wallet's update): the statements paid so far keep
// the cycle they were made under, recorded as a past cycle up to the last
// of them (PaidThrough), so the edit moves only statements not yet paid.
// A cleared cycle clears the past ones too.
func KeepPaidStatementsTx(ctx context.Context, q *db.Queries, memberID, walletID int64, cleared bool, today time.Time) error {
	if cleared {
		return q.DeleteCardCyclePast(ctx, db.DeleteCardCyclePastParams{MemberID: memberID, WalletID: walletID})
	}
	cards, err := cardStatements(ctx, q, memberID, &walletID, false)
	if err != nil || len(cards) == 0 {
		return err
	}
	c := cards[0]
	through := PaidThrough(c.statements, today)
	if through.IsZero() {
		return nil
	}
	if n := len(c.schedule.Past); n > 0 && !through.After(c.schedule.Past[n-1].Until) {
		return nil
	}
	return q.AddCardCyclePast(ctx, db.AddCardCyclePastParams{
		MemberID: memberID, WalletID: walletID, UntilDate: through,
		StatementDay: int32(c.schedule.Current.StatementDay), PaymentDay: int32(c.schedule.Current.PaymentDay),
	})
}

// cardStatements reads the entries of the member's cycle cards (one card's
// when walletID is set) in one statement and computes each card's
// statements, the cards in the wallets' order.
func cardStatements(ctx context.Context, q *db.Queries, memberID int64, walletID *int64, items bool) ([]card, error) {
	cards, err := q.ListCycleCards(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("cycle cards of member %d: %w", memberID, err)
	}
	rows, err := q.ListCardStatementEntries(ctx, db.ListCardStatementEntriesParams{MemberID: memberID, WalletID: walletID})
	if err != nil {
		return nil, fmt.Errorf("card entries of member %d: %w", memberID, err)
	}
	pasts, err := q.ListCardCyclePast(ctx, db.ListCardCyclePastParams{MemberID: memberID, WalletID: walletID})
	if err != nil {
		return nil, fmt.Errorf("past card cycles of member %d: %w", memberID, err)
	}
	past := map[int64][]Segment{}
	for _, p := range pasts {
		past[p.WalletID] = append(past[p.WalletID], Segment{Until: p.UntilDate, Cycle: Cycle{StatementDay: int(p.StatementDay), PaymentDay: int(p.PaymentDay)}})
	}
	charges := map[int64][]Charge{}
	payments := map[int64][]Payment{}
	for _, r := range rows {
		switch {
		case r.IsTransfer && r.Type == "income":
			payments[r.WalletID] = append(payments[r.WalletID], Payment{Date: r.EntryDate, Amount: r.Amount})
		case r.Type == "income":
			charges[r.WalletID] = append(charges[r.WalletID], Charge{EntryID: r.ID, Date: r.EntryDate, Amount: -r.Amount, AwaitingRate: r.AwaitingRate})
		default:
			ch := Charge{EntryID: r.ID, Date: r.EntryDate, Amount: r.Amount, AwaitingRate: r.AwaitingRate}
			if r.InstallmentMonths != nil {
				ch.Months = int(*r.InstallmentMonths)
			}
			charges[r.WalletID] = append(charges[r.WalletID], ch)
		}
	}
	out := make([]card, 0, len(cards))
	for _, c := range cards {
		if walletID != nil && c.ID != *walletID {
			continue
		}
		sc := Schedule{Past: past[c.ID], Current: Cycle{StatementDay: int(c.StatementDay), PaymentDay: int(c.PaymentDay)}}
		statements, err := sc.Statements(charges[c.ID], payments[c.ID], items)
		if err != nil {
			return nil, err
		}
		out = append(out, card{walletID: c.ID, paymentWalletID: c.PaymentWalletID, schedule: sc, statements: statements})
	}
	return out, nil
}

func toAPIStatement(s Statement) api.CardStatement {
	out := api.CardStatement{
		ClosingDate: types.Date{Time: s.Closing}, DueDate: types.Date{Time: s.Due},
		From: types.Date{Time: s.From}, To: types.Date{Time: s.To},
		Total: s.Total, Paid: s.Paid, Items: make([]api.CardStatementItem, len(s.Items)),
	}
	for i, it := range s.Items {
		out.Items[i] = api.CardStatementItem{EntryID: it.EntryID, Date: types.Date{Time: it.Date}, Amount: it.Amount, AwaitingRate: it.AwaitingRate}
		if it.Installment != nil {
			out.Items[i].Installment = &api.CardInstallmentSlice{Number: int32(it.Installment.Number), Of: int32(it.Installment.Of)}
		}
	}
	return out
}
