package backup

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/budget"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/changes"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/invest"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
	"github.com/nestegg/nestegg/internal/transfer"
)

var errEmptyBackup = problem.New(http.StatusBadRequest, problem.CodeEmptyBackup,
	"the backup holds no records: restoring it would only delete the ledger")

// Counts are how many records of each kind a restore recreated.
type Counts struct {
	Wallets, Tags, Categories, Entries, Transfers, Recurring, Budgets, OnetimeBudgets, QuickEntries, ExpectedIncomes int
}

// ServeRestore serves restoreBackup in place of the generated strict
// handler (the server routes the operation here), which would decode the
// whole document, up to 64 MiB, into memory before the restore begins. It
// restores from the body's bytes as withContract read and checked them,
// decoding the entries one at a time. Its answers are the operation's
// generated response and the problems every handler's errors become.
func (h *BackupHandler) ServeRestore(w http.ResponseWriter, r *http.Request) {
	body, err := bodyOf(r)
	if err == nil {
		var res api.RestoreBackupResponseObject
		if res, err = h.restore(r.Context(), body); err == nil {
			err = res.VisitRestoreBackupResponse(w)
		}
	}
	if err != nil {
		problem.Write(w, r, err)
	}
}

// bodyOf answers the request's body: the bytes the contract layer read,
// without a copy, when it offers them (Bytes).
func bodyOf(r *http.Request) ([]byte, error) {
	if b, ok := r.Body.(interface{ Bytes() []byte }); ok {
		return b.Bytes(), nil
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, problem.Invalid("body", "the request body could not be read")
	}
	return body, nil
}

// RestoreBackup replaces the member's ledger with the document's. The
// server serves the operation with ServeRestore; this is the strict
// interface's form of it, for a document already decoded.
func (h *BackupHandler) RestoreBackup(ctx context.Context, req api.RestoreBackupRequestObject) (api.RestoreBackupResponseObject, error) {
	body, err := json.Marshal(req.Body)
	if err != nil {
		return nil, fmt.Errorf("restore: encode the document: %w", err)
	}
	return h.restore(ctx, body)
}

func (h *BackupHandler) restore(ctx context.Context, body []byte) (api.RestoreBackupResponseObject, error) {
	p := session.PrincipalFrom(ctx)
	c, err := h.Restore(ctx, p.MemberID, h.currentMonth(p.MonthStartDay), body)
	if err != nil {
		return nil, err
	}
	if c.Entries > 0 {
		// The current month's days up to today may now all be covered.
		h.entryHook.Run(ctx, p.MemberID, p.MonthStartDay, calendar.Day(h.clock.Now(), h.loc))
	}
	return api.RestoreBackup200JSONResponse{
		Wallets: int32(c.Wallets), Tags: int32(c.Tags), Categories: int32(c.Categories), Entries: int32(c.Entries),
		Recurring: int32(c.Recurring), QuickEntries: int32(c.QuickEntries), Budgets: int32(c.Budgets),
		OnetimeBudgets: int32(c.OnetimeBudgets), Transfers: int32(c.Transfers), ExpectedIncomes: int32(c.ExpectedIncomes),
	}, nil
}

