package ledger

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/oapi-codegen/runtime/types"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/problem"
)

// ErrRecurringNotFound answers a recurring entry that is not the member's.
var ErrRecurringNotFound = problem.NotFound("recurring entry")

// RecurringInput is a checked recurring entry.
type RecurringInput struct {
	Name, Type, Memo     string
	Amount               int64
	WalletID, CategoryID *int64
	Day                  int32
	// AutoPost nil: on when created, unchanged when updated.
	AutoPost *bool
}

// RecurringInputFrom checks a recurring entry request.
func RecurringInputFrom(in api.RecurringRequest) (RecurringInput, error) {
	r := RecurringInput{Amount: in.Amount, WalletID: in.WalletID, CategoryID: in.CategoryID, Day: in.Day, AutoPost: in.AutoPost}
	var err error
	if r.Name, err = cleanName("/name", in.Name, 50); err != nil {
		return r, err
	}
	if r.Type, err = cleanType("/type", string(in.Type)); err != nil {
		return r, err
	}
	if r.Memo, err = cleanMemo("/memo", in.Memo); err != nil {
		return r, err
	}
	if r.Amount < 0 || r.Amount > maxAmount {
		return r, problem.Invalid("/amount", "must be 0 to 10^15 won")
	}
	if r.Day < 1 || r.Day > 31 {
		return r, problem.Invalid("/day", "must be 1 to 31")
	}
	return r, nil
}

// checkTemplateRefs checks the wallet and category a recurring or quick
// entry names: the member's own (404 otherwise), a category of its type.
func checkTemplateRefs(ctx context.Context, q *db.Queries, memberID int64, typ string, walletID, categoryID *int64) error {
	if _, err := ownWallet(ctx, q, memberID, walletID); err != nil {
		return err
	}
	c, err := ownCategory(ctx, q, memberID, categoryID)
	if err != nil {
		return err
	}
	if c != nil && c.Type != typ {
		return problem.Invalid("/categoryId", "must be a category of the same type")
	}
	return nil
}

// nextOccurrence is the first date on or after today's date (in today's
// location) that falls on day of month day; a month shorter than day uses its
// last day, so day 31 falls on 30 November and on 28 or 29 February. The
// result is a date at midnight UTC, as the API's dates are.
func nextOccurrence(today time.Time, day int) time.Time {
	y, m, d := today.Date()
	if next := dayOfMonth(y, m, day); next.Day() >= d {
		return next
	}
	return dayOfMonth(y, m+1, day)
}

// dayOfMonth is day day of the month, or the month's last day when it is
// shorter; a month past 12 runs into the next year (loan instalments and
// recurring entries share the rule).
func dayOfMonth(year int, month time.Month, day int) time.Time {
	first := calendar.Date(year, month, 1)
	last := first.AddDate(0, 1, -1).Day()
	return calendar.Date(first.Year(), first.Month(), min(day, last))
}

// monthOf is the first day of date's month.
func monthOf(date time.Time) time.Time { return calendar.Date(date.Year(), date.Month(), 1) }

// firstMonth is the month of day's first occurrence on or after today (in
// today's location): where a new recurring entry starts posting, and where
// one whose auto-posting is turned on again resumes.
func firstMonth(today time.Time, day int) time.Time { return monthOf(nextOccurrence(today, day)) }

// nextDate is the next date on or after today on which r falls and that is
// still to post: a month whose occurrence has posted (before next_month) is
// passed over.
func nextDate(r db.Recurring, today time.Time) time.Time {
	next := nextOccurrence(today, int(r.Day))
	if unposted := dayOfMonth(r.NextMonth.Year(), r.NextMonth.Month(), int(r.Day)); unposted.After(next) {
		return unposted
	}
	return next
}

// today is the current date in the service time zone.
func (h *LedgerHandler) today() time.Time { return h.clock.Now().In(h.loc) }

func toAPIRecurring(r db.Recurring, today time.Time) api.Recurring {
	out := api.Recurring{
		ID: r.ID, Name: r.Name, Type: api.EntryTypeValue(r.Type), Amount: r.Amount, WalletID: r.WalletID, CategoryID: r.CategoryID, Day: r.Day, Memo: r.Memo,
		NextDate: types.Date{Time: nextDate(r, today)}, AutoPost: r.AutoPost,
	}
	if r.LastPostedOn.Valid {
		out.LastPostedOn = &types.Date{Time: r.LastPostedOn.Time}
	}
	return out
}

// ListRecurrings answers the member's recurring entries by day.
func (h *LedgerHandler) ListRecurrings(ctx context.Context, _ api.ListRecurringsRequestObject) (api.ListRecurringsResponseObject, error) {
	memberID := caller(ctx).MemberID
	rows, err := db.New(h.pool).ListRecurrings(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("recurring entries of member %d: %w", memberID, err)
	}
	today := h.today()
	items := make([]api.Recurring, len(rows))
	for i, r := range rows {
		items[i] = toAPIRecurring(r, today)
	}
	return api.ListRecurrings200JSONResponse{Items: items}, nil
}

