package backup

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/invest"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
	"github.com/nestegg/nestegg/internal/text"
	"github.com/nestegg/nestegg/internal/transfer"
)

var errEmptyBackup = problem.New(http.StatusBadRequest, problem.CodeEmptyBackup,
	"the backup holds no records: restoring it would only delete the ledger")

// Counts are how many records of each kind a restore recreated.
type Counts struct {
	Wallets, Tags, Categories, Entries, Recurring, QuickEntries int
}

// RestoreBackup replaces the member's ledger with the document's.
func (h *BackupHandler) RestoreBackup(ctx context.Context, req api.RestoreBackupRequestObject) (api.RestoreBackupResponseObject, error) {
	c, err := h.Restore(ctx, session.PrincipalFrom(ctx).MemberID, *req.Body)
	if err != nil {
		return nil, err
	}
	return api.RestoreBackup200JSONResponse{
		Wallets: int32(c.Wallets), Tags: int32(c.Tags), Categories: int32(c.Categories), Entries: int32(c.Entries),
		Recurring: int32(c.Recurring), QuickEntries: int32(c.QuickEntries), Budgets: 0, Transfers: 0,
	}, nil
}

// Restore deletes the member's ledger and recreates it from doc in one
// transaction, in SPEC.md's order: wallets, tags, categories, entries,
// recurring, budgets (none in version 1), quick entries. Any error rolls
// all of it back. Free limits do not apply.
func (h *BackupHandler) Restore(ctx context.Context, memberID int64, doc api.Backup) (Counts, error) {
	if doc.Version != Version {
		return Counts{}, problem.Invalid("/version", fmt.Sprintf("must be %d", Version))
	}
	if len(doc.Wallets)+len(doc.Tags)+len(doc.Categories)+len(doc.Entries)+len(doc.Recurring)+
		len(doc.QuickEntries)+len(doc.Budgets)+len(doc.Transfers) == 0 {
		return Counts{}, errEmptyBackup
	}
	if len(doc.Budgets) > 0 || len(doc.Transfers) > 0 {
		return Counts{}, problem.Invalid("/budgets", "budgets and transfers are empty in version 1")
	}
	return database.InTxV(ctx, h.pool, func(q *db.Queries) (Counts, error) {
		r := &restorer{q: q, memberID: memberID, crypto: h.crypto}
		return r.run(ctx, doc)
	})
}

// restorer holds what a restore created so far, by name.
type restorer struct {
	q        *db.Queries
	memberID int64
	crypto   *ledger.AccountCrypto
	wallets  map[string]db.Wallet
	// categories by type, parent name ("" for a top-level one) and name.
	categories map[[3]string]int64
	tags       map[string]int64
}

func (r *restorer) run(ctx context.Context, doc api.Backup) (Counts, error) {
	// The ledger's own lock: a parallel create cannot slip in between the
	// deletion and the recreation.
	if err := r.q.LockMemberLedger(ctx, r.memberID); err != nil {
		return Counts{}, fmt.Errorf("lock ledger of member %d: %w", r.memberID, err)
	}
	// Transfers first (their sides are entries), and investments, which
	// restore deletes without recreating them (SPEC.md section 4).
	if err := transfer.DeleteAllTx(ctx, r.q, r.memberID); err != nil {
		return Counts{}, err
	}
	if err := invest.DeleteInvestTx(ctx, r.q, r.memberID); err != nil {
		return Counts{}, err
	}
	if err := ledger.DeleteLedgerTx(ctx, r.q, r.memberID); err != nil {
		return Counts{}, err
	}
	steps := []func(context.Context, api.Backup) error{
		r.restoreWallets, r.restoreTags, r.restoreCategories, r.restoreEntries, r.restoreRecurring,
		// budgets: none in version 1.
		r.restoreQuickEntries,
	}
	for _, step := range steps {
		if err := step(ctx, doc); err != nil {
			return Counts{}, err
		}
	}
	return Counts{
		Wallets: len(doc.Wallets), Tags: len(r.tags), Categories: len(doc.Categories), Entries: len(doc.Entries),
		Recurring: len(doc.Recurring), QuickEntries: len(doc.QuickEntries),
	}, nil
}

func (r *restorer) restoreWallets(ctx context.Context, doc api.Backup) error {
	r.wallets = make(map[string]db.Wallet, len(doc.Wallets))
	for i, w := range doc.Wallets {
		at := fmt.Sprintf("/wallets/%d", i)
		req := api.WalletRequest{
			Name: w.Name, Type: w.Type, OpeningBalance: ptr(w.OpeningBalance), AccountNumber: w.AccountNumber,
			LoanAmount: w.LoanAmount, LoanRate: w.LoanRate, LoanMethod: w.LoanMethod, LoanMonths: w.LoanMonths,
			LoanStart: w.LoanStart, LoanPayment: w.LoanPayment, ManualValuation: ptr(w.ManualValuation),
			CurrentValue: w.CurrentValue,
		}
		created, err := ledger.CreateWalletTx(ctx, r.q, r.crypto, r.memberID, req)
		if err != nil {
			return under(at, err)
		}
		if _, dup := r.wallets[created.Name]; dup {
			return problem.Invalid(at+"/name", "repeats the name of another wallet")
		}
		r.wallets[created.Name] = created.Wallet
	}
	return nil
}

