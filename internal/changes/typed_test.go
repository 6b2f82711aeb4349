package changes_test

import (
	"fmt"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
)

// typed is a change read as a client of the generated SDK reads it: the
// union's discriminator picks the kind's schema, and record is that kind's
// record type (*api.Wallet, *api.Entry, …), nil for a DELETE.
type typed struct {
	Kind   string
	ID     string
	Op     api.ChangeOp
	Record any
}

func typedOf(c api.Change) (typed, error) {
	v, err := c.ValueByDiscriminator()
	if err != nil {
		return typed{}, err
	}
	switch x := v.(type) {
	case api.WalletChange:
		return typed{string(x.Kind), x.ID, x.Op, record(x.Record)}, nil
	case api.CategoryChange:
		return typed{string(x.Kind), x.ID, x.Op, record(x.Record)}, nil
	case api.TagChange:
		return typed{string(x.Kind), x.ID, x.Op, record(x.Record)}, nil
	case api.EntryChange:
		return typed{string(x.Kind), x.ID, x.Op, record(x.Record)}, nil
	case api.TransferChange:
		return typed{string(x.Kind), x.ID, x.Op, record(x.Record)}, nil
	case api.RecurringChange:
		return typed{string(x.Kind), x.ID, x.Op, record(x.Record)}, nil
	case api.QuickEntryChange:
		return typed{string(x.Kind), x.ID, x.Op, record(x.Record)}, nil
	case api.BudgetChange:
		return typed{string(x.Kind), x.ID, x.Op, record(x.Record)}, nil
	case api.OnetimeBudgetChange:
		return typed{string(x.Kind), x.ID, x.Op, record(x.Record)}, nil
	case api.BudgetIncomeChange:
		return typed{string(x.Kind), x.ID, x.Op, record(x.Record)}, nil
	case api.StockChange:
		return typed{string(x.Kind), x.ID, x.Op, record(x.Record)}, nil
	case api.TradeChange:
		return typed{string(x.Kind), x.ID, x.Op, record(x.Record)}, nil
	case api.ProfileChange:
		return typed{string(x.Kind), x.ID, x.Op, record(x.Record)}, nil
	}
	return typed{}, fmt.Errorf("change of type %T", v)
}

// record keeps a nil record nil (not a typed nil in an interface).
func record[T any](r *T) any {
	if r == nil {
		return nil
	}
	return r
}

// typedChanges reads a page's changes through the union, each checked:
// UPSERT carries its record and DELETE none.
func typedChanges(t *testing.T, p api.ChangePage) []typed {
	t.Helper()
	out, err := typedChangesE(p)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func typedChangesE(p api.ChangePage) ([]typed, error) {
	out := make([]typed, 0, len(p.Changes))
	for _, c := range p.Changes {
		tc, err := typedOf(c)
		if err != nil {
			return nil, err
		}
		if (tc.Op == api.ChangeOpUpsert) != (tc.Record != nil) {
			return nil, fmt.Errorf("%s %s %s with record %v", tc.Op, tc.Kind, tc.ID, tc.Record)
		}
		out = append(out, tc)
	}
	return out, nil
}
