// Package backup answers a member's whole ledger as one versioned document
// whose records refer to each other by name, and restores such a document in
// place of the member's ledger in one transaction.
package backup

import (
	"context"
	"fmt"
	"io"
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
	"github.com/nestegg/nestegg/internal/heavy"
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

// GetBackup streams the member's ledger as a backup document.
func (h *BackupHandler) GetBackup(ctx context.Context, _ api.GetBackupRequestObject) (api.GetBackupResponseObject, error) {
	p := session.PrincipalFrom(ctx)
	s, err := h.StartBackup(ctx, p.MemberID, h.currentMonth(p.MonthStartDay))
	if err != nil {
		return nil, err
	}
	return backupResponse{s: s}, nil
}

// pageSize is how many entries (or transfers) one query reads: a backup
// holds one page of them at a time, however large the ledger, and rests
// after each (heavy.Pacer). A page is encoded at full speed on one core, so
// its size is how long another member's request may wait for a core behind
// it: with 1,000 a neighbour's read p99 was 5.5x idle, with 250 3.4-4.7x,
// with 100 2.6-3.1x, while a 200,000-entry backup took 5.0, 5.7 and 7.7 s
// (BenchmarkNeighbourReadWhileHeavy, BenchmarkBackup200k; README).
const pageSize = 100

// Stream is a backup under way: a read-only transaction (one snapshot of the
// ledger, so that a write in between cannot leave a reference dangling), the
// records of every kind but entries and transfers read whole (the contract
// caps each kind at thousands; entries go to 200,000), the names entries and
// transfers refer to, and the first page of entries. Its WriteTo writes the
// document, reading entries and transfers a page at a time, and ends the
// transaction; so does Close.
type Stream struct {
	tx       pgx.Tx
	q        *db.Queries
	ctx      context.Context
	memberID int64
	// doc holds every record kind but entries and transfers.
	doc        api.Backup
	walletName map[int64]string
	refs       categoryRefs
	// feePosition maps the id of each transfer's fee entry to its position
	// among the document's entries, filled in as the entries are written
	// (transfers come after entries in the document).
	feePosition map[int64]int32
	entries     []db.ListBackupEntriesRow
	entryArg    db.ListBackupEntriesParams
	// pace rests between pages, so a backup takes about half a core
	// (heavy.Share) and leaves the rest to other members' requests.
	pace *heavy.Pacer
}

// StartBackup opens the snapshot and reads all but the entries and
// transfers, and the first page of entries, so that a failure to read them
// is still an error answer, not a cut document. The monthly budgets are
// those of month (the current ledger month).
func (h *BackupHandler) StartBackup(ctx context.Context, memberID int64, month calendar.Month) (*Stream, error) {
	tx, err := h.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, fmt.Errorf("backup of member %d: begin: %w", memberID, err)
	}
	s := &Stream{tx: tx, q: db.New(tx), ctx: ctx, memberID: memberID, pace: heavy.NewPacer(), entryArg: db.ListBackupEntriesParams{
		// Before every entry: the zero date and time.
		MemberID: memberID, AfterDate: time.Time{}, AfterCreated: time.Time{}, AfterID: 0, BatchSize: pageSize,
	}}
	if err := h.readHead(s, month); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.nextEntries(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// readHead reads every record kind but entries and transfers into s.doc.
func (h *BackupHandler) readHead(s *Stream, month calendar.Month) error {
	ctx, q, memberID := s.ctx, s.q, s.memberID
	doc := api.Backup{
		Version: Version, Wallets: []api.BackupWallet{}, Tags: []api.TagName{}, Categories: []api.BackupCategory{},
		Recurring: []api.BackupRecurring{}, QuickEntries: []api.BackupQuickEntry{}, Budgets: []api.BackupBudget{},
		OnetimeBudgets: &[]api.BackupOnetimeBudget{}, ExpectedIncomes: &[]api.BackupExpectedIncome{},
	}

	wallets, err := ledger.WalletsForBackupTx(ctx, q, memberID)
	if err != nil {
		return fmt.Errorf("wallets of member %d: %w", memberID, err)
	}
	s.walletName = map[int64]string{}
	names := uniqueNames{}
	for _, w := range wallets {
		bw, err := h.exportWallet(w)
		if err != nil {
			return err
		}
		bw.Name = names.take("", w.Name)
		s.walletName[w.ID] = bw.Name
		doc.Wallets = append(doc.Wallets, bw)
	}
	// A card's cycle names its paying wallet, which may come after it.
	for i, w := range wallets {
		if w.StatementDay != nil && w.PaymentDay != nil && w.PaymentWalletID != nil {
			doc.Wallets[i].Cycle = &api.BackupCardCycle{
				StatementDay: *w.StatementDay, PaymentDay: *w.PaymentDay, PaymentWallet: s.walletName[*w.PaymentWalletID],
			}
		}
	}

	tags, err := ledger.ListTagsTx(ctx, q, memberID)
	if err != nil {
		return fmt.Errorf("tags of member %d: %w", memberID, err)
	}
	for _, t := range tags {
		doc.Tags = append(doc.Tags, t.Name)
	}

	cats, err := ledger.ListCategoriesTx(ctx, q, memberID)
	if err != nil {
		return fmt.Errorf("categories of member %d: %w", memberID, err)
	}
	s.refs = exportCategories(cats, &doc)
	refs := s.refs

	fees, err := transfer.FeeEntryIDsTx(ctx, q, memberID)
	if err != nil {
		return fmt.Errorf("transfer fees of member %d: %w", memberID, err)
	}
	s.feePosition = make(map[int64]int32, len(fees))
	for _, id := range fees {
		s.feePosition[id] = -1 // not among the entries (yet)
	}

	recs, err := ledger.ListRecurringsTx(ctx, q, memberID)
	if err != nil {
		return fmt.Errorf("recurring entries of member %d: %w", memberID, err)
	}
	for _, r := range recs {
		cat, parent := refs.of(r.CategoryID)
		doc.Recurring = append(doc.Recurring, api.BackupRecurring{
			Name: r.Name, Type: api.BackupEntryType(r.Type), Amount: r.Amount, Wallet: nameOf(s.walletName, r.WalletID),
			Category: cat, CategoryParent: parent, Day: r.Day, Memo: r.Memo, AutoPost: &r.AutoPost,
		})
	}

	budgets, err := budget.ForBackupTx(ctx, q, db.ListBackupBudgetsParams{MemberID: memberID, Year: int32(month.Year()), Month: int32(month.Month())})
	if err != nil {
		return fmt.Errorf("budgets of member %d: %w", memberID, err)
	}
	for _, b := range budgets {
		if cat, parent := refs.of(&b.CategoryID); cat != nil {
			doc.Budgets = append(doc.Budgets, api.BackupBudget{Category: *cat, CategoryParent: parent, Amount: b.Amount})
		}
	}
	onetime, err := budget.OnetimeForBackupTx(ctx, q, memberID)
	if err != nil {
		return fmt.Errorf("one-time budgets of member %d: %w", memberID, err)
	}
	for _, o := range onetime {
		cat, parent := refs.of(o.CategoryID)
		*doc.OnetimeBudgets = append(*doc.OnetimeBudgets, api.BackupOnetimeBudget{
			Name: o.Name, Amount: o.Amount, StartDate: types.Date{Time: o.StartDate}, EndDate: types.Date{Time: o.EndDate},
			Category: cat, CategoryParent: parent,
		})
	}
	incomes, err := budget.IncomesForBackupTx(ctx, q, memberID)
	if err != nil {
		return fmt.Errorf("expected incomes of member %d: %w", memberID, err)
	}
	for _, in := range incomes {
		*doc.ExpectedIncomes = append(*doc.ExpectedIncomes, api.BackupExpectedIncome{Year: in.Year, Month: in.Month, Amount: in.Amount})
	}

	quick, err := ledger.ListQuickEntriesTx(ctx, q, memberID)
	if err != nil {
		return fmt.Errorf("quick entries of member %d: %w", memberID, err)
	}
	for _, e := range quick {
		cat, parent := refs.of(e.CategoryID)
		tags := e.Tags
		if tags == nil {
			tags = []string{}
		}
		doc.QuickEntries = append(doc.QuickEntries, api.BackupQuickEntry{
			Name: e.Name, Type: api.BackupEntryType(e.Type), Amount: e.Amount, Wallet: nameOf(s.walletName, e.WalletID),
			Category: cat, CategoryParent: parent, Memo: e.Memo, Tags: tags,
		})
	}
	s.doc = doc
	return nil
}

// nextEntries reads the page of entries after the last one read.
func (s *Stream) nextEntries() error {
	rows, err := ledger.EntriesForBackupTx(s.ctx, s.q, s.entryArg)
	if err != nil {
		return fmt.Errorf("entries of member %d: %w", s.memberID, err)
	}
	s.entries = rows
	if n := len(rows); n > 0 {
		last := rows[n-1]
		s.entryArg.AfterDate, s.entryArg.AfterCreated, s.entryArg.AfterID = last.EntryDate, last.CreatedAt, last.ID
	}
	return nil
}

// Close ends the backup's transaction.
func (s *Stream) Close() { _ = s.tx.Rollback(context.WithoutCancel(s.ctx)) }

// WriteTo writes the whole document to w and closes the backup. The bytes
// are those encoding/json's Encoder writes for the api.Backup the document
// is (members in the generated struct's order, HTML characters escaped, a
// final newline), as the generated GetBackup200JSONResponse wrote them when
// the document was built in memory first.
func (s *Stream) WriteTo(w io.Writer) (int64, error) {
	defer s.Close()
	cw := &countingWriter{w: w}
	e := newDocEncoder(cw)
	d := &s.doc
	e.raw(`{"budgets":`)
	e.value(d.Budgets)
	e.raw(`,"categories":`)
	e.value(d.Categories)
	e.raw(`,"entries":[`)
	if err := s.writeEntries(e); err != nil {
		return cw.n, err
	}
	e.raw(`],"expectedIncomes":`)
	e.value(d.ExpectedIncomes)
	e.raw(`,"onetimeBudgets":`)
	e.value(d.OnetimeBudgets)
	e.raw(`,"quickEntries":`)
	e.value(d.QuickEntries)
	e.raw(`,"recurring":`)
	e.value(d.Recurring)
	e.raw(`,"tags":`)
	e.value(d.Tags)
	e.raw(`,"transfers":[`)
	if err := s.writeTransfers(e); err != nil {
		return cw.n, err
	}
	e.raw(`],"version":`)
	e.value(d.Version)
	e.raw(`,"wallets":`)
	e.value(d.Wallets)
	e.raw("}\n")
	return cw.n, e.flush()
}

func (s *Stream) writeEntries(e *docEncoder) error {
	var position int32
	for len(s.entries) > 0 {
		for _, r := range s.entries {
			if _, ok := s.feePosition[r.ID]; ok {
				s.feePosition[r.ID] = position
			}
			if position > 0 {
				e.raw(",")
			}
			e.value(s.backupEntry(r))
			position++
		}
		if e.err != nil {
			return e.err
		}
		if len(s.entries) < pageSize {
			break
		}
		if err := s.pace.Rest(s.ctx); err != nil {
			return err
		}
		if err := s.nextEntries(); err != nil {
			return err
		}
	}
	s.entries = nil
	return nil
}

func (s *Stream) backupEntry(r db.ListBackupEntriesRow) api.BackupEntry {
	cat, parent := s.refs.of(r.CategoryID)
	be := api.BackupEntry{
		Date: types.Date{Time: r.EntryDate}, Type: api.BackupEntryType(r.Type), Amount: r.Amount,
		Wallet: nameOf(s.walletName, r.WalletID), Category: cat, CategoryParent: parent, Memo: r.Memo,
		Tags: r.Tags, Currency: r.Currency, InstallmentMonths: r.InstallmentMonths,
		Pending: r.Pending, NotifKey: r.NotifKey,
	}
	if be.Tags == nil {
		be.Tags = []string{}
	}
	if r.OriginalAmount.Valid {
		be.OriginalAmount = ptr(r.OriginalAmount.Decimal.String())
	}
	if r.ExchangeRate.Valid {
		be.ExchangeRate = ptr(r.ExchangeRate.Decimal.String())
	}
	return be
}

func (s *Stream) writeTransfers(e *docEncoder) error {
	arg := db.ListBackupTransfersParams{MemberID: s.memberID, AfterDate: time.Time{}, AfterID: 0, BatchSize: pageSize}
	first := true
	for {
		rows, err := transfer.ForBackupTx(s.ctx, s.q, arg)
		if err != nil {
			return fmt.Errorf("transfers of member %d: %w", s.memberID, err)
		}
		for _, t := range rows {
			from, to := nameOf(s.walletName, t.FromWalletID), nameOf(s.walletName, t.ToWalletID)
			if from == nil || to == nil {
				// Never: a transfer's sides always have wallets (a wallet
				// with entries is deleted only by moving them to another).
				return fmt.Errorf("transfer %d of member %d has a side without a wallet", t.ID, s.memberID)
			}
			bt := api.BackupTransfer{Date: types.Date{Time: t.TransferDate}, Amount: t.Amount, From: *from, To: *to, Memo: t.Memo}
			if t.FeeEntryID != nil {
				if i, ok := s.feePosition[*t.FeeEntryID]; ok && i >= 0 {
					bt.FeeEntry = &i
				}
			}
			if !first {
				e.raw(",")
			}
			first = false
			e.value(bt)
		}
		if e.err != nil {
			return e.err
		}
		if len(rows) < pageSize {
			return nil
		}
		if err := s.pace.Rest(s.ctx); err != nil {
			return err
		}
		last := rows[len(rows)-1]
		arg.AfterDate, arg.AfterID = last.TransferDate, last.ID
	}
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
