package cards

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
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
		cards, err := unpaidCardStatements(ctx, q, memberID, today)
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
	// from is the checkpoint the statements start after (zero: they are
	// every statement of the card's history).
	from Checkpoint
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
// when walletID is set) and computes each card's statements, every one of
// its history, the cards in the wallets' order.
func cardStatements(ctx context.Context, q *db.Queries, memberID int64, walletID *int64, items bool) ([]card, error) {
	return readCards(ctx, q, memberID, reading{walletID: walletID, items: items})
}

// unpaidCardStatements computes the statements of every cycle card of the
// member after its checkpoint (the paid run that starts its history), the
// cards in the wallets' order, without items: all the bills, the
// payment-day job and the forecast need, as the statements up to it are
// paid. It reads only the entries dated after each card's checkpoint, where
// the checkpoint still holds, and records the checkpoints that follow
// (today decides which statements are closed). One statement whatever the
// cards, ListCycleCards, and SaveCardCheckpoints when a checkpoint moved.
func unpaidCardStatements(ctx context.Context, q *db.Queries, memberID int64, today time.Time) ([]card, error) {
	return readCards(ctx, q, memberID, reading{checkpoints: true, today: today})
}

// reading says what readCards reads.
type reading struct {
	walletID *int64
	items    bool
	// checkpoints: start after each card's checkpoint where it holds, and
	// record the ones that follow; fresh: start from the history's start
	// all the same (a checkpoint turned out stale).
	checkpoints, fresh bool
	today              time.Time
}

func readCards(ctx context.Context, q *db.Queries, memberID int64, r reading) ([]card, error) {
	return queueCards(ctx, q, memberID, r).cards(ctx, q)
}

// cardsRead is a read of the member's cycle cards made and not answered
// yet: with a database.Pipeline under q, ListCycleCards goes out with the
// queries made beside it, in one round trip.
type cardsRead struct {
	memberID int64
	r        reading
	rows     *db.ListCycleCardsBatchResults
}

func queueCards(ctx context.Context, q *db.Queries, memberID int64, r reading) *cardsRead {
	rows := q.ListCycleCards(ctx, []db.ListCycleCardsParams{{MemberID: memberID, UseCheckpoints: r.checkpoints && !r.fresh, WalletID: r.walletID}})
	return &cardsRead{memberID: memberID, r: r, rows: rows}
}

// cards reads the answer, computes each card's statements and records the
// checkpoints that moved (when reading from them), through q.
func (cr *cardsRead) cards(ctx context.Context, q *db.Queries) ([]card, error) {
	memberID, r := cr.memberID, cr.r
	rows, err := database.Rows(cr.rows.Query)
	if err != nil {
		return nil, fmt.Errorf("cycle cards of member %d: %w", memberID, err)
	}
	out := make([]card, 0, len(rows))
	save := db.SaveCardCheckpointsParams{
		MemberID: memberID, WalletIds: []int64{}, ClosingDates: []time.Time{}, Consumed: []int64{},
		CarryClosings: []string{}, CarryAmounts: []string{}, Schedules: []string{},
	}
	for _, row := range rows {
		sc, err := parseSchedule(row.Schedule)
		if err != nil {
			return nil, fmt.Errorf("cycle of card %d: %w", row.ID, err)
		}
		var from Checkpoint
		if row.CheckpointUsed {
			if len(row.CheckpointCarryClosings) != len(row.CheckpointCarryAmounts) {
				return nil, fmt.Errorf("checkpoint of card %d: %d carried closings, %d amounts", row.ID, len(row.CheckpointCarryClosings), len(row.CheckpointCarryAmounts))
			}
			from = Checkpoint{Closing: row.CheckpointClosing, Consumed: row.CheckpointConsumed}
			for i, closing := range row.CheckpointCarryClosings {
				from.Carry = append(from.Carry, Carried{Closing: closing, Amount: row.CheckpointCarryAmounts[i]})
			}
		}
		charges, payments, err := entriesOf(row)
		if err != nil {
			return nil, err
		}
		statements, next, err := sc.StatementsAfter(from, charges, payments, r.items, r.today)
		if errors.Is(err, errCheckpointStale) && !r.fresh {
			// A payment after the checkpoint went between the feed's read
			// and the entries' read: start again from the history's start.
			r.fresh = true
			return readCards(ctx, q, memberID, r)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, card{walletID: row.ID, paymentWalletID: row.PaymentWalletID, schedule: sc, statements: statements, from: from})
		current := row.CheckpointUsed && row.CheckpointCurrent
		if r.checkpoints && (!current || !next.Closing.Equal(from.Closing) || next.Consumed != from.Consumed) {
			save.WalletIds = append(save.WalletIds, row.ID)
			save.ClosingDates = append(save.ClosingDates, next.Closing)
			save.Consumed = append(save.Consumed, next.Consumed)
			closings, amounts := carryLiterals(next.Carry)
			save.CarryClosings = append(save.CarryClosings, closings)
			save.CarryAmounts = append(save.CarryAmounts, amounts)
			save.Schedules = append(save.Schedules, row.Schedule)
			save.Seq, save.Snapshot, save.Epoch = row.SeqNow, row.SnapshotNow, row.Epoch
		}
	}
	// Sent only with something to record: checkpoints that hold at the
	// feed's position are read and not written again.
	if len(save.WalletIds) > 0 {
		if err := q.SaveCardCheckpoints(ctx, save); err != nil {
			return nil, fmt.Errorf("card checkpoints of member %d: %w", memberID, err)
		}
	}
	return out, nil
}

