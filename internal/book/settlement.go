package book

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/problem"
)

// Sharer is a member who takes a share of the book's expenses.
type Sharer struct {
	ID     int64
	Weight int64
}

// Balance is one member's part of a settlement.
type Balance struct {
	ID                  int64
	Paid, Share, Amount int64 // Amount = Paid - Share
}

// Payment settles part of the balances.
type Payment struct {
	From, To int64
	Amount   int64
}

var errTotal = problem.New(http.StatusUnprocessableEntity, problem.CodeTotalOutOfRange, "the month's expenses are beyond what the service can represent")

// Settle computes a month's settlement (DECISIONS section 10): paid holds
// what each member paid (a former member among them, who takes no share);
// the total is shared among sharers by weight in whole won, the remainder
// one won each to the largest weights, then the lowest member ids. Members
// come back by id. Payments: the largest debtor pays the largest creditor,
// repeated (ties: the lower member id), so every balance ends at 0.
func Settle(paid map[int64]int64, sharers []Sharer) ([]Balance, []Payment, int64, error) {
	total := new(big.Int)
	for _, v := range paid {
		total.Add(total, big.NewInt(v))
	}
	if !total.IsInt64() {
		return nil, nil, 0, errTotal
	}
	byID := map[int64]*Balance{}
	for id, v := range paid {
		byID[id] = &Balance{ID: id, Paid: v}
	}
	var weights int64
	for _, s := range sharers {
		weights += s.Weight
		if byID[s.ID] == nil {
			byID[s.ID] = &Balance{ID: s.ID}
		}
	}
	if weights > 0 {
		var given big.Int
		for _, s := range sharers {
			var share big.Int
			share.Mul(total, big.NewInt(s.Weight))
			share.Div(&share, big.NewInt(weights)) // Euclidean: the floor for a positive divisor
			byID[s.ID].Share = share.Int64()
			given.Add(&given, &share)
		}
		rest := new(big.Int).Sub(total, &given).Int64() // 0 <= rest < len(sharers)
		order := append([]Sharer(nil), sharers...)
		sort.Slice(order, func(i, j int) bool {
			if order[i].Weight != order[j].Weight {
				return order[i].Weight > order[j].Weight
			}
			return order[i].ID < order[j].ID
		})
		for i := int64(0); i < rest; i++ {
			byID[order[i%int64(len(order))].ID].Share++
		}
	}
	out := make([]Balance, 0, len(byID))
	for _, b := range byID {
		d := new(big.Int).Sub(big.NewInt(b.Paid), big.NewInt(b.Share))
		if !d.IsInt64() {
			return nil, nil, 0, errTotal
		}
		b.Amount = d.Int64()
		out = append(out, *b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, payments(out), total.Int64(), nil
}

func payments(balances []Balance) []Payment {
	left := map[int64]int64{}
	for _, b := range balances {
		if b.Amount != 0 {
			left[b.ID] = b.Amount
		}
	}
	var out []Payment
	for {
		var debtor, creditor int64
		var dAmt, cAmt int64
		for id, v := range left {
			if v < 0 && (v < dAmt || (v == dAmt && id < debtor)) {
				debtor, dAmt = id, v
			}
			if v > 0 && (v > cAmt || (v == cAmt && id < creditor)) {
				creditor, cAmt = id, v
			}
		}
		if dAmt == 0 || cAmt == 0 {
			return out
		}
		amt := min(-dAmt, cAmt)
		out = append(out, Payment{From: debtor, To: creditor, Amount: amt})
		left[debtor] += amt
		left[creditor] -= amt
		if left[debtor] == 0 {
			delete(left, debtor)
		}
		if left[creditor] == 0 {
			delete(left, creditor)
		}
	}
}

// SettlementView is a month's settlement of a book with names.
type SettlementView struct {
	Year, Month int
	Total       int64
	Members     []SettlementMember
	Payments    []Payment
	SettledAt   *time.Time
	SettledBy   *int64
}

// SettlementMember is a Balance with the member's name.
type SettlementMember struct {
	Balance
	Name   string
	Former bool
}

// Settlement answers the book's settlement of a ledger month to any member.
func (b *Books) Settlement(ctx context.Context, actor, id int64, year, month int) (SettlementView, error) {
	var v SettlementView
	err := database.InTx(ctx, b.pool, func(q *db.Queries) error {
		if _, err := q.GetBookAccess(ctx, db.GetBookAccessParams{BookID: id, MemberID: actor}); err != nil {
			return database.NoRows(err, ErrNotFound, fmt.Sprintf("book %d", id))
		}
		var err error
		v, err = settlementTx(ctx, q, id, year, month)
		return err
	})
	return v, err
}

// MarkSettled records the month as settled by actor (OWNER), or undoes it.
func (b *Books) MarkSettled(ctx context.Context, actor, id int64, year, month int, settled bool) (SettlementView, error) {
	var v SettlementView
	err := database.InTx(ctx, b.pool, func(q *db.Queries) error {
		if _, _, err := lockAsTx(ctx, q, id, actor, true); err != nil {
			return err
		}
		if settled {
			if _, err := q.MarkBookSettled(ctx, db.MarkBookSettledParams{BookID: id, Year: int32(year), Month: int32(month), SettledAt: b.clock.Now(), SettledBy: actor}); err != nil {
				return fmt.Errorf("settle book %d: %w", id, err)
			}
		} else if _, err := q.UnmarkBookSettled(ctx, db.UnmarkBookSettledParams{BookID: id, Year: int32(year), Month: int32(month)}); err != nil {
			return fmt.Errorf("unsettle book %d: %w", id, err)
		}
		var err error
		v, err = settlementTx(ctx, q, id, year, month)
		return err
	})
	return v, err
}

func settlementTx(ctx context.Context, q *db.Queries, id int64, year, month int) (SettlementView, error) {
	if month < 1 || month > 12 {
		return SettlementView{}, problem.Invalid("month", "must be 1 to 12")
	}
	bk, err := q.GetBook(ctx, id)
	if err := database.NoRows(err, ErrNotFound, fmt.Sprintf("book %d", id)); err != nil {
		return SettlementView{}, err
	}
	m := calendar.NewMonth(year, time.Month(month), int(bk.MonthStartDay))
	sums, err := q.SumBookPaid(ctx, db.SumBookPaidParams{LedgerMemberID: bk.LedgerMemberID, FromDate: m.From(), ToDate: m.To()})
	if err != nil {
		return SettlementView{}, fmt.Errorf("paid in book %d: %w", id, err)
	}
	current, err := q.ListBookMembers(ctx, id)
	if err != nil {
		return SettlementView{}, fmt.Errorf("members of book %d: %w", id, err)
	}
	roster, err := q.ListBookRosterByLedger(ctx, bk.LedgerMemberID)
	if err != nil {
		return SettlementView{}, fmt.Errorf("roster of book %d: %w", id, err)
	}
	names := map[int64]string{}
	for _, r := range roster {
		if !r.LeftBook {
			names[r.MemberID] = r.Name
		}
	}
	var sharers []Sharer
	for _, c := range current {
		if c.Role != RoleViewer {
			sharers = append(sharers, Sharer{ID: c.MemberID, Weight: int64(c.Weight)})
		}
	}
	sum := map[int64]*big.Int{}
	for _, s := range sums {
		who := s.MemberID
		if who == 0 || who == bk.LedgerMemberID {
			// Written by no member (a job, an import, a restore): the
			// book's first OWNER paid it until someone says otherwise.
			who = defaultPayer(current)
		}
		if sum[who] == nil {
			sum[who] = new(big.Int)
		}
		sum[who].Add(sum[who], s.Paid.BigInt())
	}
	paid := map[int64]int64{}
	for who, v := range sum {
		if !v.IsInt64() {
			return SettlementView{}, errTotal
		}
		paid[who] = v.Int64()
	}
	balances, pays, total, err := Settle(paid, sharers)
	if err != nil {
		return SettlementView{}, err
	}
	v := SettlementView{Year: year, Month: month, Total: total, Payments: pays}
	for _, b := range balances {
		name, ok := names[b.ID]
		if !ok {
			name = FormerName
		}
		v.Members = append(v.Members, SettlementMember{Balance: b, Name: name, Former: !ok})
	}
	st, err := q.GetBookSettlement(ctx, db.GetBookSettlementParams{BookID: id, Year: int32(year), Month: int32(month)})
	switch {
	case errors.Is(err, pgx.ErrNoRows):
	case err != nil:
		return SettlementView{}, fmt.Errorf("settled month of book %d: %w", id, err)
	default:
		v.SettledAt, v.SettledBy = &st.SettledAt, &st.SettledBy
	}
	return v, nil
}

// defaultPayer is who the book's unattributed records count for: the
// longest-standing current OWNER (the list is longest-standing first).
func defaultPayer(current []db.ListBookMembersRow) int64 {
	for _, c := range current {
		if c.Role == RoleOwner {
			return c.MemberID
		}
	}
	return 0
}