// Restore deletes the member's ledger and recreates it from body (a backup
// document, JSON) in one transaction, in SPEC.md's order: wallets, tags,
// categories, entries (with transfers, whose sides are entries), recurring,
// budgets (monthly, one-time, expected incomes), quick entries. Monthly
// budgets go into month, the member's current ledger month. Any error rolls
// all of it back. Free limits do not apply.
//
// Memory: body is held whole (the contract layer read it), entries are
// decoded one at a time, twice (document), and written a batch at a time;
// what grows with them is a few words an entry (ids, tag ids).
func (h *BackupHandler) Restore(ctx context.Context, memberID int64, month calendar.Month, body []byte) (Counts, error) {
	now := h.clock.Now().In(h.loc)
	doc, err := readDocument(ctx, body, now)
	if err != nil {
		return Counts{}, err
	}
	if doc.Version != Version {
		return Counts{}, problem.Invalid("/version", fmt.Sprintf("must be %d", Version))
	}
	if doc.OnetimeBudgets == nil {
		doc.OnetimeBudgets = &[]api.BackupOnetimeBudget{}
	}
	if doc.ExpectedIncomes == nil {
		doc.ExpectedIncomes = &[]api.BackupExpectedIncome{}
	}
	if len(doc.Wallets)+len(doc.Tags)+len(doc.Categories)+doc.entryCount+len(doc.Recurring)+
		len(doc.QuickEntries)+len(doc.Budgets)+len(*doc.OnetimeBudgets)+len(doc.Transfers)+len(*doc.ExpectedIncomes) == 0 {
		return Counts{}, errEmptyBackup
	}
	return database.InTxV(ctx, h.pool, func(q *db.Queries) (Counts, error) {
		r := &restorer{q: q, memberID: memberID, crypto: h.crypto, month: month, now: now}
		counts, err := r.run(ctx, doc)
		if err != nil {
			return Counts{}, err
		}
		// Every changes-feed cursor of the member ends with the ledger it
		// described: clients sync again from the empty cursor (410).
		return counts, changes.RestartTx(ctx, q, memberID)
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
	// entryIDs are the ids of the document's entries, by position;
	// transferIDs those of its transfers.
	entryIDs, transferIDs []int64
	// month is the current ledger month, which budgets go into.
	month calendar.Month
	// now is the time in the service time zone: restored recurring entries
	// post from their first occurrence on or after its date.
	now time.Time
}

func (r *restorer) run(ctx context.Context, doc *document) (Counts, error) {
	// The ledger's lock, exclusively (ledger/locks.go): every write of the
	// ledger holds it shared, so none is halfway while the ledger is
	// deleted and recreated, and those that come meanwhile wait for it.
	if err := ledger.LockLedgerTx(ctx, r.q, r.memberID); err != nil {
		return Counts{}, err
	}
	// Transfers first (their sides are entries), and investments, which
	// restore deletes without recreating them (SPEC.md section 4).
	if err := transfer.DeleteAllTx(ctx, r.q, r.memberID); err != nil {
		return Counts{}, err
	}
	if err := invest.DeleteInvestTx(ctx, r.q, r.memberID); err != nil {
		return Counts{}, err
	}
	// Budgets of every month (the document holds one month's).
	if err := budget.DeleteAllTx(ctx, r.q, r.memberID); err != nil {
		return Counts{}, fmt.Errorf("delete budgets of member %d: %w", r.memberID, err)
	}
	if err := budget.DeleteAllOnetimeTx(ctx, r.q, r.memberID); err != nil {
		return Counts{}, fmt.Errorf("delete one-time budgets of member %d: %w", r.memberID, err)
	}
	// Expected incomes of every month: a document without them (written
	// before backups carried them) leaves none, as restore leaves nothing
	// else the document lacks.
	if err := budget.DeleteAllIncomesTx(ctx, r.q, r.memberID); err != nil {
		return Counts{}, fmt.Errorf("delete expected incomes of member %d: %w", r.memberID, err)
	}
	if err := ledger.DeleteLedgerTx(ctx, r.q, r.memberID); err != nil {
		return Counts{}, err
	}
	steps := []func(context.Context, *document) error{
		r.restoreWallets, r.restoreTags, r.restoreCategories, r.restoreEntries, r.restoreRecurring,
		r.restoreBudgets, r.restoreQuickEntries,
	}
	for _, step := range steps {
		if err := step(ctx, doc); err != nil {
			return Counts{}, err
		}
	}
	// A document whose balances, month totals or net worth pass int64 (a
	// backup of a ledger stored before the write check, say) is refused
	// whole: restored, it would lock its member out of reads.
	if err := ledger.CheckAllTotalsTx(ctx, r.q, r.memberID); err != nil {
		return Counts{}, err
	}
	return Counts{
		Wallets: len(doc.Wallets), Tags: len(r.tags), Categories: len(doc.Categories), Entries: doc.entryCount,
		Transfers: len(doc.Transfers), Recurring: len(doc.Recurring), Budgets: len(doc.Budgets),
		OnetimeBudgets: len(*doc.OnetimeBudgets), QuickEntries: len(doc.QuickEntries),
		ExpectedIncomes: len(*doc.ExpectedIncomes),
	}, nil
}

func (r *restorer) restoreWallets(ctx context.Context, doc *document) error {
	r.wallets = make(map[string]db.Wallet, len(doc.Wallets))
	for i, w := range doc.Wallets {
		at := fmt.Sprintf("/wallets/%d", i)
		req := api.WalletRequest{
			Name: w.Name, Type: api.WalletType(w.Type), OpeningBalance: ptr(w.OpeningBalance), AccountNumber: w.AccountNumber,
			LoanAmount: w.LoanAmount, LoanRate: w.LoanRate, LoanMethod: (*api.LoanMethod)(w.LoanMethod), LoanMonths: w.LoanMonths,
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
	// Cycles once every wallet exists: a card may name a wallet after it.
	for i, w := range doc.Wallets {
		if w.Cycle == nil {
			continue
		}
		at := fmt.Sprintf("/wallets/%d/cycle", i)
		payer, ok := r.wallets[strings.TrimSpace(w.Cycle.PaymentWallet)]
		if !ok {
			return problem.Invalid(at+"/paymentWallet", "names no wallet of the document")
		}
		card := r.wallets[strings.TrimSpace(w.Name)]
		if card.Type != "CARD" {
			return problem.Invalid(at+"/statementDay", "only a CARD wallet has a statement cycle")
		}
		err := ledger.SetCardCycleTx(ctx, r.q, r.memberID, card.ID, w.Cycle.StatementDay, w.Cycle.PaymentDay, payer.ID)
		if pe, isProblem := problem.As(err); isProblem && len(pe.Fields) == 1 && pe.Fields[0].Field == "/paymentWalletId" {
			return problem.Invalid(at+"/paymentWallet", "must name a wallet of the document that is not a CARD nor this card")
		}
		if err != nil {
			return under(at, err)
		}
	}
	return nil
}

// restoreTags creates the listed tags in order, then the ones entries and
// quick entries name that the list lacks.
func (r *restorer) restoreTags(ctx context.Context, doc *document) error {
	var names []string
	seen := map[string]bool{}
	add := func(field, name string) error {
		n, err := ledger.TagName(field, name)
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
	// The entries' names were cleaned as the document was read.
	if doc.entryTagErr != nil {
		return doc.entryTagErr
	}
	for _, t := range doc.entryTags {
		if err := add("", t); err != nil {
			return err
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
	rows, err := ledger.EnsureTagRowsTx(ctx, r.q, db.EnsureTagsParams{MemberID: r.memberID, Names: names})
	if err != nil {
		return fmt.Errorf("restore tags: %w", err)
	}
	for _, row := range rows {
		r.tags[row.Name] = row.ID
	}
	return nil
}

// restoreCategories creates the top-level categories first, then the
// sub-categories, each in the document's order.
func (r *restorer) restoreCategories(ctx context.Context, doc *document) error {
	r.categories = map[[3]string]int64{}
	for _, subs := range []bool{false, true} {
		for i, c := range doc.Categories {
			if (c.Parent != nil) != subs {
				continue
			}
			at := fmt.Sprintf("/categories/%d", i)
			in, err := ledger.CategoryInputFrom(api.CategoryRequest{Name: c.Name, Type: entryType(c.Type)})
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

// copyBatch is how many entries one COPY writes: the rows of one batch are
// what a restore holds of its entries at a time.
const copyBatch = 2000

// restoreEntries checks the entries one at a time as it decodes them and
// writes them with COPY a batch at a time (a decade of entries is a few
// hundred statements, not tens of thousands), then the transfers and their
// sides, which follow the document's entries; entry tags and fees are linked
// last. A refused entry found after batches were written rolls them back
// with the rest.
func (r *restorer) restoreEntries(ctx context.Context, doc *document) error {
	batch := make([]db.CopyEntriesParams, 0, min(copyBatch, doc.entryCount))
	// Entry i's tags are tagIDs[tagEnd[i-1]:tagEnd[i]] (from 0 for entry 0):
	// a few words an entry, linked once the entries have ids.
	tagEnd := make([]int32, 0, doc.entryCount)
	var tagIDs []int64
	notifKeys := map[string]bool{}
	write := func() error {
		if len(batch) == 0 {
			return nil
		}
		if _, err := ledger.CopyEntriesTx(ctx, r.q, batch); err != nil {
			return fmt.Errorf("restore entries: %w", err)
		}
		clear(batch) // the rows' strings are garbage once written
		batch = batch[:0]
		return nil
	}
	err := doc.eachEntry(ctx, func(i int, e *api.BackupEntry) error {
		at := fmt.Sprintf("/entries/%d", i)
		row, err := r.entryRow(at, e)
		if err != nil {
			return err
		}
		// A key two entries share: the unique index would refuse it too,
		// with a less helpful error.
		if e.NotifKey != nil {
			if notifKeys[*e.NotifKey] {
				return problem.Invalid(at+"/notifKey", "repeats the key of another entry")
			}
			notifKeys[*e.NotifKey] = true
		}
		start := len(tagIDs)
		for _, t := range e.Tags {
			if id := r.tags[strings.TrimSpace(t)]; !slices.Contains(tagIDs[start:], id) {
				tagIDs = append(tagIDs, id)
			}
		}
		tagEnd = append(tagEnd, int32(len(tagIDs)))
		if batch = append(batch, row); len(batch) == copyBatch {
			return write()
		}
		return nil
	})
	if err == nil {
		err = write()
	}
	if err != nil {
		return err
	}
	sides, err := r.restoreTransfers(ctx, doc)
	if err != nil {
		return err
	}
	if len(sides) > 0 {
		if _, err := ledger.CopyEntriesTx(ctx, r.q, sides); err != nil {
			return fmt.Errorf("restore transfer sides: %w", err)
		}
	}
	// The entries this transaction inserted, in id order, are the
	// document's, then the sides (an entry the member writes meanwhile is
	// not among them: the ledger lock holds writes off).
	ids, err := ledger.InsertedEntryIDsTx(ctx, r.q, r.memberID)
	if err != nil {
		return fmt.Errorf("restored entry ids: %w", err)
	}
	if len(ids) != doc.entryCount+len(sides) {
		return fmt.Errorf("restore entries: %d rows written, %d found", doc.entryCount+len(sides), len(ids))
	}
	r.entryIDs = ids[:doc.entryCount]
	if err := r.linkTags(ctx, tagEnd, tagIDs); err != nil {
		return err
	}
	return r.linkFees(ctx, doc)
}

// entryRow checks an entry of the document and answers its row.
func (r *restorer) entryRow(at string, e *api.BackupEntry) (db.CopyEntriesParams, error) {
	amount := e.Amount
	in, err := ledger.EntryInputFrom(api.EntryRequest{
		Date: e.Date, Type: entryType(e.Type), Amount: &amount, Memo: &e.Memo, Tags: &e.Tags, Currency: e.Currency,
		OriginalAmount: e.OriginalAmount, ExchangeRate: e.ExchangeRate, InstallmentMonths: e.InstallmentMonths,
	}, true)
	if err != nil {
		return db.CopyEntriesParams{}, under(at, err)
	}
	walletID, categoryID, walletType, err := r.refs(at, in.Type, e.Wallet, e.Category, e.CategoryParent)
	if err != nil {
		return db.CopyEntriesParams{}, err
	}
	if in.InstallmentMonths != nil && (in.Type != ledger.TypeExpense || walletType != "CARD") {
		return db.CopyEntriesParams{}, problem.Invalid(at+"/installmentMonths", "only for an expense on a CARD wallet")
	}
	return db.CopyEntriesParams{
		MemberID: r.memberID, WalletID: walletID, CategoryID: categoryID, Type: in.Type, Amount: in.Amount,
		EntryDate: in.Date, Memo: in.Memo, Currency: in.Currency, OriginalAmount: in.OriginalAmount,
		ExchangeRate: in.ExchangeRate, InstallmentMonths: in.InstallmentMonths, Pending: e.Pending, NotifKey: e.NotifKey,
	}, nil
}

// linkTags writes the restored entries' tags, a batch at a time: entry i's
// are tagIDs[tagEnd[i-1]:tagEnd[i]].
func (r *restorer) linkTags(ctx context.Context, tagEnd []int32, tagIDs []int64) error {
	links := make([]db.CopyEntryTagsParams, 0, min(copyBatch, len(tagIDs)))
	write := func() error {
		if len(links) == 0 {
			return nil
		}
		if _, err := ledger.CopyEntryTagsTx(ctx, r.q, links); err != nil {
			return fmt.Errorf("restore entry tags: %w", err)
		}
		links = links[:0]
		return nil
	}
	var start int32
	for i, end := range tagEnd {
		for _, id := range tagIDs[start:end] {
			links = append(links, db.CopyEntryTagsParams{EntryID: r.entryIDs[i], TagID: id})
		}
		start = end
		if len(links) >= copyBatch {
			if err := write(); err != nil {
				return err
			}
		}
	}
	return write()
}

// restoreTransfers checks the transfers, writes their rows and answers their
// sides as entry rows to write: the expense leaving `from`, the income
// reaching `to`. Two sides on one wallet (a wallet deleted with its entries
// moved to the other) are kept as the ledger had them.
func (r *restorer) restoreTransfers(ctx context.Context, doc *document) ([]db.CopyEntriesParams, error) {
	if len(doc.Transfers) == 0 {
		return nil, nil
	}
	inputs := make([]transfer.Input, len(doc.Transfers))
	rows := make([]db.CopyTransfersParams, len(doc.Transfers))
	feeOf := map[int32]int{}
	for i, t := range doc.Transfers {
		at := fmt.Sprintf("/transfers/%d", i)
		from, ok := r.wallets[strings.TrimSpace(t.From)]
		if !ok {
			return nil, problem.Invalid(at+"/from", "names no wallet of the document")
		}
		to, ok := r.wallets[strings.TrimSpace(t.To)]
		if !ok {
			return nil, problem.Invalid(at+"/to", "names no wallet of the document")
		}
		memo := t.Memo
		in, err := transfer.InputFrom(api.TransferRequest{Date: t.Date, Amount: t.Amount, FromWalletID: from.ID, ToWalletID: to.ID, Memo: &memo})
		if err != nil {
			return nil, under(at, err)
		}
		if f := t.FeeEntry; f != nil {
			if *f < 0 || int(*f) >= doc.entryCount {
				return nil, problem.Invalid(at+"/feeEntry", fmt.Sprintf("must be the position of an entry, 0 to %d", doc.entryCount-1))
			}
			if j, taken := feeOf[*f]; taken {
				return nil, problem.Invalid(at+"/feeEntry", fmt.Sprintf("is the fee of transfer %d already", j))
			}
			feeOf[*f] = i
		}
		inputs[i] = in
		rows[i] = db.CopyTransfersParams{MemberID: r.memberID, TransferDate: in.From.Date, Amount: in.From.Amount, Memo: in.From.Memo}
	}
	if _, err := transfer.CopyTx(ctx, r.q, rows); err != nil {
		return nil, fmt.Errorf("restore transfers: %w", err)
	}
	// As with entries: the transfers this transaction inserted, in id order.
	ids, err := transfer.InsertedIDsTx(ctx, r.q, r.memberID)
	if err != nil {
		return nil, fmt.Errorf("restored transfer ids: %w", err)
	}
	if len(ids) != len(rows) {
		return nil, fmt.Errorf("restore transfers: %d rows written, %d found", len(rows), len(ids))
	}
	r.transferIDs = ids
	sides := make([]db.CopyEntriesParams, 0, 2*len(inputs))
	for i, in := range inputs {
		for _, e := range []ledger.EntryInput{in.From, in.To} {
			sides = append(sides, db.CopyEntriesParams{
				MemberID: r.memberID, WalletID: e.WalletID, Type: e.Type, Amount: e.Amount, EntryDate: e.Date,
				Memo: e.Memo, TransferID: &ids[i],
			})
		}
	}
	return sides, nil
}

// linkFees points each transfer with a fee at its entry.
func (r *restorer) linkFees(ctx context.Context, doc *document) error {
	var transfers, entries []int64
	for i, t := range doc.Transfers {
		if t.FeeEntry != nil {
			transfers = append(transfers, r.transferIDs[i])
			entries = append(entries, r.entryIDs[*t.FeeEntry])
		}
	}
	if len(transfers) == 0 {
		return nil
	}
	n, err := transfer.SetFeesTx(ctx, r.q, db.SetTransferFeesParams{MemberID: r.memberID, TransferIds: transfers, EntryIds: entries})
	if err != nil {
		return fmt.Errorf("link transfer fees: %w", err)
	}
	if int(n) != len(transfers) {
		return fmt.Errorf("link transfer fees: %d of %d linked", n, len(transfers))
	}
	return nil
}

// restoreBudgets puts the monthly budgets into the current ledger month,
// recreates the one-time budgets with their dates and the expected incomes
// in their months.
func (r *restorer) restoreBudgets(ctx context.Context, doc *document) error {
	budgeted := map[int64]int{}
	for i, b := range doc.Budgets {
		at := fmt.Sprintf("/budgets/%d", i)
		category := b.Category
		_, categoryID, _, err := r.refs(at, ledger.TypeExpense, nil, &category, b.CategoryParent)
		if err != nil {
			return err
		}
		if j, dup := budgeted[*categoryID]; dup {
			return problem.Invalid(at+"/category", fmt.Sprintf("is budgeted by budget %d already", j))
		}
		budgeted[*categoryID] = i
		if _, err := budget.CreateBudgetTx(ctx, r.q, r.memberID, budget.Budget{
			CategoryID: *categoryID, Year: int32(r.month.Year()), Month: int32(r.month.Month()), Amount: b.Amount,
		}); err != nil {
			return under(at, err)
		}
	}
	for i, o := range *doc.OnetimeBudgets {
		at := fmt.Sprintf("/onetimeBudgets/%d", i)
		_, categoryID, _, err := r.refs(at, ledger.TypeExpense, nil, o.Category, o.CategoryParent)
		if err != nil {
			return err
		}
		if err := budget.CreateOnetimeTx(ctx, r.q, r.memberID, api.OnetimeBudgetRequest{
			Name: o.Name, Amount: o.Amount, StartDate: o.StartDate, EndDate: o.EndDate, CategoryID: categoryID,
		}); err != nil {
			return under(at, err)
		}
	}
	incomes := make([]budget.Income, len(*doc.ExpectedIncomes))
	for i, in := range *doc.ExpectedIncomes {
		incomes[i] = budget.Income{Year: in.Year, Month: in.Month, Amount: in.Amount}
	}
	return under("/expectedIncomes", budget.CreateIncomesTx(ctx, r.q, r.memberID, incomes))
}

func (r *restorer) restoreRecurring(ctx context.Context, doc *document) error {
	for i, rec := range doc.Recurring {
		at := fmt.Sprintf("/recurring/%d", i)
		in, err := ledger.RecurringInputFrom(api.RecurringRequest{
			Name: rec.Name, Type: entryType(rec.Type), Amount: rec.Amount, Day: rec.Day, Memo: &rec.Memo, AutoPost: rec.AutoPost,
		})
		if err != nil {
			return under(at, err)
		}
		if in.WalletID, in.CategoryID, _, err = r.refs(at, in.Type, rec.Wallet, rec.Category, rec.CategoryParent); err != nil {
			return err
		}
		// A restored recurring entry is a new row, with no record of what
		// the old one posted (recurring_post, next_month): from the day of
		// the restore, it would post today's occurrence again when the job
		// posted it before the restore and the document holds that entry
		// (issue 41). Such an occurrence counts as posted: it starts with
		// the next one.
		from := r.now
		if holdsTodaysOccurrence(doc.today, rec, r.now) {
			from = r.now.AddDate(0, 0, 1)
		}
		if _, err := ledger.CreateRecurringTx(ctx, r.q, r.memberID, in, from); err != nil {
			return under(at, err)
		}
	}
	return nil
}

// holdsTodaysOccurrence says whether rec falls on now's day (a day past the
// month's end falls on its last day) and entries hold the entry its posting
// makes that day: its date, type, amount, wallet, category and memo (its
// name when the memo is empty), pending or confirmed since.
func holdsTodaysOccurrence(entries []api.BackupEntry, rec api.BackupRecurring, now time.Time) bool {
	y, m, d := now.Date()
	if min(int(rec.Day), time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()) != d {
		return false
	}
	memo := strings.TrimSpace(rec.Memo)
	if memo == "" {
		memo = strings.TrimSpace(rec.Name)
	}
	same := func(a, b *string) bool {
		if a == nil || b == nil {
			return a == b
		}
		return strings.TrimSpace(*a) == strings.TrimSpace(*b)
	}
	for _, e := range entries {
		ey, em, ed := e.Date.Time.Date()
		if ey == y && em == m && ed == d && entryType(e.Type) == entryType(rec.Type) && e.Amount == rec.Amount &&
			strings.TrimSpace(e.Memo) == memo && same(e.Wallet, rec.Wallet) && same(e.Category, rec.Category) &&
			same(e.CategoryParent, rec.CategoryParent) {
			return true
		}
	}
	return false
}

func (r *restorer) restoreQuickEntries(ctx context.Context, doc *document) error {
	for i, e := range doc.QuickEntries {
		at := fmt.Sprintf("/quickEntries/%d", i)
		tags := e.Tags
		in, err := ledger.QuickEntryInputFrom(api.QuickEntryRequest{
			Name: e.Name, Type: entryType(e.Type), Amount: e.Amount, Memo: &e.Memo, Tags: &tags,
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

// entryType reads a backup's entry type: documents written before the type
// values became lower case carry INCOME and EXPENSE, which mean the same.
func entryType(t api.BackupEntryType) api.EntryType {
	return api.EntryType(strings.ToLower(string(t)))
}
