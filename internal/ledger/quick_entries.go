package ledger

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/problem"
)

// ErrQuickEntryNotFound answers a quick entry that is not the member's.
var ErrQuickEntryNotFound = problem.NotFound("quick entry")

// QuickEntryInput is a checked quick entry.
type QuickEntryInput struct {
	Name, Type, Memo     string
	Amount               int64
	WalletID, CategoryID *int64
	Tags                 []string
}

// QuickEntryInputFrom checks a quick entry request; premium decides whether
// tags may be sent.
func QuickEntryInputFrom(in api.QuickEntryRequest, premium bool) (QuickEntryInput, error) {
	e := QuickEntryInput{Amount: in.Amount, WalletID: in.WalletID, CategoryID: in.CategoryID}
	var err error
	if e.Name, err = cleanName("/name", in.Name, 50); err != nil {
		return e, err
	}
	if e.Type, err = cleanType("/type", string(in.Type)); err != nil {
		return e, err
	}
	if e.Memo, err = cleanMemo("/memo", in.Memo); err != nil {
		return e, err
	}
	if e.Amount < 0 || e.Amount > maxAmount {
		return e, problem.Invalid("/amount", "must be 0 to 10^15 won")
	}
	if e.Tags, err = cleanTags(in.Tags, premium); err != nil {
		return e, err
	}
	if e.Tags == nil {
		e.Tags = []string{}
	}
	return e, nil
}

func toAPIQuickEntry(e db.QuickEntry) api.QuickEntry {
	return api.QuickEntry{ID: e.ID, Name: e.Name, Type: api.EntryTypeValue(e.Type), Amount: e.Amount, WalletID: e.WalletID, CategoryID: e.CategoryID, Memo: e.Memo, Tags: e.Tags}
}

// ListQuickEntries answers the member's quick entries, oldest first.
func (h *LedgerHandler) ListQuickEntries(ctx context.Context, _ api.ListQuickEntriesRequestObject) (api.ListQuickEntriesResponseObject, error) {
	memberID := caller(ctx).MemberID
	rows, err := db.New(h.pool).ListQuickEntries(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("quick entries of member %d: %w", memberID, err)
	}
	items := make([]api.QuickEntry, len(rows))
	for i, r := range rows {
		items[i] = toAPIQuickEntry(r)
	}
	return api.ListQuickEntries200JSONResponse{Items: items}, nil
}

// CreateQuickEntry creates a quick entry.
func (h *LedgerHandler) CreateQuickEntry(ctx context.Context, req api.CreateQuickEntryRequestObject) (api.CreateQuickEntryResponseObject, error) {
	p := caller(ctx)
	in, err := QuickEntryInputFrom(*req.Body, p.HasPremium())
	if err != nil {
		return nil, err
	}
	out, replayed, err := createOnce(ctx, h, "createQuickEntry", req.Params.IdempotencyKey, req, func(q *db.Queries) (etag.Tagged[api.QuickEntry], error) {
		e, err := CreateQuickEntryTx(ctx, q, p.MemberID, in)
		return etag.Versioned(e.Version, toAPIQuickEntry(e)), err
	})
	if err != nil {
		return nil, err
	}
	return api.CreateQuickEntry201JSONResponse{Body: out.Body, Headers: api.CreateQuickEntry201ResponseHeaders{
		ETag: etag.Ptr(out.ETag), IdempotentReplayed: replayed,
	}}, nil
}

// CreateQuickEntryTx creates a quick entry; its tag names become tags.
func CreateQuickEntryTx(ctx context.Context, q *db.Queries, memberID int64, in QuickEntryInput) (db.QuickEntry, error) {
	if err := checkTemplateRefs(ctx, q, memberID, in.Type, in.WalletID, in.CategoryID); err != nil {
		return db.QuickEntry{}, err
	}
	if _, err := EnsureTagsTx(ctx, q, memberID, in.Tags); err != nil {
		return db.QuickEntry{}, err
	}
	e, err := q.CreateQuickEntry(ctx, db.CreateQuickEntryParams{
		MemberID: memberID, Name: in.Name, Type: in.Type, Amount: in.Amount,
		WalletID: in.WalletID, CategoryID: in.CategoryID, Memo: in.Memo, Tags: in.Tags,
	})
	if err != nil {
		return db.QuickEntry{}, refGone(err, "create quick entry")
	}
	return e, nil
}

// UpdateQuickEntry replaces a quick entry's fields.
func (h *LedgerHandler) UpdateQuickEntry(ctx context.Context, req api.UpdateQuickEntryRequestObject) (api.UpdateQuickEntryResponseObject, error) {
	p := caller(ctx)
	in, err := QuickEntryInputFrom(*req.Body, p.HasPremium())
	if err != nil {
		return nil, err
	}
	match := etag.Parse(req.Params.IfMatch)
	e, err := WriteTxV(ctx, h.pool, p.MemberID, func(q *db.Queries) (db.QuickEntry, error) {
		if err := checkTemplateRefs(ctx, q, p.MemberID, in.Type, in.WalletID, in.CategoryID); err != nil {
			return db.QuickEntry{}, err
		}
		if _, err := EnsureTagsTx(ctx, q, p.MemberID, in.Tags); err != nil {
			return db.QuickEntry{}, err
		}
		e, err := q.UpdateQuickEntry(ctx, db.UpdateQuickEntryParams{
			MemberID: p.MemberID, ID: req.ID, Name: in.Name, Type: in.Type, Amount: in.Amount,
			WalletID: in.WalletID, CategoryID: in.CategoryID, Memo: in.Memo, Tags: in.Tags, IfVersions: match.Versions(),
		})
		if errors.Is(err, pgx.ErrNoRows) {
			return e, errMissed
		}
		return e, refGone(err, fmt.Sprintf("update quick entry %d", req.ID))
	})
	if errors.Is(err, errMissed) {
		return nil, missed(match, ErrQuickEntryNotFound, func() (int64, error) {
			return db.New(h.pool).QuickEntryVersion(ctx, db.QuickEntryVersionParams{MemberID: p.MemberID, ID: req.ID})
		})
	}
	if err != nil {
		return nil, err
	}
	return api.UpdateQuickEntry200JSONResponse{Body: toAPIQuickEntry(e), Headers: api.UpdateQuickEntry200ResponseHeaders{ETag: etag.Ptr(etag.Version(e.Version))}}, nil
}

// DeleteQuickEntry deletes a quick entry.
func (h *LedgerHandler) DeleteQuickEntry(ctx context.Context, req api.DeleteQuickEntryRequestObject) (api.DeleteQuickEntryResponseObject, error) {
	memberID := caller(ctx).MemberID
	match := etag.Parse(req.Params.IfMatch)
	n, err := WriteTxV(ctx, h.pool, memberID, func(q *db.Queries) (int64, error) {
		return q.DeleteQuickEntry(ctx, db.DeleteQuickEntryParams{MemberID: memberID, ID: req.ID, IfVersions: match.Versions()})
	})
	if err != nil {
		return nil, fmt.Errorf("delete quick entry %d: %w", req.ID, err)
	}
	if n == 0 {
		return nil, missed(match, ErrQuickEntryNotFound, func() (int64, error) {
			return db.New(h.pool).QuickEntryVersion(ctx, db.QuickEntryVersionParams{MemberID: memberID, ID: req.ID})
		})
	}
	return api.DeleteQuickEntry204Response{}, nil
}
