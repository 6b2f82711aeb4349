package csvio

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strconv"
	"time"

	"github.com/oapi-codegen/runtime/types"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
	"github.com/nestegg/nestegg/internal/settings"
	"github.com/nestegg/nestegg/internal/transfer"
)

// Bounds of the report's lists.
const (
	maxPreview    = 100
	maxDuplicates = 100
)

// hardMaxBytes is the contract's ceiling on the file (its body limit less
// the multipart envelope); the setting may only lower it.
const hardMaxBytes = 32 << 20

// ImportEntries creates entries from a CSV file, or in a dry run only
// answers what it would create.
func (h *CSVHandler) ImportEntries(ctx context.Context, req api.ImportEntriesRequestObject) (api.ImportEntriesResponseObject, error) {
	p := session.PrincipalFrom(ctx)
	maxBytes, maxRows, err := settings.CSVImportLimits(ctx, db.New(h.pool))
	if err != nil {
		return nil, err
	}
	file, mapping, err := readParts(req.Body, min(maxBytes, hardMaxBytes))
	if err != nil {
		return nil, err
	}
	dryRun := req.Params.DryRun != nil && *req.Params.DryRun
	rep, err := h.Import(ctx, p.MemberID, file, mapping, maxRows, dryRun)
	if err != nil {
		return nil, err
	}
	if !dryRun && rep.Created > 0 {
		h.entryHook.Run(ctx, p.MemberID, p.MonthStartDay, calendar.Day(h.clock.Now(), h.loc))
	}
	return api.ImportEntries200JSONResponse(rep), nil
}

// Import reads the file and creates its valid, non-duplicate rows in one
// transaction (none in a dry run), answering the report.
func (h *CSVHandler) Import(ctx context.Context, memberID int64, file []byte, m *api.CsvImportMapping, maxRows int64, dryRun bool) (api.CsvImportReport, error) {
	sh, err := parseFile(ctx, file, m, maxRows)
	if err != nil {
		return api.CsvImportReport{}, err
	}
	return database.InTxV(ctx, h.pool, func(q *db.Queries) (api.CsvImportReport, error) {
		im := &importer{q: q, memberID: memberID, sheet: sh, dryRun: dryRun}
		return im.run(ctx)
	})
}

type importer struct {
	q        *db.Queries
	memberID int64
	sheet    sheet
	dryRun   bool

	wallets map[string][]db.Wallet
	// categories by type then path ("parent/child" or a top-level name),
	// and by type then leaf name.
	byPath, byLeaf map[string]map[string][]int64
	catName        map[int64]string
}

// resolved is a row ready to write.
type resolved struct {
	*row
	walletID, categoryID *int64
	hash                 []byte
	dup                  api.CsvDuplicateReasonValue
}

func (im *importer) run(ctx context.Context) (api.CsvImportReport, error) {
	rep := api.CsvImportReport{
		DryRun: im.dryRun, Format: api.CsvFormatValue("MAPPED"), Rows: int32(len(im.sheet.rows)),
		Preview: []api.CsvImportRow{}, DuplicateRows: []api.CsvImportDuplicate{}, Errors: []api.CsvImportError{},
	}
	if im.sheet.own {
		rep.Format = api.CsvFormatValue("NESTEGG")
	}
	if !im.dryRun {
		// The ledger's lock, shared, as every ledger write, then the
		// member's reservation lock: two imports of one file cannot both
		// find its rows new (ledger/locks.go).
		if err := ledger.LockReservationsTx(ctx, im.q, im.memberID); err != nil {
			return rep, err
		}
	}
	if err := im.load(ctx); err != nil {
		return rep, err
	}
	rows := make([]*resolved, 0, len(im.sheet.rows))
	for _, r := range im.sheet.rows {
		rs := &resolved{row: r}
		if r.err == nil {
			im.resolve(rs)
		}
		rows = append(rows, rs)
	}
	pairTransfers(rows)
	if err := im.markDuplicates(ctx, rows); err != nil {
		return rep, err
	}
	var create []*resolved
	for _, r := range rows {
		switch {
		case r.err != nil:
			rep.Invalid++
			if len(rep.Errors) < problem.MaxFieldErrors {
				rep.Errors = append(rep.Errors, *r.err)
			} else {
				rep.ErrorsTruncated = true
			}
		case r.dup != "":
			rep.Duplicates++
			if len(rep.DuplicateRows) < maxDuplicates {
				rep.DuplicateRows = append(rep.DuplicateRows, api.CsvImportDuplicate{Row: int32(r.line), Reason: r.dup})
			} else {
				rep.DuplicatesTruncated = true
			}
		default:
			create = append(create, r)
			if len(rep.Preview) < maxPreview {
				rep.Preview = append(rep.Preview, previewRow(r))
			} else {
				rep.PreviewTruncated = true
			}
		}
	}
	rep.Created = int32(len(create))
	if im.dryRun || len(create) == 0 {
		return rep, nil
	}
	return rep, im.write(ctx, create)
}

