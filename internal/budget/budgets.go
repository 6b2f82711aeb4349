// Package budget holds monthly budgets (with their status, period chart and
// copy), the expected monthly income, statistics and the month-complete
// bonus. Months are the member's ledger months (payday months,
// calendar.Month); a handler names one with the start day the session read
// (monthOf) and passes it down.
//
// Every statistic counts confirmed entries that are not one side of a
// transfer (transfer_id IS NULL), as every query here says.
package budget

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/idempotency"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

const maxAmount = 1_000_000_000_000_000

// ErrBudgetNotFound answers a budget that is not the member's.
var ErrBudgetNotFound = problem.NotFound("budget")

// BudgetHandler implements the budget and statistics operations.
type BudgetHandler struct {
	pool  *pgxpool.Pool
	clock clock.Clock
	loc   *time.Location

	mu   sync.Mutex
	rand *rand.Rand
	// keys store the answers of creates sent with an Idempotency-Key
	// (UseKeys).
	keys *idempotency.Store
}

// UseKeys sets the store of Idempotency-Keys the creates answer retries
// from.
func (h *BudgetHandler) UseKeys(keys *idempotency.Store) { h.keys = keys }

// NewHandler returns the handler; loc is APP_TIMEZONE.
func NewHandler(pool *pgxpool.Pool, c clock.Clock, loc *time.Location) *BudgetHandler {
	return &BudgetHandler{pool: pool, clock: c, loc: loc, rand: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))}
}

// SetRandSource fixes the randomness of the month-complete bonus (tests).
func (h *BudgetHandler) SetRandSource(src rand.Source) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.rand = rand.New(src)
}

func memberOf(ctx context.Context) int64 { return session.PrincipalFrom(ctx).MemberID }

// monthOf is the requesting member's ledger month named by year and month,
// with the month start day their session read on this request. Handlers call
// it; the functions below them take the month.
func monthOf(ctx context.Context, year, month int32) calendar.Month {
	return calendar.NewMonth(int(year), time.Month(month), session.PrincipalFrom(ctx).MonthStartDay)
}

// Budget is a monthly budget.
type Budget struct {
	ID, CategoryID int64
	Year, Month    int32
	Amount         int64
}

func toAPIBudget(b Budget) api.Budget {
	return api.Budget{ID: b.ID, CategoryID: b.CategoryID, Year: b.Year, Month: b.Month, Amount: b.Amount}
}

func checkAmount(field string, v int64) error {
	if v < 0 || v > maxAmount {
		return problem.Invalid(field, "must be 0 to 10^15 won")
	}
	return nil
}

func checkMonth(yearField, monthField string, year, month int32) error {
	if year < 1900 || year > 9999 {
		return problem.Invalid(yearField, "must be 1900 to 9999")
	}
	if month < 1 || month > 12 {
		return problem.Invalid(monthField, "must be 1 to 12")
	}
	return nil
}

// ListBudgets answers a month's budgets.
func (h *BudgetHandler) ListBudgets(ctx context.Context, req api.ListBudgetsRequestObject) (api.ListBudgetsResponseObject, error) {
	if err := checkMonth("year", "month", req.Params.Year, req.Params.Month); err != nil {
		return nil, err
	}
	rows, err := db.New(h.pool).ListBudgets(ctx, db.ListBudgetsParams{MemberID: memberOf(ctx), Year: req.Params.Year, Month: req.Params.Month})
	if err != nil {
		return nil, fmt.Errorf("list budgets: %w", err)
	}
	out := api.ListBudgets200JSONResponse{Items: make([]api.Budget, len(rows))}
	for i, r := range rows {
		out.Items[i] = toAPIBudget(Budget(r))
	}
	return out, nil
}

// CreateBudget creates a budget, or answers 409 naming the existing one.
func (h *BudgetHandler) CreateBudget(ctx context.Context, req api.CreateBudgetRequestObject) (api.CreateBudgetResponseObject, error) {
	b := req.Body
	if err := checkMonth("/year", "/month", b.Year, b.Month); err != nil {
		return nil, err
	}
	memberID := memberOf(ctx)
	out, replayed, err := idempotency.Create(ctx, h.keys, "createBudget", req.Params.IdempotencyKey, req, func(q *db.Queries) (etag.Tagged[api.Budget], error) {
		if err := ledger.LockLedgerSharedTx(ctx, q, memberID); err != nil {
			return etag.Tagged[api.Budget]{}, err
		}
		created, err := CreateBudgetTx(ctx, q, memberID, Budget{CategoryID: b.CategoryID, Year: b.Year, Month: b.Month, Amount: b.Amount})
		if err != nil {
			return etag.Tagged[api.Budget]{}, err
		}
		v, err := q.BudgetVersion(ctx, db.BudgetVersionParams{MemberID: memberID, ID: created.ID})
		if err != nil {
			return etag.Tagged[api.Budget]{}, fmt.Errorf("version of budget %d: %w", created.ID, err)
		}
		return etag.Versioned(v, toAPIBudget(created)), nil
	})
	if err != nil {
		return nil, err
	}
	return api.CreateBudget201JSONResponse{Body: out.Body, Headers: api.CreateBudget201ResponseHeaders{
		ETag: etag.Ptr(out.ETag), IdempotentReplayed: replayed,
	}}, nil
}

