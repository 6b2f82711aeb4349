// Package backup answers a member's whole ledger as one versioned document
// whose records refer to each other by name, and restores such a document in
// place of the member's ledger in one transaction.
package backup

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/oapi-codegen/runtime/types"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/budget"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/session"
	"github.com/nestegg/nestegg/internal/transfer"
)

// Version is the document format this service writes and reads.
const Version = 1

const maxNameRunes = 50

// BackupHandler implements the backup and restore operations.
type BackupHandler struct {
	pool   *pgxpool.Pool
	crypto *ledger.AccountCrypto
	clock  clock.Clock
	loc    *time.Location
	// entryHook is the ledger's entry hook (the month-complete check), run
	// after a restore wrote entries.
	entryHook ledger.EntryHook
}

// OnEntryWritten sets the hook run after a restore committed entries: a
// restored month may be complete, as after any other entry write.
func (h *BackupHandler) OnEntryWritten(f ledger.EntryHook) { h.entryHook = f }

// NewHandler returns the backup handler; crypto opens and seals account
// numbers (the ledger's, LedgerHandler.Crypto); the clock in loc
// (APP_TIMEZONE) says which ledger month is the current one, whose budgets
// a backup holds and a restore fills.
func NewHandler(pool *pgxpool.Pool, crypto *ledger.AccountCrypto, c clock.Clock, loc *time.Location) *BackupHandler {
	return &BackupHandler{pool: pool, crypto: crypto, clock: c, loc: loc}
}

// currentMonth is the ledger month that holds today, for a member whose
// month begins on startDay.
func (h *BackupHandler) currentMonth(startDay int) calendar.Month {
	return calendar.MonthOf(calendar.Day(h.clock.Now(), h.loc), startDay)
}

// GetBackup answers the member's ledger as a backup document.
func (h *BackupHandler) GetBackup(ctx context.Context, _ api.GetBackupRequestObject) (api.GetBackupResponseObject, error) {
	p := session.PrincipalFrom(ctx)
	doc, err := h.Export(ctx, p.MemberID, h.currentMonth(p.MonthStartDay))
	if err != nil {
		return nil, err
	}
	return api.GetBackup200JSONResponse(doc), nil
}