func previewRow(r *resolved) api.CsvImportRow {
	out := api.CsvImportRow{Row: int32(r.line), Date: types.Date{Time: r.date}, Type: api.EntryType(r.typ), Amount: r.amount, Memo: r.memo}
	if r.walletID != nil {
		out.Wallet = &r.wallet
	}
	if r.categoryID != nil {
		out.Category = &r.category
	}
	if r.transfer != "" {
		out.TransferID = &r.transfer
	}
	return out
}

// load reads the member's wallets and categories, by name.
func (im *importer) load(ctx context.Context) error {
	ws, err := ledger.WalletsForBackupTx(ctx, im.q, im.memberID)
	if err != nil {
		return fmt.Errorf("wallets of member %d: %w", im.memberID, err)
	}
	im.wallets = map[string][]db.Wallet{}
	for _, w := range ws {
		im.wallets[w.Name] = append(im.wallets[w.Name], w)
	}
	cats, err := ledger.ListCategoriesTx(ctx, im.q, im.memberID)
	if err != nil {
		return fmt.Errorf("categories of member %d: %w", im.memberID, err)
	}
	names := map[int64]string{}
	for _, c := range cats {
		names[c.ID] = c.Name
	}
	im.byPath, im.byLeaf, im.catName = map[string]map[string][]int64{}, map[string]map[string][]int64{}, map[int64]string{}
	for _, c := range cats {
		path := c.Name
		if c.ParentID != nil {
			path = names[*c.ParentID] + "/" + c.Name
		}
		im.catName[c.ID] = path
		for _, m := range []struct {
			to  map[string]map[string][]int64
			key string
		}{{im.byPath, path}, {im.byLeaf, c.Name}} {
			if m.to[c.Type] == nil {
				m.to[c.Type] = map[string][]int64{}
			}
			m.to[c.Type][m.key] = append(m.to[c.Type][m.key], c.ID)
		}
	}
	return nil
}

// resolve finds the row's wallet and category among the member's.
func (im *importer) resolve(r *resolved) {
	var wallet *db.Wallet
	if r.wallet != "" {
		switch ws := im.wallets[r.wallet]; len(ws) {
		case 0:
			r.fail(r.walletCol, fmt.Sprintf("no wallet is named %q", r.wallet))
			return
		case 1:
			wallet = &ws[0]
			r.walletID = &ws[0].ID
		default:
			r.fail(r.walletCol, fmt.Sprintf("%d wallets are named %q", len(ws), r.wallet))
			return
		}
	}
	if r.category != "" {
		ids := im.byPath[r.typ][r.category]
		if len(ids) == 0 {
			ids = im.byLeaf[r.typ][r.category]
		}
		switch len(ids) {
		case 0:
			r.fail(r.categoryCol, fmt.Sprintf("no %s category is named %q", r.typ, r.category))
			return
		case 1:
			r.categoryID = &ids[0]
			r.category = im.catName[ids[0]]
		default:
			r.fail(r.categoryCol, fmt.Sprintf("%q names %d %s categories: write parent/child", r.category, len(ids), r.typ))
			return
		}
	}
	if r.months != nil && (r.typ != ledger.TypeExpense || wallet == nil || wallet.Type != "CARD") {
		r.fail("installment_months", "only for an expense on a CARD wallet")
	}
}