// CreateBudgetTx creates a budget of an expense category of the member. One
// conditional INSERT: parallel creates of the same budget see one winner and
// conflicts, never a unique violation.
func CreateBudgetTx(ctx context.Context, q *db.Queries, memberID int64, b Budget) (Budget, error) {
	if err := checkAmount("/amount", b.Amount); err != nil {
		return Budget{}, err
	}
	c, err := ledger.GetCategoryTx(ctx, q, db.GetCategoryParams{MemberID: memberID, ID: b.CategoryID})
	if err := database.NoRows(err, ledger.ErrCategoryNotFound, fmt.Sprintf("category %d", b.CategoryID)); err != nil {
		return Budget{}, err
	}
	if c.Type != ledger.TypeExpense {
		return Budget{}, problem.Invalid("/categoryId", "must be an expense category")
	}
	row, err := q.CreateBudget(ctx, db.CreateBudgetParams{MemberID: memberID, CategoryID: b.CategoryID, Year: b.Year, Month: b.Month, Amount: b.Amount})
	if err == nil {
		return Budget(row), nil
	}
	if database.IsForeignKeyViolation(err) { // the category was deleted in between
		return Budget{}, ledger.ErrCategoryNotFound
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return Budget{}, fmt.Errorf("create budget: %w", err)
	}
	id, err := q.FindBudget(ctx, db.FindBudgetParams{MemberID: memberID, Year: b.Year, Month: b.Month, CategoryID: b.CategoryID})
	if errors.Is(err, pgx.ErrNoRows) {
		// Deleted again between the two statements: rare enough to report as
		// the conflict it was.
		return Budget{}, problem.Conflict(problem.CodeConflict, "a budget of this category and month exists")
	}
	if err != nil {
		return Budget{}, fmt.Errorf("find the conflicting budget: %w", err)
	}
	conflict := problem.Conflict(problem.CodeConflict, fmt.Sprintf("budget %d already holds this category and month", id))
	conflict.ExistingID = id
	return Budget{}, conflict
}

// UpdateBudget changes a budget's amount, at the version If-Match names
// (none: any).
func (h *BudgetHandler) UpdateBudget(ctx context.Context, req api.UpdateBudgetRequestObject) (api.UpdateBudgetResponseObject, error) {
	if err := checkAmount("/amount", req.Body.Amount); err != nil {
		return nil, err
	}
	memberID := memberOf(ctx)
	match := etag.Parse(req.Params.IfMatch)
	row, err := ledger.WriteTxV(ctx, h.pool, memberID, func(q *db.Queries) (db.UpdateBudgetRow, error) {
		return q.UpdateBudget(ctx, db.UpdateBudgetParams{MemberID: memberID, ID: req.ID, Amount: req.Body.Amount, IfVersions: match.Versions()})
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, etag.Missed(match, ErrBudgetNotFound, func() (string, bool, error) { return h.currentBudgetTag(ctx, memberID, req.ID) })
	}
	if err != nil {
		return nil, fmt.Errorf("update budget %d: %w", req.ID, err)
	}
	out := etag.Versioned(row.Version, toAPIBudget(Budget{ID: row.ID, CategoryID: row.CategoryID, Year: row.Year, Month: row.Month, Amount: row.Amount}))
	return api.UpdateBudget200JSONResponse{Body: out.Body, Headers: api.UpdateBudget200ResponseHeaders{ETag: etag.Ptr(out.ETag)}}, nil
}

// DeleteBudget deletes a budget, at the version If-Match names (none: any).
func (h *BudgetHandler) DeleteBudget(ctx context.Context, req api.DeleteBudgetRequestObject) (api.DeleteBudgetResponseObject, error) {
	memberID := memberOf(ctx)
	match := etag.Parse(req.Params.IfMatch)
	n, err := ledger.WriteTxV(ctx, h.pool, memberID, func(q *db.Queries) (int64, error) {
		return q.DeleteBudget(ctx, db.DeleteBudgetParams{MemberID: memberID, ID: req.ID, IfVersions: match.Versions()})
	})
	if err != nil {
		return nil, fmt.Errorf("delete budget %d: %w", req.ID, err)
	}
	if n == 0 {
		return nil, etag.Missed(match, ErrBudgetNotFound, func() (string, bool, error) { return h.currentBudgetTag(ctx, memberID, req.ID) })
	}
	return api.DeleteBudget204Response{}, nil
}

// currentBudgetTag is a budget's ETag now, for a 412.
func (h *BudgetHandler) currentBudgetTag(ctx context.Context, memberID, id int64) (string, bool, error) {
	return h.currentTag(func(q *db.Queries) (int64, error) {
		return q.BudgetVersion(ctx, db.BudgetVersionParams{MemberID: memberID, ID: id})
	})
}

// CopyBudgets copies every budget of one month into another in one
// statement (in the ledger lock's transaction); same categories are
// overwritten.
func (h *BudgetHandler) CopyBudgets(ctx context.Context, req api.CopyBudgetsRequestObject) (api.CopyBudgetsResponseObject, error) {
	b := req.Body
	if err := checkMonth("/fromYear", "/fromMonth", b.FromYear, b.FromMonth); err != nil {
		return nil, err
	}
	if err := checkMonth("/toYear", "/toMonth", b.ToYear, b.ToMonth); err != nil {
		return nil, err
	}
	if b.FromYear == b.ToYear && b.FromMonth == b.ToMonth {
		return nil, problem.Invalid("/toMonth", "must be another month than the source")
	}
	memberID := memberOf(ctx)
	n, err := ledger.WriteTxV(ctx, h.pool, memberID, func(q *db.Queries) (int64, error) {
		return q.CopyBudgets(ctx, db.CopyBudgetsParams{
			MemberID: memberID, FromYear: b.FromYear, FromMonth: b.FromMonth, ToYear: b.ToYear, ToMonth: b.ToMonth,
		})
	})
	if err != nil {
		return nil, fmt.Errorf("copy budgets: %w", err)
	}
	return api.CopyBudgets200JSONResponse{Copied: n}, nil
}