// restoreTags creates the listed tags in order, then the ones entries and
// quick entries name that the list lacks.
func (r *restorer) restoreTags(ctx context.Context, doc api.Backup) error {
	var names []string
	seen := map[string]bool{}
	add := func(field, name string) error {
		n, err := tagName(field, name)
		if err != nil {
			return err
		}
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
		return nil
	}
	for i, t := range doc.Tags {
		if err := add(fmt.Sprintf("/tags/%d", i), t); err != nil {
			return err
		}
		if len(names) != i+1 {
			return problem.Invalid(fmt.Sprintf("/tags/%d", i), "repeats another tag")
		}
	}
	for i, e := range doc.Entries {
		for j, t := range e.Tags {
			if err := add(fmt.Sprintf("/entries/%d/tags/%d", i, j), t); err != nil {
				return err
			}
		}
	}
	for i, e := range doc.QuickEntries {
		for j, t := range e.Tags {
			if err := add(fmt.Sprintf("/quickEntries/%d/tags/%d", i, j), t); err != nil {
				return err
			}
		}
	}
	r.tags = make(map[string]int64, len(names))
	if len(names) == 0 {
		return nil
	}
	rows, err := r.q.EnsureTags(ctx, db.EnsureTagsParams{MemberID: r.memberID, Names: names})
	if err != nil {
		return fmt.Errorf("restore tags: %w", err)
	}
	for _, row := range rows {
		r.tags[row.Name] = row.ID
	}
	return nil
}

func tagName(field, s string) (string, error) {
	n := strings.TrimSpace(s)
	if c := utf8.RuneCountInString(n); c < 1 || c > 30 {
		return "", problem.Invalid(field, "must be 1 to 30 characters, not only spaces")
	}
	return n, text.CheckLine(field, n)
}

// restoreCategories creates the top-level categories first, then the
// sub-categories, each in the document's order.
func (r *restorer) restoreCategories(ctx context.Context, doc api.Backup) error {
	r.categories = map[[3]string]int64{}
	for _, subs := range []bool{false, true} {
		for i, c := range doc.Categories {
			if (c.Parent != nil) != subs {
				continue
			}
			at := fmt.Sprintf("/categories/%d", i)
			in, err := ledger.CategoryInputFrom(api.CategoryRequest{Name: c.Name, Type: c.Type})
			if err != nil {
				return under(at, err)
			}
			parent := ""
			if subs {
				parent = strings.TrimSpace(*c.Parent)
				id, ok := r.categories[[3]string{in.Type, "", parent}]
				if !ok {
					return problem.Invalid(at+"/parent", "names no top-level category of the same type in the document")
				}
				in.ParentID = &id
			}
			key := [3]string{in.Type, parent, in.Name}
			if _, dup := r.categories[key]; dup {
				return problem.Invalid(at+"/name", "repeats another category of the same type and parent")
			}
			created, err := ledger.CreateCategoryTx(ctx, r.q, r.memberID, in)
			if err != nil {
				return under(at, err)
			}
			r.categories[key] = created.ID
		}
	}
	return nil
}

// refs resolves the wallet and category a record names.
func (r *restorer) refs(at, typ string, wallet, category, parent *string) (walletID, categoryID *int64, walletType string, err error) {
	if wallet != nil {
		w, ok := r.wallets[strings.TrimSpace(*wallet)]
		if !ok {
			return nil, nil, "", problem.Invalid(at+"/wallet", "names no wallet of the document")
		}
		walletID, walletType = &w.ID, w.Type
	}
	switch {
	case category != nil:
		p := ""
		if parent != nil {
			p = strings.TrimSpace(*parent)
		}
		id, ok := r.categories[[3]string{typ, p, strings.TrimSpace(*category)}]
		if !ok {
			return nil, nil, "", problem.Invalid(at+"/category", "names no category of the record's type (under categoryParent) in the document")
		}
		categoryID = &id
	case parent != nil:
		return nil, nil, "", problem.Invalid(at+"/categoryParent", "goes with category")
	}
	return walletID, categoryID, walletType, nil
}

