package cards

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/jobs"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
	"github.com/nestegg/nestegg/internal/transfer"
)

// BillPaymentJobName is the payment-day job in the runner.
const BillPaymentJobName = "card-bill-payment"

const (
	// BillCatchUpDays bounds the catch-up after an outage: a statement
	// whose due day passed more than this many days ago is not proposed
	// any more (the member has long paid it by hand, or will).
	BillCatchUpDays = 31
	// billBatch is how many members one query reads.
	billBatch = 200
	// billBudget bounds one run; what is left waits for the next tick.
	billBudget = 2 * time.Minute
)

// BillPaymentJob is the hourly job that proposes card bill payments: on a
// cycle card's payment day, each closed statement that is due and not paid
// becomes a pending transfer of what it still owes, from the card's paying
// wallet to the card, dated the due day, for the member to confirm
// (ConfirmTransfer) or delete. The runner holds the job's advisory lock, so
// one replica runs it; card_bill_payment's key makes each statement
// proposed once even without it.
func BillPaymentJob(pool *pgxpool.Pool, loc *time.Location) jobs.Job {
	return jobs.Job{
		Name:  BillPaymentJobName,
		Every: time.Hour,
		Run: func(ctx context.Context, now time.Time) error {
			ctx, cancel := context.WithTimeout(ctx, billBudget)
			defer cancel()
			res, err := ProposeBills(ctx, pool, now, loc)
			if res.Proposed > 0 || res.Failed > 0 {
				slog.InfoContext(ctx, "card bills proposed", "bills", res.Proposed, "failed", res.Failed)
			}
			if err == nil && ctx.Err() != nil {
				err = fmt.Errorf("card bills still due at the end of the run's budget: %w", ctx.Err())
			}
			return err
		},
	}
}

// ProposeResult is what one run of the payment-day job did.
type ProposeResult struct {
	// Proposed is how many pending bill payments it made.
	Proposed int
	// Failed is how many members' cards failed (each logged); they are
	// tried again on the next run.
	Failed int
}

// ProposeBills proposes every bill due by now (its due day in loc has
// come, within BillCatchUpDays) of every member with a cycle card, each
// member in a transaction of their own. The error is the member list's.
func ProposeBills(ctx context.Context, pool *pgxpool.Pool, now time.Time, loc *time.Location) (ProposeResult, error) {
	today := calendar.Day(now, loc)
	var res ProposeResult
	var after int64
	for ctx.Err() == nil {
		members, err := db.New(pool).ListCycleCardMembers(ctx, db.ListCycleCardMembersParams{After: after, Lim: billBatch})
		if err != nil {
			return res, fmt.Errorf("members with cycle cards: %w", err)
		}
		for _, m := range members {
			if ctx.Err() != nil {
				break
			}
			n, err := database.InTxV(ctx, pool, func(q *db.Queries) (int, error) { return proposeTx(ctx, q, m, today) })
			if err != nil {
				res.Failed++
				slog.WarnContext(ctx, "card bills not proposed", "member_id", m, "error", err)
				continue
			}
			res.Proposed += n
		}
		if len(members) < billBatch {
			break
		}
		after = members[len(members)-1]
	}
	return res, nil
}