// Export reads the member's ledger as one document, with the budgets of
// month (the current ledger month). The reads share one snapshot, so a write
// in between cannot leave a reference dangling.
func (h *BackupHandler) Export(ctx context.Context, memberID int64, month calendar.Month) (api.Backup, error) {
	tx, err := h.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return api.Backup{}, fmt.Errorf("backup of member %d: begin: %w", memberID, err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	q := db.New(tx)
	doc := api.Backup{
		Version: Version, Wallets: []api.BackupWallet{}, Tags: []api.TagName{}, Categories: []api.BackupCategory{},
		Entries: []api.BackupEntry{}, Recurring: []api.BackupRecurring{}, QuickEntries: []api.BackupQuickEntry{},
		Budgets: []api.BackupBudget{}, OnetimeBudgets: &[]api.BackupOnetimeBudget{}, Transfers: []api.BackupTransfer{},
	}

	wallets, err := ledger.WalletsForBackupTx(ctx, q, memberID)
	if err != nil {
		return doc, fmt.Errorf("wallets of member %d: %w", memberID, err)
	}
	walletName := map[int64]string{}
	names := uniqueNames{}
	for _, w := range wallets {
		bw, err := h.exportWallet(w)
		if err != nil {
			return doc, err
		}
		bw.Name = names.take("", w.Name)
		walletName[w.ID] = bw.Name
		doc.Wallets = append(doc.Wallets, bw)
	}

	tags, err := ledger.ListTagsTx(ctx, q, memberID)
	if err != nil {
		return doc, fmt.Errorf("tags of member %d: %w", memberID, err)
	}
	for _, t := range tags {
		doc.Tags = append(doc.Tags, t.Name)
	}

	cats, err := ledger.ListCategoriesTx(ctx, q, memberID)
	if err != nil {
		return doc, fmt.Errorf("categories of member %d: %w", memberID, err)
	}
	refs := exportCategories(cats, &doc)

	entries, err := ledger.EntriesForBackupTx(ctx, q, memberID)
	if err != nil {
		return doc, fmt.Errorf("entries of member %d: %w", memberID, err)
	}
	tagRows, err := ledger.EntryTagsForBackupTx(ctx, q, memberID)
	if err != nil {
		return doc, fmt.Errorf("entry tags of member %d: %w", memberID, err)
	}
	entryTags := map[int64][]string{}
	for _, r := range tagRows {
		entryTags[r.EntryID] = append(entryTags[r.EntryID], r.Name)
	}
	// A transfer names its fee entry by its position in entries.
	position := make(map[int64]int32, len(entries))
	for i, e := range entries {
		position[e.ID] = int32(i)
		cat, parent := refs.of(e.CategoryID)
		be := api.BackupEntry{
			Date: types.Date{Time: e.EntryDate}, Type: api.BackupEntryType(e.Type), Amount: e.Amount,
			Wallet: nameOf(walletName, e.WalletID), Category: cat, CategoryParent: parent, Memo: e.Memo,
			Tags: entryTags[e.ID], Currency: e.Currency, InstallmentMonths: e.InstallmentMonths,
			Pending: e.Pending, NotifKey: e.NotifKey,
		}
		if be.Tags == nil {
			be.Tags = []string{}
		}
		if e.OriginalAmount.Valid {
			be.OriginalAmount = ptr(e.OriginalAmount.Decimal.String())
		}
		if e.ExchangeRate.Valid {
			be.ExchangeRate = ptr(e.ExchangeRate.Decimal.String())
		}
		doc.Entries = append(doc.Entries, be)
	}

	transfers, err := transfer.ForBackupTx(ctx, q, memberID)
	if err != nil {
		return doc, fmt.Errorf("transfers of member %d: %w", memberID, err)
	}
	for _, t := range transfers {
		from, to := nameOf(walletName, t.FromWalletID), nameOf(walletName, t.ToWalletID)
		if from == nil || to == nil {
			// Never: a transfer's sides always have wallets (a wallet with
			// entries is deleted only by moving them to another).
			return doc, fmt.Errorf("transfer %d of member %d has a side without a wallet", t.ID, memberID)
		}
		bt := api.BackupTransfer{Date: types.Date{Time: t.TransferDate}, Amount: t.Amount, From: *from, To: *to, Memo: t.Memo}
		if t.FeeEntryID != nil {
			if i, ok := position[*t.FeeEntryID]; ok {
				bt.FeeEntry = &i
			}
		}
		doc.Transfers = append(doc.Transfers, bt)
	}

	recs, err := ledger.ListRecurringsTx(ctx, q, memberID)
	if err != nil {
		return doc, fmt.Errorf("recurring entries of member %d: %w", memberID, err)
	}
	for _, r := range recs {
		cat, parent := refs.of(r.CategoryID)
		doc.Recurring = append(doc.Recurring, api.BackupRecurring{
			Name: r.Name, Type: api.BackupEntryType(r.Type), Amount: r.Amount, Wallet: nameOf(walletName, r.WalletID),
			Category: cat, CategoryParent: parent, Day: r.Day, Memo: r.Memo, AutoPost: &r.AutoPost,
		})
	}

	budgets, err := budget.ForBackupTx(ctx, q, db.ListBackupBudgetsParams{MemberID: memberID, Year: int32(month.Year()), Month: int32(month.Month())})
	if err != nil {
		return doc, fmt.Errorf("budgets of member %d: %w", memberID, err)
	}
	for _, b := range budgets {
		if cat, parent := refs.of(&b.CategoryID); cat != nil {
			doc.Budgets = append(doc.Budgets, api.BackupBudget{Category: *cat, CategoryParent: parent, Amount: b.Amount})
		}
	}
	onetime, err := budget.OnetimeForBackupTx(ctx, q, memberID)
	if err != nil {
		return doc, fmt.Errorf("one-time budgets of member %d: %w", memberID, err)
	}
	for _, o := range onetime {
		cat, parent := refs.of(o.CategoryID)
		*doc.OnetimeBudgets = append(*doc.OnetimeBudgets, api.BackupOnetimeBudget{
			Name: o.Name, Amount: o.Amount, StartDate: types.Date{Time: o.StartDate}, EndDate: types.Date{Time: o.EndDate},
			Category: cat, CategoryParent: parent,
		})
	}

	quick, err := ledger.ListQuickEntriesTx(ctx, q, memberID)
	if err != nil {
		return doc, fmt.Errorf("quick entries of member %d: %w", memberID, err)
	}
	for _, e := range quick {
		cat, parent := refs.of(e.CategoryID)
		tags := e.Tags
		if tags == nil {
			tags = []string{}
		}
		doc.QuickEntries = append(doc.QuickEntries, api.BackupQuickEntry{
			Name: e.Name, Type: api.BackupEntryType(e.Type), Amount: e.Amount, Wallet: nameOf(walletName, e.WalletID),
			Category: cat, CategoryParent: parent, Memo: e.Memo, Tags: tags,
		})
	}
	return doc, nil
}

func (h *BackupHandler) exportWallet(w db.Wallet) (api.BackupWallet, error) {
	out := api.BackupWallet{
		Name: w.Name, Type: api.WalletTypeValue(w.Type), OpeningBalance: w.OpeningBalance, LoanAmount: w.LoanAmount,
		LoanMonths: w.LoanMonths, LoanPayment: w.LoanPayment, ManualValuation: w.ManualValuation,
		CurrentValue: w.CurrentValue,
	}
	if w.AccountNumber != nil {
		plain, err := h.crypto.Open(w.MemberID, *w.AccountNumber)
		if err != nil {
			return out, fmt.Errorf("wallet %d: %w", w.ID, err)
		}
		out.AccountNumber = &plain
	}
	if w.LoanRate.Valid {
		out.LoanRate = ptr(w.LoanRate.Decimal.String())
	}
	if w.LoanMethod != nil {
		out.LoanMethod = ptr(api.NullableLoanMethodValue(*w.LoanMethod))
	}
	if w.LoanStart.Valid {
		out.LoanStart = &types.Date{Time: w.LoanStart.Time}
	}
	return out, nil
}

// categoryRefs names each category of an export by its (unique) name and
// its parent's.
type categoryRefs map[int64][2]string

func (r categoryRefs) of(id *int64) (name, parent *string) {
	if id == nil {
		return nil, nil
	}
	ref, ok := r[*id]
	if !ok {
		return nil, nil
	}
	name = &ref[0]
	if ref[1] != "" {
		parent = &ref[1]
	}
	return name, parent
}

// exportCategories lists the categories as a tree in sort order: each
// top-level category followed by its sub-categories.
func exportCategories(cats []db.AccountCategory, doc *api.Backup) categoryRefs {
	children := map[int64][]db.AccountCategory{}
	for _, c := range cats {
		if c.ParentID != nil {
			children[*c.ParentID] = append(children[*c.ParentID], c)
		}
	}
	refs := categoryRefs{}
	names := uniqueNames{}
	for _, top := range cats {
		if top.ParentID != nil {
			continue
		}
		name := names.take(top.Type+"\x00", top.Name)
		refs[top.ID] = [2]string{name, ""}
		doc.Categories = append(doc.Categories, api.BackupCategory{Name: name, Type: api.BackupEntryType(top.Type)})
		for _, c := range children[top.ID] {
			sub := names.take(c.Type+"\x00"+name+"\x00", c.Name)
			refs[c.ID] = [2]string{sub, name}
			doc.Categories = append(doc.Categories, api.BackupCategory{Name: sub, Type: api.BackupEntryType(c.Type), Parent: ptr(name)})
		}
	}
	return refs
}

// uniqueNames hands out names unique within a scope: a name a ledger
// repeats gets " (2)", " (3)" … so that every reference by name is
// unambiguous.
type uniqueNames map[string]bool

func (u uniqueNames) take(scope, name string) string {
	out := name
	for n := 2; u[scope+out]; n++ {
		suffix := fmt.Sprintf(" (%d)", n)
		base := name
		if utf8.RuneCountInString(base)+len(suffix) > maxNameRunes {
			base = string([]rune(base)[:maxNameRunes-len(suffix)])
		}
		out = strings.TrimSpace(base) + suffix
	}
	u[scope+out] = true
	return out
}

func nameOf(names map[int64]string, id *int64) *string {
	if id == nil {
		return nil
	}
	if n, ok := names[*id]; ok {
		return &n
	}
	return nil
}

func ptr[T any](v T) *T { return &v }
