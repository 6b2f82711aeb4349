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
// areas' functions), and answers the UPSERT change of each that exists, by
// kind and id.
func (h *ChangesHandler) render(ctx context.Context, q *db.Queries, memberID int64, rows []db.ListLedgerChangesRow) (map[key]api.Change, error) {
	ids := map[string][]int64{}
	for _, r := range rows {
		ids[r.Kind] = append(ids[r.Kind], r.RecordID)
	}
	out := make(map[key]api.Change, len(rows))
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
			err = put(out, kind, list, h.ledger.WalletsByID, walletChange, ctx, q, memberID)
		case KindCategory:
			err = put(out, kind, list, ledger.CategoriesByID, categoryChange, ctx, q, memberID)
		case KindTag:
			err = put(out, kind, list, ledger.TagsByID, tagChange, ctx, q, memberID)
		case KindEntry:
			err = put(out, kind, list, ledger.EntriesByID, entryChange, ctx, q, memberID)
		case KindTransfer:
			err = put(out, kind, list, transfer.ByID, transferChange, ctx, q, memberID)
		case KindRecurring:
			err = put(out, kind, list, h.ledger.RecurringsByID, recurringChange, ctx, q, memberID)
		case KindQuickEntry:
			err = put(out, kind, list, ledger.QuickEntriesByID, quickEntryChange, ctx, q, memberID)
		case KindBudget:
			err = put(out, kind, list, budget.BudgetsByID, budgetChange, ctx, q, memberID)
		case KindOnetimeBudget:
			err = put(out, kind, list, budget.OnetimeByID, onetimeBudgetChange, ctx, q, memberID)
		case KindStock:
			err = put(out, kind, list, invest.StocksByID, stockChange, ctx, q, memberID)
		case KindTrade:
			err = put(out, kind, list, invest.TradesByID, tradeChange, ctx, q, memberID)
		case KindBudgetIncome:
			var d int
			if d, err = monthStartDay(); err == nil {
				byMonth := func(ctx context.Context, q *db.Queries, memberID int64, months []int64) (map[int64]api.BudgetIncome, error) {
					return budget.IncomesByMonth(ctx, q, memberID, d, months)
				}
				err = put(out, kind, list, byMonth, budgetIncomeChange, ctx, q, memberID)
			}
		case KindProfile:
			var d int
			if d, err = monthStartDay(); err == nil {
				k := key{kind, memberID}
				err = set(out, k, &api.LedgerProfile{MonthStartDay: int32(d)}, profileChange)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// put renders one kind's records with the owner's by-id function.
func put[T any](out map[key]api.Change, kind string, ids []int64,
	byID func(context.Context, *db.Queries, int64, []int64) (map[int64]T, error),
	change func(id string, op api.ChangeOp, rec *T) (api.Change, error),
	ctx context.Context, q *db.Queries, memberID int64,
) error {
	recs, err := byID(ctx, q, memberID, ids)
	if err != nil {
		return err
	}
	for id, r := range recs {
		if err := set(out, key{kind, id}, &r, change); err != nil {
			return err
		}
	}
	return nil
}

func set[T any](out map[key]api.Change, k key, r *T, change func(string, api.ChangeOp, *T) (api.Change, error)) error {
	c, err := change(recordID(k.kind, k.id), api.ChangeOpUpsert, r)
	if err != nil {
		return fmt.Errorf("%s %d: %w", k.kind, k.id, err)
	}
	out[k] = c
	return nil
}

// tombstone is the DELETE change of a record the snapshot no longer holds.
func tombstone(kind string, recordID string) (api.Change, error) {
	switch kind {
	case KindWallet:
		return walletChange(recordID, api.ChangeOpDelete, nil)
	case KindCategory:
		return categoryChange(recordID, api.ChangeOpDelete, nil)
	case KindTag:
		return tagChange(recordID, api.ChangeOpDelete, nil)
	case KindEntry:
		return entryChange(recordID, api.ChangeOpDelete, nil)
	case KindTransfer:
		return transferChange(recordID, api.ChangeOpDelete, nil)
	case KindRecurring:
		return recurringChange(recordID, api.ChangeOpDelete, nil)
	case KindQuickEntry:
		return quickEntryChange(recordID, api.ChangeOpDelete, nil)
	case KindBudget:
		return budgetChange(recordID, api.ChangeOpDelete, nil)
	case KindOnetimeBudget:
		return onetimeBudgetChange(recordID, api.ChangeOpDelete, nil)
	case KindBudgetIncome:
		return budgetIncomeChange(recordID, api.ChangeOpDelete, nil)
	case KindStock:
		return stockChange(recordID, api.ChangeOpDelete, nil)
	case KindTrade:
		return tradeChange(recordID, api.ChangeOpDelete, nil)
	case KindProfile:
		return profileChange(recordID, api.ChangeOpDelete, nil)
	}
	// The triggers write only the kinds above (schema/00007_ledger_change.sql).
	return api.Change{}, fmt.Errorf("ledger change of unknown kind %q", kind)
}

// One constructor per kind: the record's schema is the kind's (a nil record,
// for DELETE, is left out of the answer).

func walletChange(id string, op api.ChangeOp, r *api.Wallet) (api.Change, error) {
	return build((*api.Change).FromWalletChange, api.WalletChange{Kind: api.WalletChangeKindWallet, ID: id, Op: op, Record: r})
}

func categoryChange(id string, op api.ChangeOp, r *api.Category) (api.Change, error) {
	return build((*api.Change).FromCategoryChange, api.CategoryChange{Kind: api.CategoryChangeKindCategory, ID: id, Op: op, Record: r})
}

func tagChange(id string, op api.ChangeOp, r *api.Tag) (api.Change, error) {
	return build((*api.Change).FromTagChange, api.TagChange{Kind: api.TagChangeKindTag, ID: id, Op: op, Record: r})
}

func transferChange(id string, op api.ChangeOp, r *api.Transfer) (api.Change, error) {
	return build((*api.Change).FromTransferChange, api.TransferChange{Kind: api.TransferChangeKindTransfer, ID: id, Op: op, Record: r})
}

func recurringChange(id string, op api.ChangeOp, r *api.Recurring) (api.Change, error) {
	return build((*api.Change).FromRecurringChange, api.RecurringChange{Kind: api.RecurringChangeKindRecurring, ID: id, Op: op, Record: r})
}

func quickEntryChange(id string, op api.ChangeOp, r *api.QuickEntry) (api.Change, error) {
	return build((*api.Change).FromQuickEntryChange, api.QuickEntryChange{Kind: api.QuickEntryChangeKindQuickEntry, ID: id, Op: op, Record: r})
}

func budgetChange(id string, op api.ChangeOp, r *api.Budget) (api.Change, error) {
	return build((*api.Change).FromBudgetChange, api.BudgetChange{Kind: api.BudgetChangeKindBudget, ID: id, Op: op, Record: r})
}

func onetimeBudgetChange(id string, op api.ChangeOp, r *api.OnetimeBudget) (api.Change, error) {
	return build((*api.Change).FromOnetimeBudgetChange, api.OnetimeBudgetChange{Kind: api.OnetimeBudgetChangeKindOnetimeBudget, ID: id, Op: op, Record: r})
}

func budgetIncomeChange(id string, op api.ChangeOp, r *api.BudgetIncome) (api.Change, error) {
	return build((*api.Change).FromBudgetIncomeChange, api.BudgetIncomeChange{Kind: api.BudgetIncomeChangeKindBudgetIncome, ID: id, Op: op, Record: r})
}

func stockChange(id string, op api.ChangeOp, r *api.Stock) (api.Change, error) {
	return build((*api.Change).FromStockChange, api.StockChange{Kind: api.StockChangeKindStock, ID: id, Op: op, Record: r})
}

func tradeChange(id string, op api.ChangeOp, r *api.Trade) (api.Change, error) {
	return build((*api.Change).FromTradeChange, api.TradeChange{Kind: api.TradeChangeKindTrade, ID: id, Op: op, Record: r})
}

func profileChange(id string, op api.ChangeOp, r *api.LedgerProfile) (api.Change, error) {
	return build((*api.Change).FromProfileChange, api.ProfileChange{Kind: api.ProfileChangeKindProfile, ID: id, Op: op, Record: r})
}

func build[C any](from func(*api.Change, C) error, c C) (api.Change, error) {
	var out api.Change
	if err := from(&out, c); err != nil {
		return api.Change{}, err
	}
	return out, nil
}

// entryChange writes the EntryChange by appending (ledger.AppendEntryJSON
// writes what encoding/json writes; the feed tests compare it with the
// entry's GET): entries are most of a large page, and FromEntryChange would
// encode each one twice.
func entryChange(id string, op api.ChangeOp, r *api.Entry) (api.Change, error) {
	if r == nil {
		return build((*api.Change).FromEntryChange, api.EntryChange{Kind: api.EntryChangeKindEntry, ID: id, Op: op})
	}
	// An entry's id is decimal: nothing in it needs escaping.
	b := make([]byte, 0, 512)
	b = append(b, `{"kind":"ENTRY","id":"`...)
	b = append(b, id...)
	b = append(b, `","op":"`...)
	b = append(b, op...)
	b = append(b, `","record":`...)
	b = ledger.AppendEntryJSON(b, r)
	b = append(b, '}')
	var c api.Change
	return c, c.UnmarshalJSON(b)
}
