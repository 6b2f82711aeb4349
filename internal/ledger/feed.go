package ledger

import (
	"context"
	"fmt"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
)

// The changes feed (internal/changes) renders a page's records of each kind
// with one read, through these: each answers the records among ids that
// exist, as their GET (or list item) answers them, by id.

// WalletsByID answers these wallets with their balances.
func (h *LedgerHandler) WalletsByID(ctx context.Context, q *db.Queries, memberID int64, ids []int64) (map[int64]api.Wallet, error) {
	rows, err := q.ListWalletsWithBalanceByIDs(ctx, db.ListWalletsWithBalanceByIDsParams{MemberID: memberID, Ids: ids})
	if err != nil {
		return nil, fmt.Errorf("wallets of member %d: %w", memberID, err)
	}
	out := make(map[int64]api.Wallet, len(rows))
	for _, r := range rows {
		// A balance beyond int64 is held and flagged, never a 422: the
		// feed must reach every record after it (issue 42).
		if out[r.Wallet.ID], err = h.crypto.toAPIWallet(withBalance(r.Wallet, r.Balance)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// CategoriesByID answers these categories as the tree's nodes: a top-level
// category with its children, a sub-category with none. A member holds few
// categories, so the whole tree is read once.
func CategoriesByID(ctx context.Context, q *db.Queries, memberID int64, ids []int64) (map[int64]api.Category, error) {
	rows, err := q.ListCategories(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("categories of member %d: %w", memberID, err)
	}
	out := make(map[int64]api.Category, len(ids))
	for _, c := range buildTree(rows) {
		out[c.ID] = c
	}
	for _, r := range rows {
		if r.ParentID != nil {
			out[r.ID] = toAPICategory(r, nil)
		}
	}
	return only(out, ids), nil
}

// TagsByID answers these tags (a member holds few: all are read once).
func TagsByID(ctx context.Context, q *db.Queries, memberID int64, ids []int64) (map[int64]api.Tag, error) {
	rows, err := q.ListTags(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("tags of member %d: %w", memberID, err)
	}
	out := make(map[int64]api.Tag, len(rows))
	for _, r := range rows {
		out[r.ID] = toAPITag(r)
	}
	return only(out, ids), nil
}

// EntriesByID answers these entries with their tags (two reads).
func EntriesByID(ctx context.Context, q *db.Queries, memberID int64, ids []int64) (map[int64]api.Entry, error) {
	rows, err := q.ListEntriesByIDs(ctx, db.ListEntriesByIDsParams{MemberID: memberID, Ids: ids})
	if err != nil {
		return nil, fmt.Errorf("entries of member %d: %w", memberID, err)
	}
	tags, err := tagsOf(ctx, q, memberID, ids)
	if err != nil {
		return nil, err
	}
	att, err := AttributionOf(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]api.Entry, len(rows))
	for _, r := range rows {
		out[r.ID] = att.Entry(Entry{AccountEntry: r, Tags: tags[r.ID]})
	}
	return out, nil
}

// RecurringsByID answers these recurring entries, nextDate from today.
func (h *LedgerHandler) RecurringsByID(ctx context.Context, q *db.Queries, memberID int64, ids []int64) (map[int64]api.Recurring, error) {
	rows, err := q.ListRecurrings(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("recurring entries of member %d: %w", memberID, err)
	}
	today := h.today()
	out := make(map[int64]api.Recurring, len(rows))
	for _, r := range rows {
		out[r.ID] = toAPIRecurring(r, today)
	}
	return only(out, ids), nil
}

// QuickEntriesByID answers these quick entries.
func QuickEntriesByID(ctx context.Context, q *db.Queries, memberID int64, ids []int64) (map[int64]api.QuickEntry, error) {
	rows, err := q.ListQuickEntries(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("quick entries of member %d: %w", memberID, err)
	}
	out := make(map[int64]api.QuickEntry, len(rows))
	for _, r := range rows {
		out[r.ID] = toAPIQuickEntry(r)
	}
	return only(out, ids), nil
}

// only keeps the records among ids.
func only[T any](all map[int64]T, ids []int64) map[int64]T {
	out := make(map[int64]T, len(ids))
	for _, id := range ids {
		if v, ok := all[id]; ok {
			out[id] = v
		}
	}
	return out
}

// AppendEntryJSON appends e as encoding/json writes it, by appending (see
// entryjson.go): the changes feed writes pages of up to 500 entries.
func AppendEntryJSON(b []byte, e *api.Entry) []byte { return appendEntry(b, e) }
