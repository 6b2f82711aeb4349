package budget

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/idempotency"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/money"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/text"
)

// ErrOnetimeNotFound answers a one-time budget that is not the member's.
var ErrOnetimeNotFound = problem.NotFound("one-time budget")

// maxOnetimeDays bounds a one-time budget's period.
const maxOnetimeDays = 366

// onetimeInput is a checked one-time budget request.
type onetimeInput struct {
	Name       string
	Amount     int64
	Start, End time.Time
	CategoryID *int64
}

func onetimeInputFrom(in api.OnetimeBudgetRequest) (onetimeInput, error) {
	o := onetimeInput{Name: strings.TrimSpace(in.Name), Amount: in.Amount, Start: in.StartDate.Time, End: in.EndDate.Time, CategoryID: in.CategoryID}
	if n := utf8.RuneCountInString(o.Name); n < 1 || n > 100 {
		return o, problem.Invalid("/name", "must be 1 to 100 characters, not only spaces")
	}
	if err := text.CheckLine("/name", o.Name); err != nil {
		return o, err
	}
	if err := checkAmount("/amount", o.Amount); err != nil {
		return o, err
	}
	if o.End.Before(o.Start) {
		return o, problem.Invalid("/endDate", "must not be before startDate")
	}
	if o.End.Sub(o.Start) >= maxOnetimeDays*24*time.Hour {
		return o, problem.Invalid("/endDate", fmt.Sprintf("a one-time budget spans at most %d days", maxOnetimeDays))
	}
	return o, nil
}

// checkOnetimeCategory answers 404 for a category that is not the member's
// and 400 for an income category.
func checkOnetimeCategory(ctx context.Context, q *db.Queries, memberID int64, id *int64) error {
	if id == nil {
		return nil
	}
	c, err := ledger.GetCategoryTx(ctx, q, db.GetCategoryParams{MemberID: memberID, ID: *id})
	if err := database.NoRows(err, ledger.ErrCategoryNotFound, fmt.Sprintf("category %d", *id)); err != nil {
		return err
	}
	if c.Type != ledger.TypeExpense {
		return problem.Invalid("/categoryId", "must be an expense category")
	}
	return nil
}

func toAPIOnetime(c *money.Checked, r db.ListOnetimeBudgetsRow) api.OnetimeBudget {
	spent := c.Won(r.Spent)
	return api.OnetimeBudget{
		ID: r.ID, Name: r.Name, Amount: r.Amount, StartDate: date(r.StartDate), EndDate: date(r.EndDate),
		CategoryID: r.CategoryID, Spent: spent, Remaining: c.Sub(r.Amount, spent),
	}
}

// onetimeTx reads one one-time budget with what it spent.
func onetimeTx(ctx context.Context, q *db.Queries, memberID, id int64) (api.OnetimeBudget, error) {
	rows, err := q.ListOnetimeBudgets(ctx, db.ListOnetimeBudgetsParams{MemberID: memberID, ID: &id})
	if err != nil {
		return api.OnetimeBudget{}, fmt.Errorf("one-time budget %d: %w", id, err)
	}
	if len(rows) == 0 {
		return api.OnetimeBudget{}, ErrOnetimeNotFound
	}
	var c money.Checked
	out := toAPIOnetime(&c, rows[0])
	return out, c.Err()
}