// CreateRecurring creates a recurring entry within the free limit.
func (h *LedgerHandler) CreateRecurring(ctx context.Context, req api.CreateRecurringRequestObject) (api.CreateRecurringResponseObject, error) {
	p := caller(ctx)
	in, err := RecurringInputFrom(*req.Body)
	if err != nil {
		return nil, err
	}
	today := h.today()
	out, replayed, err := createOnce(ctx, h, "createRecurring", req.Params.IdempotencyKey, req, func(q *db.Queries) (etag.Tagged[api.Recurring], error) {
		if err := CheckFreeLimit(ctx, q, p.MemberID, p.HasPremium(), Recurrings); err != nil {
			return etag.Tagged[api.Recurring]{}, err
		}
		r, err := CreateRecurringTx(ctx, q, p.MemberID, in, today)
		return etag.Versioned(r.Version, toAPIRecurring(r, today)), err
	})
	if err != nil {
		return nil, err
	}
	return api.CreateRecurring201JSONResponse{Body: out.Body, Headers: api.CreateRecurring201ResponseHeaders{
		ETag: etag.Ptr(out.ETag), IdempotentReplayed: replayed,
	}}, nil
}

// CreateRecurringTx creates a recurring entry without the free limit. It
// posts from its first occurrence on or after today (the current time in the
// service time zone): created on its day, today's occurrence posts.
func CreateRecurringTx(ctx context.Context, q *db.Queries, memberID int64, in RecurringInput, today time.Time) (db.Recurring, error) {
	if err := checkTemplateRefs(ctx, q, memberID, in.Type, in.WalletID, in.CategoryID); err != nil {
		return db.Recurring{}, err
	}
	autoPost := in.AutoPost == nil || *in.AutoPost
	r, err := q.CreateRecurring(ctx, db.CreateRecurringParams{
		MemberID: memberID, Name: in.Name, Type: in.Type, Amount: in.Amount,
		WalletID: in.WalletID, CategoryID: in.CategoryID, Day: in.Day, Memo: in.Memo,
		AutoPost: autoPost, NextMonth: firstMonth(today, int(in.Day)),
	})
	if err != nil {
		return db.Recurring{}, refGone(err, "create recurring entry")
	}
	return r, nil
}

// UpdateRecurring replaces a recurring entry's fields (autoPost only when
// sent). The posting cursor (next_month) stays where it is, so a month posts
// once whatever happens to the day; turning autoPost on moves it to the
// first occurrence on or after today.
func (h *LedgerHandler) UpdateRecurring(ctx context.Context, req api.UpdateRecurringRequestObject) (api.UpdateRecurringResponseObject, error) {
	memberID := caller(ctx).MemberID
	in, err := RecurringInputFrom(*req.Body)
	if err != nil {
		return nil, err
	}
	today := h.today()
	match := etag.Parse(req.Params.IfMatch)
	r, err := WriteTxV(ctx, h.pool, memberID, func(q *db.Queries) (db.Recurring, error) {
		if err := checkTemplateRefs(ctx, q, memberID, in.Type, in.WalletID, in.CategoryID); err != nil {
			return db.Recurring{}, err
		}
		r, err := q.UpdateRecurring(ctx, db.UpdateRecurringParams{
			MemberID: memberID, ID: req.ID, Name: in.Name, Type: in.Type, Amount: in.Amount,
			WalletID: in.WalletID, CategoryID: in.CategoryID, Day: in.Day, Memo: in.Memo,
			AutoPost: in.AutoPost, ResumeMonth: firstMonth(today, int(in.Day)), IfVersions: match.Versions(),
		})
		if errors.Is(err, pgx.ErrNoRows) {
			return r, errMissed
		}
		return r, refGone(err, fmt.Sprintf("update recurring entry %d", req.ID))
	})
	if errors.Is(err, errMissed) {
		return nil, missed(match, ErrRecurringNotFound, func() (int64, error) {
			return db.New(h.pool).RecurringVersion(ctx, db.RecurringVersionParams{MemberID: memberID, ID: req.ID})
		})
	}
	if err != nil {
		return nil, err
	}
	return api.UpdateRecurring200JSONResponse{Body: toAPIRecurring(r, today), Headers: api.UpdateRecurring200ResponseHeaders{ETag: etag.Ptr(etag.Version(r.Version))}}, nil
}

// DeleteRecurring deletes a recurring entry.
func (h *LedgerHandler) DeleteRecurring(ctx context.Context, req api.DeleteRecurringRequestObject) (api.DeleteRecurringResponseObject, error) {
	memberID := caller(ctx).MemberID
	match := etag.Parse(req.Params.IfMatch)
	n, err := WriteTxV(ctx, h.pool, memberID, func(q *db.Queries) (int64, error) {
		return q.DeleteRecurring(ctx, db.DeleteRecurringParams{MemberID: memberID, ID: req.ID, IfVersions: match.Versions()})
	})
	if err != nil {
		return nil, fmt.Errorf("delete recurring entry %d: %w", req.ID, err)
	}
	if n == 0 {
		return nil, missed(match, ErrRecurringNotFound, func() (int64, error) {
			return db.New(h.pool).RecurringVersion(ctx, db.RecurringVersionParams{MemberID: memberID, ID: req.ID})
		})
	}
	return api.DeleteRecurring204Response{}, nil
}