// proposeTx proposes the member's due bills. Locks: the member's ledger
// lock, shared, as every ledger write takes it; then the claim (its
// foreign keys key-share the card), then the transfer's rows.
func proposeTx(ctx context.Context, q *db.Queries, memberID int64, today time.Time) (int, error) {
	if err := ledger.LockLedgerSharedTx(ctx, q, memberID); err != nil {
		return 0, err
	}
	// The statements up to each card's checkpoint are paid: none is due.
	cards, err := unpaidCardStatements(ctx, q, memberID, today)
	if err != nil {
		return 0, err
	}
	oldest := today.AddDate(0, 0, -BillCatchUpDays)
	proposed := 0
	for _, c := range cards {
		for _, s := range c.statements {
			if s.Due.After(today) || s.Due.Before(oldest) || s.Paid || s.Owed <= 0 || s.awaiting {
				continue
			}
			n, err := q.ClaimCardBill(ctx, db.ClaimCardBillParams{MemberID: memberID, WalletID: c.walletID, ClosingDate: s.Closing})
			if err != nil {
				return 0, fmt.Errorf("claim the bill of card %d closing %s: %w", c.walletID, s.Closing.Format(time.DateOnly), err)
			}
			if n == 0 {
				continue
			}
			memo := "Card bill, statement closing " + s.Closing.Format(time.DateOnly)
			// A transfer holds what the API lets one hold (so the member can
			// save it unchanged and restore their backup); a bill past it is
			// proposed up to it, the rest paid by hand.
			amount := min(s.Owed, ledger.MaxAmount)
			t, err := transfer.CreateTx(ctx, q, memberID, transfer.Input{
				From:    ledger.EntryInput{Date: s.Due, Type: ledger.TypeExpense, Amount: amount, WalletID: &c.paymentWalletID, Memo: memo},
				To:      ledger.EntryInput{Date: s.Due, Type: ledger.TypeIncome, Amount: amount, WalletID: &c.walletID, Memo: memo},
				Pending: true,
			})
			if err != nil {
				return 0, fmt.Errorf("bill payment of card %d: %w", c.walletID, err)
			}
			if err := q.SetCardBillTransfer(ctx, db.SetCardBillTransferParams{
				MemberID: memberID, WalletID: c.walletID, ClosingDate: s.Closing, TransferID: t.ID,
			}); err != nil {
				return 0, fmt.Errorf("record the bill payment of card %d: %w", c.walletID, err)
			}
			proposed++
		}
	}
	return proposed, nil
}

// ConfirmTransfer confirms a pending transfer: a bill payment the
// payment-day job proposed. A statement is never paid twice: when
// confirmed payments into the card already cover the statement it was
// proposed for, the answer is 409 and it stays pending.
func (h *CardsHandler) ConfirmTransfer(ctx context.Context, req api.ConfirmTransferRequestObject) (api.ConfirmTransferResponseObject, error) {
	memberID := session.PrincipalFrom(ctx).MemberID
	t, err := database.InTxV(ctx, h.pool, func(q *db.Queries) (transfer.Transfer, error) {
		if err := ledger.LockLedgerSharedTx(ctx, q, memberID); err != nil {
			return transfer.Transfer{}, err
		}
		return transfer.ConfirmTx(ctx, q, memberID, req.ID, func(t transfer.Transfer) error {
			return checkBillUnpaid(ctx, q, memberID, t.ID)
		})
	})
	if err != nil {
		return nil, err
	}
	out, err := transfer.ToAPI(ctx, t)
	if err != nil {
		return nil, err
	}
	return api.ConfirmTransfer200JSONResponse(out), nil
}

// checkBillUnpaid refuses the confirmation of a bill payment whose
// statement is paid already. It locks the card first (database.LockOrder:
// the transfer, then wallets), so a payment into the card written
// meanwhile is committed, and counted, before the statement is read.
func checkBillUnpaid(ctx context.Context, q *db.Queries, memberID, transferID int64) error {
	bill, err := q.GetCardBillOfTransfer(ctx, db.GetCardBillOfTransferParams{MemberID: memberID, TransferID: transferID})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil // not a proposed bill: nothing to pay twice
	}
	if err != nil {
		return fmt.Errorf("bill of transfer %d: %w", transferID, err)
	}
	if _, err := q.LockCardForBill(ctx, db.LockCardForBillParams{MemberID: memberID, ID: bill.WalletID}); err != nil {
		return fmt.Errorf("lock card %d: %w", bill.WalletID, err)
	}
	cards, err := cardStatements(ctx, q, memberID, &bill.WalletID, false)
	if err != nil || len(cards) == 0 {
		return err // the card lost its cycle: no statement to pay twice
	}
	for _, s := range cards[0].statements {
		if s.Closing.Equal(bill.ClosingDate) && s.Paid {
			return problem.Conflict(problem.CodeConflict, fmt.Sprintf(
				"the statement of card %d closing %s is paid already: delete this proposed payment (DELETE /api/account/transfers/%d)",
				bill.WalletID, bill.ClosingDate.Format(time.DateOnly), transferID))
		}
	}
	return nil
}