// pairTransfers checks that each transfer id of the file names exactly two
// valid rows: an expense and an income of the same date and amount.
func pairTransfers(rows []*resolved) {
	sides := map[string][]*resolved{}
	for _, r := range rows {
		if r.transfer != "" {
			sides[r.transfer] = append(sides[r.transfer], r)
		}
	}
	for _, s := range sides {
		ok := len(s) == 2 && s[0].err == nil && s[1].err == nil && s[0].typ != s[1].typ &&
			s[0].date.Equal(s[1].date) && s[0].amount == s[1].amount && s[0].walletID != nil && s[1].walletID != nil &&
			*s[0].walletID != *s[1].walletID
		if ok {
			continue
		}
		for _, r := range s {
			r.fail("transfer_id", "a transfer needs its two rows: an expense and an income of one date and amount, each with a wallet of its own")
		}
	}
}

// markDuplicates marks the rows an earlier import created and those whose
// date, type, amount and memo an existing entry has (counted: one entry
// makes one row a duplicate). A transfer's side makes its pair one.
func (im *importer) markDuplicates(ctx context.Context, rows []*resolved) error {
	var days []time.Time
	seenDay := map[time.Time]bool{}
	occurrence := map[string]int{}
	var hashes [][]byte
	for _, r := range rows {
		if r.err != nil {
			continue
		}
		if !seenDay[r.date] {
			seenDay[r.date] = true
			days = append(days, r.date)
		}
		base := fmt.Sprintf("%s\x1f%s\x1f%d\x1f%s\x1f%s\x1f%s", r.date.Format(time.DateOnly), r.typ, r.amount, r.memo, r.wallet, r.category)
		occurrence[base]++
		sum := sha256.Sum256([]byte(base + "\x1f" + strconv.Itoa(occurrence[base])))
		r.hash = sum[:]
		hashes = append(hashes, r.hash)
	}
	if len(hashes) == 0 {
		return nil
	}
	seen, err := im.q.ListImportedRowHashes(ctx, db.ListImportedRowHashesParams{MemberID: im.memberID, Hashes: hashes})
	if err != nil {
		return fmt.Errorf("imported rows of member %d: %w", im.memberID, err)
	}
	imported := map[string]bool{}
	for _, h := range seen {
		imported[string(h)] = true
	}
	counts, err := ledger.CountEntriesByKeyTx(ctx, im.q, db.CountEntriesByKeyParams{MemberID: im.memberID, Days: days})
	if err != nil {
		return fmt.Errorf("entries of member %d: %w", im.memberID, err)
	}
	type key struct {
		date   string
		typ    string
		amount int64
		memo   string
	}
	existing := map[key]int{}
	for _, c := range counts {
		existing[key{c.EntryDate.Format(time.DateOnly), c.Type, c.Amount, c.Memo}] = int(c.N)
	}
	dupTransfer := map[string]api.CsvDuplicateReasonValue{}
	for _, r := range rows {
		if r.err != nil {
			continue
		}
		k := key{r.date.Format(time.DateOnly), r.typ, r.amount, r.memo}
		same := existing[k] > 0
		if same {
			existing[k]--
		}
		switch {
		case imported[string(r.hash)]:
			r.dup = api.CsvDuplicateReasonValue("IMPORTED_BEFORE")
		case same:
			r.dup = api.CsvDuplicateReasonValue("SAME_ENTRY")
		}
		if r.dup != "" && r.transfer != "" && dupTransfer[r.transfer] == "" {
			dupTransfer[r.transfer] = r.dup
		}
	}
	for _, r := range rows {
		if reason := dupTransfer[r.transfer]; r.err == nil && r.transfer != "" && reason != "" && r.dup == "" {
			r.dup = reason
		}
	}
	return nil
}