// restoreEntries checks every entry, then writes them all with COPY: a
// decade of entries is one statement, not tens of thousands.
func (r *restorer) restoreEntries(ctx context.Context, doc api.Backup) error {
	rows := make([]db.CopyEntriesParams, len(doc.Entries))
	for i, e := range doc.Entries {
		at := fmt.Sprintf("/entries/%d", i)
		amount := e.Amount
		tags := e.Tags
		in, err := ledger.EntryInputFrom(api.EntryRequest{
			Date: e.Date, Type: e.Type, Amount: &amount, Memo: &e.Memo, Tags: &tags, Currency: e.Currency,
			OriginalAmount: e.OriginalAmount, ExchangeRate: e.ExchangeRate, InstallmentMonths: e.InstallmentMonths,
		}, true)
		if err != nil {
			return under(at, err)
		}
		walletID, categoryID, walletType, err := r.refs(at, in.Type, e.Wallet, e.Category, e.CategoryParent)
		if err != nil {
			return err
		}
		if in.InstallmentMonths != nil && (in.Type != ledger.TypeExpense || walletType != "CARD") {
			return problem.Invalid(at+"/installmentMonths", "only for an expense on a CARD wallet")
		}
		rows[i] = db.CopyEntriesParams{
			MemberID: r.memberID, WalletID: walletID, CategoryID: categoryID, Type: in.Type, Amount: in.Amount,
			EntryDate: in.Date, Memo: in.Memo, Currency: in.Currency, OriginalAmount: in.OriginalAmount,
			ExchangeRate: in.ExchangeRate, InstallmentMonths: in.InstallmentMonths, Pending: e.Pending, NotifKey: e.NotifKey,
		}
	}
	if err := checkNotifKeys(doc.Entries); err != nil {
		return err
	}
	if len(rows) == 0 {
		return nil
	}
	if _, err := r.q.CopyEntries(ctx, rows); err != nil {
		return fmt.Errorf("restore entries: %w", err)
	}
	// The ledger was emptied in this transaction and the lock keeps other
	// writers out, so the member's entries in id order are the document's.
	ids, err := r.q.ListEntryIDs(ctx, r.memberID)
	if err != nil {
		return fmt.Errorf("restored entry ids: %w", err)
	}
	if len(ids) != len(rows) {
		return fmt.Errorf("restore entries: %d rows written, %d found", len(rows), len(ids))
	}
	var links []db.CopyEntryTagsParams
	for i, e := range doc.Entries {
		seen := map[int64]bool{}
		for _, t := range e.Tags {
			id := r.tags[strings.TrimSpace(t)]
			if !seen[id] {
				seen[id] = true
				links = append(links, db.CopyEntryTagsParams{EntryID: ids[i], TagID: id})
			}
		}
	}
	if len(links) > 0 {
		if _, err := r.q.CopyEntryTags(ctx, links); err != nil {
			return fmt.Errorf("restore entry tags: %w", err)
		}
	}
	return nil
}

// checkNotifKeys refuses a key two entries share (the unique index would,
// with a less helpful error).
func checkNotifKeys(entries []api.BackupEntry) error {
	seen := map[string]bool{}
	for i, e := range entries {
		if e.NotifKey == nil {
			continue
		}
		if seen[*e.NotifKey] {
			return problem.Invalid(fmt.Sprintf("/entries/%d/notifKey", i), "repeats the key of another entry")
		}
		seen[*e.NotifKey] = true
	}
	return nil
}

func (r *restorer) restoreRecurring(ctx context.Context, doc api.Backup) error {
	for i, rec := range doc.Recurring {
		at := fmt.Sprintf("/recurring/%d", i)
		in, err := ledger.RecurringInputFrom(api.RecurringRequest{
			Name: rec.Name, Type: rec.Type, Amount: rec.Amount, Day: rec.Day, Memo: &rec.Memo,
		})
		if err != nil {
			return under(at, err)
		}
		if in.WalletID, in.CategoryID, _, err = r.refs(at, in.Type, rec.Wallet, rec.Category, rec.CategoryParent); err != nil {
			return err
		}
		if _, err := ledger.CreateRecurringTx(ctx, r.q, r.memberID, in); err != nil {
			return under(at, err)
		}
	}
	return nil
}

func (r *restorer) restoreQuickEntries(ctx context.Context, doc api.Backup) error {
	for i, e := range doc.QuickEntries {
		at := fmt.Sprintf("/quickEntries/%d", i)
		tags := e.Tags
		in, err := ledger.QuickEntryInputFrom(api.QuickEntryRequest{
			Name: e.Name, Type: e.Type, Amount: e.Amount, Memo: &e.Memo, Tags: &tags,
		}, true)
		if err != nil {
			return under(at, err)
		}
		if in.WalletID, in.CategoryID, _, err = r.refs(at, in.Type, e.Wallet, e.Category, e.CategoryParent); err != nil {
			return err
		}
		if _, err := ledger.CreateQuickEntryTx(ctx, r.q, r.memberID, in); err != nil {
			return under(at, err)
		}
	}
	return nil
}

// under places the fields of a record's validation error inside the
// document ("/name" of wallet 3 is "/wallets/3/name").
func under(at string, err error) error {
	pe, ok := problem.As(err)
	if !ok {
		return err
	}
	out := *pe
	if len(pe.Fields) == 0 {
		out.Fields = []problem.FieldError{{Field: at, Message: pe.Detail}}
		return &out
	}
	out.Fields = make([]problem.FieldError, len(pe.Fields))
	for i, f := range pe.Fields {
		f.Field = at + f.Field
		out.Fields[i] = f
	}
	return &out
}
