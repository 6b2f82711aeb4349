package forecast

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/oapi-codegen/runtime/types"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/cards"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/money"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// ForecastHandler implements the forecast and budget pace operations.
type ForecastHandler struct {
	pool  *pgxpool.Pool
	clock clock.Clock
	loc   *time.Location
}

// NewHandler returns the forecast handler; loc is the service time zone,
// which decides what today is.
func NewHandler(pool *pgxpool.Pool, c clock.Clock, loc *time.Location) *ForecastHandler {
	return &ForecastHandler{pool: pool, clock: c, loc: loc}
}

// GetForecast answers the cash-flow forecast of the days ahead.
func (h *ForecastHandler) GetForecast(ctx context.Context, req api.GetForecastRequestObject) (api.GetForecastResponseObject, error) {
	days := DefaultDays
	if req.Params.Days != nil {
		days = int(*req.Params.Days)
	}
	if days < 1 || days > MaxDays {
		return nil, problem.Invalid("days", fmt.Sprintf("must be 1 to %d", MaxDays))
	}
	p := session.PrincipalFrom(ctx)
	today := calendar.Day(h.clock.Now(), h.loc)
	f, err := memberForecast(ctx, h.pool, p.MemberID, p.MonthStartDay, today, days)
	if err != nil {
		return nil, err
	}
	return api.GetForecast200JSONResponse(toAPIForecast(f)), nil
}