// entriesOf are a card's charges and payments as ListCycleCards answers its
// entries (arrays of one length, element i of each the same entry, in no
// order), in date and id order.
func entriesOf(row db.ListCycleCardsRow) ([]Charge, []Payment, error) {
	n := len(row.EntryIds)
	if len(row.EntryDates) != n || len(row.EntryIncomes) != n || len(row.EntryAmounts) != n ||
		len(row.EntryMonths) != n || len(row.EntryAwaiting) != n || len(row.EntryTransfers) != n {
		return nil, nil, fmt.Errorf("entries of card %d: arrays of unequal lengths", row.ID)
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool {
		i, j := order[a], order[b]
		if !row.EntryDates[i].Equal(row.EntryDates[j]) {
			return row.EntryDates[i].Before(row.EntryDates[j])
		}
		return row.EntryIds[i] < row.EntryIds[j]
	})
	var charges []Charge
	var payments []Payment
	for _, i := range order {
		id, date, amount := row.EntryIds[i], row.EntryDates[i], row.EntryAmounts[i]
		switch {
		case row.EntryTransfers[i] && row.EntryIncomes[i]:
			payments = append(payments, Payment{Date: date, Amount: amount})
		case row.EntryIncomes[i]:
			charges = append(charges, Charge{EntryID: id, Date: date, Amount: -amount, AwaitingRate: row.EntryAwaiting[i]})
		default:
			charges = append(charges, Charge{EntryID: id, Date: date, Amount: amount, Months: int(row.EntryMonths[i]), AwaitingRate: row.EntryAwaiting[i]})
		}
	}
	return charges, payments, nil
}

// carryLiterals are a carry's closing days and amounts as array literals.
func carryLiterals(carry []Carried) (closings, amounts string) {
	c, a := make([]string, len(carry)), make([]string, len(carry))
	for i, x := range carry {
		c[i], a[i] = x.Closing.Format(time.DateOnly), strconv.FormatInt(x.Amount, 10)
	}
	return "{" + strings.Join(c, ",") + "}", "{" + strings.Join(a, ",") + "}"
}

// parseSchedule reads ListCycleCards' schedule: "statementDay/paymentDay",
// then ",until statementDay/paymentDay" for each past cycle, oldest first.
func parseSchedule(s string) (Schedule, error) {
	parts := strings.Split(s, ",")
	var sc Schedule
	if _, err := fmt.Sscanf(parts[0], "%d/%d", &sc.Current.StatementDay, &sc.Current.PaymentDay); err != nil {
		return Schedule{}, fmt.Errorf("%q: %w", s, err)
	}
	for _, part := range parts[1:] {
		var until string
		var seg Segment
		if _, err := fmt.Sscanf(part, "%s %d/%d", &until, &seg.Cycle.StatementDay, &seg.Cycle.PaymentDay); err != nil {
			return Schedule{}, fmt.Errorf("%q: %w", s, err)
		}
		t, err := time.Parse(time.DateOnly, until)
		if err != nil {
			return Schedule{}, fmt.Errorf("%q: %w", s, err)
		}
		seg.Until = t
		sc.Past = append(sc.Past, seg)
	}
	return sc, nil
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