// write creates the rows: ordinary entries in one COPY with their tags,
// transfers one by one through the transfer area, and a hash of each row.
func (im *importer) write(ctx context.Context, rows []*resolved) error {
	var plain []*resolved
	transfers := map[string][]*resolved{}
	var order []string
	for _, r := range rows {
		if r.transfer == "" {
			plain = append(plain, r)
			continue
		}
		if transfers[r.transfer] == nil {
			order = append(order, r.transfer)
		}
		transfers[r.transfer] = append(transfers[r.transfer], r)
	}
	var marks []db.CopyImportedRowsParams
	// What the rows move, for the write check at the end.
	var moved ledger.Totals
	if len(plain) > 0 {
		params := make([]db.CopyEntriesParams, len(plain))
		for i, r := range plain {
			params[i] = db.CopyEntriesParams{
				MemberID: im.memberID, WalletID: r.walletID, CategoryID: r.categoryID, Type: r.typ, Amount: r.amount,
				EntryDate: r.date, Memo: r.memo, Currency: r.currency, OriginalAmount: r.original, ExchangeRate: r.rate,
				InstallmentMonths: r.months,
			}
		}
		if _, err := ledger.CopyEntriesTx(ctx, im.q, params); err != nil {
			return fmt.Errorf("import entries of member %d: %w", im.memberID, err)
		}
		ids, err := ledger.InsertedEntryIDsTx(ctx, im.q, im.memberID)
		if err != nil {
			return fmt.Errorf("ids of imported entries of member %d: %w", im.memberID, err)
		}
		if len(ids) != len(plain) {
			return fmt.Errorf("import entries of member %d: %d ids for %d entries", im.memberID, len(ids), len(plain))
		}
		if err := im.writeTags(ctx, plain, ids); err != nil {
			return err
		}
		for i, r := range plain {
			marks = append(marks, db.CopyImportedRowsParams{MemberID: im.memberID, RowHash: r.hash, EntryID: ids[i]})
			moved.Move(r.walletID, r.typ, r.amount, r.date, false, false)
		}
	}
	for _, id := range order {
		s := transfers[id]
		from, to := s[0], s[1]
		if from.typ != ledger.TypeExpense {
			from, to = to, from
		}
		side := func(r *resolved) ledger.EntryInput {
			return ledger.EntryInput{Date: r.date, Type: r.typ, Amount: r.amount, WalletID: r.walletID, Memo: r.memo}
		}
		t, err := transfer.CreateTx(ctx, im.q, im.memberID, transfer.Input{From: side(from), To: side(to)})
		if err != nil {
			return fmt.Errorf("import transfer of rows %d and %d: %w", from.line, to.line, err)
		}
		marks = append(marks,
			db.CopyImportedRowsParams{MemberID: im.memberID, RowHash: from.hash, EntryID: t.FromEntryID},
			db.CopyImportedRowsParams{MemberID: im.memberID, RowHash: to.hash, EntryID: t.ToEntryID})
		moved.Move(from.walletID, from.typ, from.amount, from.date, true, false)
		moved.Move(to.walletID, to.typ, to.amount, to.date, true, false)
	}
	// A file whose rows would take a balance, a month's total or net worth
	// beyond int64 is refused whole (422 naming the total).
	if err := ledger.CheckTotalsTx(ctx, im.q, im.memberID, &moved); err != nil {
		return err
	}
	if _, err := im.q.CopyImportedRows(ctx, marks); err != nil {
		return fmt.Errorf("record imported rows of member %d: %w", im.memberID, err)
	}
	return nil
}

func (im *importer) writeTags(ctx context.Context, rows []*resolved, ids []int64) error {
	// New tags are placed in the order the file first names them, as the
	// export lists an entry's tags in their order.
	set := map[string]bool{}
	var names []string
	for _, r := range rows {
		for _, t := range r.tags {
			if !set[t] {
				set[t] = true
				names = append(names, t)
			}
		}
	}
	if len(names) == 0 {
		return nil
	}
	tags, err := ledger.EnsureTagRowsTx(ctx, im.q, db.EnsureTagsParams{Names: names, MemberID: im.memberID})
	if err != nil {
		return fmt.Errorf("tags of member %d: %w", im.memberID, err)
	}
	tagID := map[string]int64{}
	for _, t := range tags {
		tagID[t.Name] = t.ID
	}
	var links []db.CopyEntryTagsParams
	for i, r := range rows {
		done := map[int64]bool{}
		for _, t := range r.tags {
			if id := tagID[t]; !done[id] {
				done[id] = true
				links = append(links, db.CopyEntryTagsParams{EntryID: ids[i], TagID: id})
			}
		}
	}
	if _, err := ledger.CopyEntryTagsTx(ctx, im.q, links); err != nil {
		return fmt.Errorf("entry tags of member %d: %w", im.memberID, err)
	}
	return nil
}