// memberForecast reads what the member's forecast is projected from and
// projects it: six queries whatever the wallets, cards and recurring
// entries, sent together through a database.Pipeline (one round trip,
// one implicit transaction), and SaveCardCheckpoints after them when a
// card's checkpoint moved (internal/cards). No explicit transaction: the
// reads need none, and the checkpoints are stamped with the feed position
// read in the same statement as the entries they are computed from.
func memberForecast(ctx context.Context, dbtx db.DBTX, memberID int64, startDay int, today time.Time, days int) (Forecast, error) {
	pipe := database.NewPipeline(dbtx)
	defer pipe.Close()
	q := db.New(pipe)
	last := today.AddDate(0, 0, days-1)
	walletsQ := q.ForecastWallets(ctx, []int64{memberID})
	recurringsQ := q.ForecastRecurrings(ctx, []int64{memberID})
	pendingQ := q.ForecastPendingEntries(ctx, []db.ForecastPendingEntriesParams{{MemberID: memberID, LastDay: last}})
	incomesQ := q.ForecastIncomes(ctx, []db.ForecastIncomesParams{{MemberID: memberID, LastKey: int32(key(last.Year(), last.Month()))}})
	onetimeQ := q.ForecastOnetimeBudgets(ctx, []db.ForecastOnetimeBudgetsParams{{MemberID: memberID, Today: today, LastDay: last}})
	// Last: reading it may record checkpoints, which ends the batch.
	cardsQ := cards.QueueMemberCardStatements(ctx, q, memberID, today)

	rows, err := database.Rows(walletsQ.Query)
	if err != nil {
		return Forecast{}, money.FromSQL(fmt.Errorf("wallets of member %d: %w", memberID, err))
	}
	recRows, err := database.Rows(recurringsQ.Query)
	if err != nil {
		return Forecast{}, fmt.Errorf("recurring entries of member %d: %w", memberID, err)
	}
	pendRows, err := database.Rows(pendingQ.Query)
	if err != nil {
		return Forecast{}, fmt.Errorf("pending entries of member %d: %w", memberID, err)
	}
	incRows, err := database.Rows(incomesQ.Query)
	if err != nil {
		return Forecast{}, fmt.Errorf("expected incomes of member %d: %w", memberID, err)
	}
	otRows, err := database.Rows(onetimeQ.Query)
	if err != nil {
		return Forecast{}, money.FromSQL(fmt.Errorf("one-time budgets of member %d: %w", memberID, err))
	}
	statements, err := cardsQ.Statements(ctx, q)
	if err != nil {
		return Forecast{}, err
	}

	wallets := make([]Wallet, len(rows))
	payFrom := map[int64]int64{}
	cycleCards := map[int64]bool{}
	var moves []Movement
	for i, w := range rows {
		balance, ok := money.FromDecimal(w.Balance)
		if !ok {
			return Forecast{}, outOfRange(fmt.Sprintf("the balance of wallet %d", w.ID))
		}
		wallets[i] = Wallet{ID: w.ID, Held: w.Type != "CARD" && w.Type != "LOAN", Balance: balance}
		if w.PaymentWalletID != nil {
			payFrom[w.ID] = *w.PaymentWalletID
			cycleCards[w.ID] = true
		}
		if w.LoanAmount != nil && w.LoanMethod != nil && w.LoanMonths != nil && w.LoanStart.Valid && w.LoanRate.Valid {
			l := ledger.Loan{Amount: *w.LoanAmount, Rate: w.LoanRate.Decimal, Method: *w.LoanMethod, Months: int(*w.LoanMonths), Start: w.LoanStart.Time}
			if w.LoanPayment != nil {
				l.Payment = *w.LoanPayment
			}
			schedule, err := ledger.Schedule(l)
			if err != nil {
				return Forecast{}, outOfRange(fmt.Sprintf("the loan schedule of wallet %d", w.ID))
			}
			ins := make([]Instalment, len(schedule))
			for k, s := range schedule {
				ins[k] = Instalment{Date: s.Date, Payment: s.Payment}
			}
			moves = append(moves, LoanMoves(today, last, w.ID, ins)...)
		}
	}

	moves = append(moves, RecurringMoves(today, last, recurrings(recRows))...)

	pending := make([]Pending, len(pendRows))
	for i, r := range pendRows {
		pending[i] = Pending{ID: r.ID, WalletID: r.WalletID, Income: r.Type == "income", Amount: r.Amount, Date: r.EntryDate, Transfer: r.IsTransfer}
	}
	pendMoves, paying := PendingMoves(pending, cycleCards)
	moves = append(moves, pendMoves...)

	moves = append(moves, CardBillMoves(last, statements, payFrom, paying)...)

	incomes := make([]Income, len(incRows))
	for i, r := range incRows {
		incomes[i] = Income{Year: int(r.Year), Month: time.Month(r.Month), Amount: r.Amount}
	}
	moves = append(moves, IncomeMoves(today, last, startDay, incomes)...)

	onetime := make([]Onetime, 0, len(otRows))
	for _, r := range otRows {
		spent, ok := money.FromDecimal(r.Spent)
		if !ok {
			return Forecast{}, outOfRange(fmt.Sprintf("the spending of one-time budget %d", r.ID))
		}
		onetime = append(onetime, Onetime{ID: r.ID, Amount: r.Amount, Start: r.StartDate, End: r.EndDate, Spent: spent})
	}
	moves = append(moves, OnetimeMoves(today, last, onetime)...)

	return Project(today, days, wallets, moves)
}

func recurrings(rows []db.ForecastRecurringsRow) []Recurring {
	out := make([]Recurring, len(rows))
	for i, r := range rows {
		out[i] = Recurring{
			ID: r.ID, Income: r.Type == "income", Amount: r.Amount, WalletID: r.WalletID,
			CategoryID: r.CategoryID, ParentID: r.ParentID, Day: int(r.Day), AutoPost: r.AutoPost, NextMonth: r.NextMonth,
		}
	}
	return out
}

