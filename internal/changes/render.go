package changes

import (
	"context"
	"fmt"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/budget"
	"github.com/nestegg/nestegg/internal/invest"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/member"
	"github.com/nestegg/nestegg/internal/transfer"
)

type key struct {
	kind string
	id   int64
}

// render reads the page's records, one read per kind present (the owning
// areas' functions), and answers those that exist, by kind and id.
func (h *ChangesHandler) render(ctx context.Context, q *db.Queries, memberID int64, rows []db.ListLedgerChangesRow) (map[key]*api.Change_Record, error) {
	ids := map[string][]int64{}
	for _, r := range rows {
		ids[r.Kind] = append(ids[r.Kind], r.RecordID)
	}
	out := make(map[key]*api.Change_Record, len(rows))
	var startDay *int
	monthStartDay := func() (int, error) {
		if startDay == nil {
			m, err := member.GetSelf(ctx, q, memberID)
			if err != nil {
				return 0, err
			}
			d := int(m.MonthStartDay)
			startDay = &d
		}
		return *startDay, nil
	}
	for kind, list := range ids {
		var err error
		switch kind {
		case KindWallet:
			err = put(out, kind, list, h.ledger.WalletsByID, (*api.Change_Record).FromWallet, ctx, q, memberID)
		case KindCategory:
			err = put(out, kind, list, ledger.CategoriesByID, (*api.Change_Record).FromCategory, ctx, q, memberID)
		case KindTag:
			err = put(out, kind, list, ledger.TagsByID, (*api.Change_Record).FromTag, ctx, q, memberID)
		case KindEntry:
			err = put(out, kind, list, ledger.EntriesByID, fromEntry, ctx, q, memberID)
		case KindTransfer:
			err = put(out, kind, list, transfer.ByID, (*api.Change_Record).FromTransfer, ctx, q, memberID)
		case KindRecurring:
			err = put(out, kind, list, h.ledger.RecurringsByID, (*api.Change_Record).FromRecurring, ctx, q, memberID)
		case KindQuickEntry:
			err = put(out, kind, list, ledger.QuickEntriesByID, (*api.Change_Record).FromQuickEntry, ctx, q, memberID)
		case KindBudget:
			err = put(out, kind, list, budget.BudgetsByID, (*api.Change_Record).FromBudget, ctx, q, memberID)
		case KindOnetimeBudget:
			err = put(out, kind, list, budget.OnetimeByID, (*api.Change_Record).FromOnetimeBudget, ctx, q, memberID)
		case KindStock:
			err = put(out, kind, list, invest.StocksByID, (*api.Change_Record).FromStock, ctx, q, memberID)
		case KindTrade:
			err = put(out, kind, list, invest.TradesByID, (*api.Change_Record).FromTrade, ctx, q, memberID)
		case KindBudgetIncome:
			var d int
			if d, err = monthStartDay(); err == nil {
				byMonth := func(ctx context.Context, q *db.Queries, memberID int64, months []int64) (map[int64]api.BudgetIncome, error) {
					return budget.IncomesByMonth(ctx, q, memberID, d, months)
				}
				err = put(out, kind, list, byMonth, (*api.Change_Record).FromBudgetIncome, ctx, q, memberID)
			}
		case KindProfile:
			var d int
			if d, err = monthStartDay(); err == nil {
				err = set(out, key{kind, memberID}, api.LedgerProfile{MonthStartDay: int32(d)}, (*api.Change_Record).FromLedgerProfile)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// put renders one kind's records with the owner's by-id function.
func put[T any](out map[key]*api.Change_Record, kind string, ids []int64,
	byID func(context.Context, *db.Queries, int64, []int64) (map[int64]T, error),
	from func(*api.Change_Record, T) error,
	ctx context.Context, q *db.Queries, memberID int64,
) error {
	recs, err := byID(ctx, q, memberID, ids)
	if err != nil {
		return err
	}
	for id, r := range recs {
		if err := set(out, key{kind, id}, r, from); err != nil {
			return err
		}
	}
	return nil
}

func set[T any](out map[key]*api.Change_Record, k key, r T, from func(*api.Change_Record, T) error) error {
	var rec api.Change_Record
	if err := from(&rec, r); err != nil {
		return fmt.Errorf("%s %d: %w", k.kind, k.id, err)
	}
	out[k] = &rec
	return nil
}

// fromEntry is FromEntry by appending (ledger.AppendEntryJSON writes what
// encoding/json writes): entries are most of a large page.
func fromEntry(rec *api.Change_Record, e api.Entry) error {
	return rec.UnmarshalJSON(ledger.AppendEntryJSON(nil, &e))
}