// ListOnetimeBudgets answers the member's one-time budgets.
func (h *BudgetHandler) ListOnetimeBudgets(ctx context.Context, _ api.ListOnetimeBudgetsRequestObject) (api.ListOnetimeBudgetsResponseObject, error) {
	memberID := memberOf(ctx)
	rows, err := db.New(h.pool).ListOnetimeBudgets(ctx, db.ListOnetimeBudgetsParams{MemberID: memberID})
	if err != nil {
		return nil, fmt.Errorf("one-time budgets of member %d: %w", memberID, err)
	}
	out := api.ListOnetimeBudgets200JSONResponse{Items: make([]api.OnetimeBudget, len(rows))}
	var c money.Checked
	for i, r := range rows {
		out.Items[i] = toAPIOnetime(&c, r)
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// CreateOnetimeBudget creates a one-time budget.
func (h *BudgetHandler) CreateOnetimeBudget(ctx context.Context, req api.CreateOnetimeBudgetRequestObject) (api.CreateOnetimeBudgetResponseObject, error) {
	in, err := onetimeInputFrom(*req.Body)
	if err != nil {
		return nil, err
	}
	memberID := memberOf(ctx)
	out, replayed, err := idempotency.Create(ctx, h.keys, "createOnetimeBudget", req.Params.IdempotencyKey, req, func(q *db.Queries) (etag.Tagged[api.OnetimeBudget], error) {
		if err := ledger.LockLedgerSharedTx(ctx, q, memberID); err != nil {
			return etag.Tagged[api.OnetimeBudget]{}, err
		}
		id, err := createOnetimeTx(ctx, q, memberID, in)
		if err != nil {
			return etag.Tagged[api.OnetimeBudget]{}, err
		}
		return onetimeTaggedTx(ctx, q, memberID, id)
	})
	if err != nil {
		return nil, err
	}
	return api.CreateOnetimeBudget201JSONResponse{Body: out.Body, Headers: api.CreateOnetimeBudget201ResponseHeaders{
		ETag: etag.Ptr(out.ETag), IdempotentReplayed: replayed,
	}}, nil
}

// onetimeTaggedTx is onetimeTx with the record's ETag (its version: no GET
// answers a one-time budget).
func onetimeTaggedTx(ctx context.Context, q *db.Queries, memberID, id int64) (etag.Tagged[api.OnetimeBudget], error) {
	body, err := onetimeTx(ctx, q, memberID, id)
	if err != nil {
		return etag.Tagged[api.OnetimeBudget]{}, err
	}
	v, err := q.OnetimeBudgetVersion(ctx, db.OnetimeBudgetVersionParams{MemberID: memberID, ID: id})
	if err != nil {
		return etag.Tagged[api.OnetimeBudget]{}, fmt.Errorf("version of one-time budget %d: %w", id, err)
	}
	return etag.Versioned(v, body), nil
}

// UpdateOnetimeBudget replaces a one-time budget, at the version If-Match
// names (none: any).
func (h *BudgetHandler) UpdateOnetimeBudget(ctx context.Context, req api.UpdateOnetimeBudgetRequestObject) (api.UpdateOnetimeBudgetResponseObject, error) {
	in, err := onetimeInputFrom(*req.Body)
	if err != nil {
		return nil, err
	}
	memberID := memberOf(ctx)
	match := etag.Parse(req.Params.IfMatch)
	out, err := ledger.WriteTxV(ctx, h.pool, memberID, func(q *db.Queries) (etag.Tagged[api.OnetimeBudget], error) {
		if err := checkOnetimeCategory(ctx, q, memberID, in.CategoryID); err != nil {
			return etag.Tagged[api.OnetimeBudget]{}, err
		}
		n, err := q.UpdateOnetimeBudget(ctx, db.UpdateOnetimeBudgetParams{
			MemberID: memberID, ID: req.ID, Name: in.Name, Amount: in.Amount, StartDate: in.Start, EndDate: in.End, CategoryID: in.CategoryID,
			IfVersions: match.Versions(),
		})
		switch {
		case database.IsForeignKeyViolation(err):
			return etag.Tagged[api.OnetimeBudget]{}, ledger.ErrCategoryNotFound
		case err != nil:
			return etag.Tagged[api.OnetimeBudget]{}, fmt.Errorf("update one-time budget %d: %w", req.ID, err)
		case n == 0:
			return etag.Tagged[api.OnetimeBudget]{}, errMissed
		}
		return onetimeTaggedTx(ctx, q, memberID, req.ID)
	})
	if errors.Is(err, errMissed) {
		return nil, etag.Missed(match, ErrOnetimeNotFound, func() (string, bool, error) { return h.currentOnetimeTag(ctx, memberID, req.ID) })
	}
	if err != nil {
		return nil, err
	}
	return api.UpdateOnetimeBudget200JSONResponse{Body: out.Body, Headers: api.UpdateOnetimeBudget200ResponseHeaders{ETag: etag.Ptr(out.ETag)}}, nil
}

// DeleteOnetimeBudget deletes a one-time budget, at the version If-Match
// names (none: any).
func (h *BudgetHandler) DeleteOnetimeBudget(ctx context.Context, req api.DeleteOnetimeBudgetRequestObject) (api.DeleteOnetimeBudgetResponseObject, error) {
	memberID := memberOf(ctx)
	match := etag.Parse(req.Params.IfMatch)
	n, err := ledger.WriteTxV(ctx, h.pool, memberID, func(q *db.Queries) (int64, error) {
		return q.DeleteOnetimeBudget(ctx, db.DeleteOnetimeBudgetParams{MemberID: memberID, ID: req.ID, IfVersions: match.Versions()})
	})
	if err != nil {
		return nil, fmt.Errorf("delete one-time budget %d: %w", req.ID, err)
	}
	if n == 0 {
		return nil, etag.Missed(match, ErrOnetimeNotFound, func() (string, bool, error) { return h.currentOnetimeTag(ctx, memberID, req.ID) })
	}
	return api.DeleteOnetimeBudget204Response{}, nil
}

// currentOnetimeTag is a one-time budget's ETag now, for a 412.
func (h *BudgetHandler) currentOnetimeTag(ctx context.Context, memberID, id int64) (string, bool, error) {
	return h.currentTag(func(q *db.Queries) (int64, error) {
		return q.OnetimeBudgetVersion(ctx, db.OnetimeBudgetVersionParams{MemberID: memberID, ID: id})
	})
}