func toAPIForecast(f Forecast) api.Forecast {
	out := api.Forecast{
		From: types.Date{Time: f.From}, To: types.Date{Time: f.To},
		Days:      make([]api.ForecastDay, len(f.Days)),
		Lowest:    api.ForecastPoint{Date: types.Date{Time: f.Lowest.Date}, Balance: f.Lowest.Balance},
		BelowZero: make([]api.ForecastBelowZero, len(f.BelowZero)),
	}
	for i, d := range f.Days {
		day := api.ForecastDay{Date: types.Date{Time: d.Date}, Balance: d.Balance, Movements: make([]api.ForecastMovement, len(d.Movements))}
		for j, m := range d.Movements {
			day.Movements[j] = api.ForecastMovement{
				Date: types.Date{Time: m.Date}, WalletID: m.WalletID, Amount: m.Amount,
				Source: api.ForecastSource(m.Source), SourceID: m.SourceID,
			}
		}
		out.Days[i] = day
	}
	for i, b := range f.BelowZero {
		out.BelowZero[i] = api.ForecastBelowZero{WalletID: b.WalletID, Date: types.Date{Time: b.Date}, Balance: b.Balance}
	}
	return out
}

// GetBudgetPace answers each budget's pace through a ledger month.
func (h *ForecastHandler) GetBudgetPace(ctx context.Context, req api.GetBudgetPaceRequestObject) (api.GetBudgetPaceResponseObject, error) {
	if req.Params.Year < 1900 || req.Params.Year > 9999 {
		return nil, problem.Invalid("year", "must be 1900 to 9999")
	}
	if req.Params.Month < 1 || req.Params.Month > 12 {
		return nil, problem.Invalid("month", "must be 1 to 12")
	}
	p := session.PrincipalFrom(ctx)
	m := calendar.NewMonth(int(req.Params.Year), time.Month(req.Params.Month), p.MonthStartDay)
	today := calendar.Day(h.clock.Now(), h.loc)
	items, err := memberPace(ctx, h.pool, p.MemberID, m, today)
	if err != nil {
		return nil, err
	}
	out := api.GetBudgetPace200JSONResponse{Items: make([]api.BudgetPaceItem, len(items))}
	for i, it := range items {
		out.Items[i] = api.BudgetPaceItem{CategoryID: it.CategoryID, Budget: it.Budget, Spent: it.Spent, Projected: it.Projected}
		if it.OverOn != nil {
			out.Items[i].OverOn = &types.Date{Time: *it.OverOn}
		}
	}
	return out, nil
}

// memberPace reads a month's budgets with their spending and the recurring
// entries (two queries sent together through a database.Pipeline: one
// round trip) and answers each budget's pace.
func memberPace(ctx context.Context, dbtx db.DBTX, memberID int64, m calendar.Month, today time.Time) ([]PaceItem, error) {
	pipe := database.NewPipeline(dbtx)
	defer pipe.Close()
	q := db.New(pipe)
	budgetsQ := q.PaceBudgets(ctx, []db.PaceBudgetsParams{{
		MemberID: memberID, FromDate: m.From(), ToDate: m.To(), Year: int32(m.Year()), Month: int32(m.Month()),
	}})
	recurringsQ := q.ForecastRecurrings(ctx, []int64{memberID})
	rows, err := database.Rows(budgetsQ.Query)
	if err != nil {
		return nil, money.FromSQL(fmt.Errorf("budgets of member %d: %w", memberID, err))
	}
	recRows, err := database.Rows(recurringsQ.Query)
	if err != nil {
		return nil, fmt.Errorf("recurring entries of member %d: %w", memberID, err)
	}
	var budgets []PaceBudget
	for _, r := range rows {
		if len(budgets) == 0 || budgets[len(budgets)-1].CategoryID != r.CategoryID {
			budgets = append(budgets, PaceBudget{CategoryID: r.CategoryID, Budget: r.Budget})
		}
		spent, ok := money.FromDecimal(r.Spent)
		if !ok {
			return nil, outOfRange(fmt.Sprintf("the spending of category %d", r.CategoryID))
		}
		b := &budgets[len(budgets)-1]
		if spent != 0 {
			b.Daily = append(b.Daily, DaySpent{Date: r.Day, Amount: spent})
		}
	}
	return Pace(m, today, budgets, recurrings(recRows))
}
