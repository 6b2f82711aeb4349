package csvio

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/heavy"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// Header is the export's header row. Its names are stable: columns are only
// ever added at the end. Import recognises a file in this format by it.
var Header = []string{
	"date", "type", "amount", "wallet", "category", "tags", "memo",
	"currency", "original_amount", "exchange_rate", "installment_months", "transfer_id",
}

// bom is UTF-8's byte order mark: spreadsheet apps read a CSV file without
// it in the system's code page, which garbles Korean text.
const bom = "\uFEFF"

// maxExportDays bounds an export's period (ten years).
const maxExportDays = 3660

// exportBatch is how many rows one query reads: memory holds one batch,
// whatever the period.
const exportBatch = 500

// tagSeparator joins an entry's tags in one cell.
const tagSeparator = ";"

// ExportEntries streams the member's confirmed entries of a period as CSV.
func (h *CSVHandler) ExportEntries(ctx context.Context, req api.ExportEntriesRequestObject) (api.ExportEntriesResponseObject, error) {
	from, to := req.Params.From.Time, req.Params.To.Time
	if to.Before(from) {
		return nil, problem.Invalid("to", "must not be before from")
	}
	if to.Sub(from) > maxExportDays*24*time.Hour {
		return nil, problem.Invalid("to", fmt.Sprintf("must be at most %d days after from", maxExportDays))
	}
	s, err := h.StartExport(ctx, session.PrincipalFrom(ctx).MemberID, from, to)
	if err != nil {
		return nil, err
	}
	return exportResponse{s: s, filename: fmt.Sprintf("nestegg-entries-%s-%s.csv", from.Format(time.DateOnly), to.Format(time.DateOnly))}, nil
}

// Export is an export under way: a read-only transaction (one snapshot of
// the ledger) and the batch read so far. Its WriteTo writes the file and
// ends the transaction; so does Close.
type Export struct {
	tx    pgx.Tx
	q     *db.Queries
	ctx   context.Context
	arg   db.ListEntriesForExportParams
	batch []db.ListEntriesForExportRow
	// pace rests between batches, as a backup does between its pages
	// (heavy.Pacer), so an export leaves most of the CPU to other members.
	pace *heavy.Pacer
}

// StartExport opens the snapshot and reads the first batch, so that a
// failure to read is still an error answer, not a cut file.
func (h *CSVHandler) StartExport(ctx context.Context, memberID int64, from, to time.Time) (*Export, error) {
	tx, err := h.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, fmt.Errorf("export of member %d: begin: %w", memberID, err)
	}
	e := &Export{tx: tx, q: db.New(tx), ctx: ctx, pace: heavy.NewPacer(), arg: db.ListEntriesForExportParams{
		MemberID: memberID, FromDate: from, ToDate: to,
		// Before every entry: the day before from, at the zero time.
		AfterDate: from.AddDate(0, 0, -1), AfterCreated: time.Time{}, AfterID: 0, BatchSize: exportBatch,
	}}
	if err := e.next(); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

func (e *Export) next() error {
	rows, err := ledger.EntriesForExportTx(e.ctx, e.q, e.arg)
	if err != nil {
		return fmt.Errorf("export of member %d: read entries: %w", e.arg.MemberID, err)
	}
	e.batch = rows
	if n := len(rows); n > 0 {
		last := rows[n-1]
		e.arg.AfterDate, e.arg.AfterCreated, e.arg.AfterID = last.EntryDate, last.CreatedAt, last.ID
	}
	return nil
}

// Close ends the export's transaction.
func (e *Export) Close() { _ = e.tx.Rollback(context.WithoutCancel(e.ctx)) }

// WriteTo writes the whole file to w, batch by batch, and closes the
// export. It stops at the request's deadline.
func (e *Export) WriteTo(w io.Writer) (int64, error) {
	defer e.Close()
	cw := &countingWriter{w: w}
	out := bufio.NewWriter(cw)
	if _, err := out.WriteString(bom); err != nil {
		return cw.n, err
	}
	writeRecord(out, Header)
	record := make([]string, len(Header))
	for len(e.batch) > 0 {
		for _, r := range e.batch {
			fillRecord(record, r)
			writeRecord(out, record)
		}
		if err := out.Flush(); err != nil {
			return cw.n, err
		}
		if len(e.batch) < exportBatch {
			break
		}
		if err := e.pace.Rest(e.ctx); err != nil {
			return cw.n, err
		}
		e.batch = nil // one batch held at a time, not two
		if err := e.next(); err != nil {
			return cw.n, err
		}
	}
	return cw.n, out.Flush()
}

// writeRecord writes one row as encoding/csv's Writer with UseCRLF does (a
// cell quoted when it holds a quote, a comma or a line break, or starts
// with a space; a quote doubled; a line feed written CRLF; CRLF after the
// row) but keeps a carriage return, which csv.Writer drops: encoding/csv's
// Reader (the import) reads a cell's CRLF as LF and keeps a lone CR, so a
// cell's CR LF, written CR CR LF, reads back as CR LF, and every cell
// reads back byte for byte. A write error stays in w (bufio's errors
// stick) for its Flush to answer.
func writeRecord(w *bufio.Writer, rec []string) {
	for i, cell := range rec {
		if i > 0 {
			_ = w.WriteByte(',')
		}
		if !needsQuotes(cell) {
			_, _ = w.WriteString(cell)
			continue
		}
		_ = w.WriteByte('"')
		for len(cell) > 0 {
			j := strings.IndexAny(cell, "\"\n")
			if j < 0 {
				_, _ = w.WriteString(cell)
				break
			}
			_, _ = w.WriteString(cell[:j])
			if cell[j] == '"' {
				_, _ = w.WriteString(`""`)
			} else {
				_, _ = w.WriteString("\r\n")
			}
			cell = cell[j+1:]
		}
		_ = w.WriteByte('"')
	}
	_, _ = w.WriteString("\r\n")
}

// needsQuotes is csv.Writer's rule for quoting a cell.
func needsQuotes(cell string) bool {
	if cell == "" {
		return false
	}
	if cell == `\.` || strings.ContainsAny(cell, "\",\r\n") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(cell)
	return unicode.IsSpace(r)
}

func fillRecord(rec []string, r db.ListEntriesForExportRow) {
	rec[0] = r.EntryDate.Format(time.DateOnly)
	rec[1] = r.Type
	rec[2] = strconv.FormatInt(r.Amount, 10)
	rec[3] = safeText(r.WalletName)
	rec[4] = safeText(categoryPath(r.ParentName, r.CategoryName))
	rec[5] = safeText(strings.Join(r.Tags, tagSeparator))
	rec[6] = safeText(r.Memo)
	rec[7], rec[8], rec[9], rec[10], rec[11] = "", "", "", "", ""
	if r.Currency != nil {
		rec[7] = safeText(*r.Currency)
	}
	if r.OriginalAmount.Valid {
		rec[8] = r.OriginalAmount.Decimal.String()
	}
	if r.ExchangeRate.Valid {
		rec[9] = r.ExchangeRate.Decimal.String()
	}
	if r.InstallmentMonths != nil {
		rec[10] = strconv.Itoa(int(*r.InstallmentMonths))
	}
	if r.TransferID != nil {
		rec[11] = strconv.FormatInt(*r.TransferID, 10)
	}
}

// categoryPath is "parent/child" for a sub-category, the name for a
// top-level one, "" for none.
func categoryPath(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "/" + name
}

// formulaStart are the first characters that make a spreadsheet app read a
// cell as a formula (OWASP, CSV injection).
const formulaStart = "=+-@\t\r"

// safeText neutralises a cell a spreadsheet app would read as a formula, as
// OWASP advises: a leading apostrophe. A cell that begins with an
// apostrophe which unsafeText would take off (one before a formula
// character or another apostrophe) gets one more, so that unsafeText gives
// back every cell as it was. Only text cells pass here; number cells are
// never negative.
func safeText(s string) string {
	if (s != "" && strings.IndexByte(formulaStart, s[0]) >= 0) || guarded(s) {
		return "'" + s
	}
	return s
}

// unsafeText undoes safeText on import.
func unsafeText(s string) string {
	if guarded(s) {
		return s[1:]
	}
	return s
}

// guarded says whether s is a cell safeText wrote with an apostrophe: one
// followed by a formula character or another apostrophe.
func guarded(s string) bool {
	return len(s) > 1 && s[0] == '\'' && strings.IndexByte(formulaStart+"'", s[1]) >= 0
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// exportResponse streams an export as the 200 answer. Once the first byte
// is out the status cannot change: a failure then cuts the connection
// (http.ErrAbortHandler), so a client never takes a partial file for a whole.
type exportResponse struct {
	s        *Export
	filename string
}

func (r exportResponse) VisitExportEntriesResponse(w http.ResponseWriter) error {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+r.filename+`"`)
	w.WriteHeader(http.StatusOK)
	if _, err := r.s.WriteTo(w); err != nil {
		slog.WarnContext(r.s.ctx, "csv export cut", "member_id", r.s.arg.MemberID, "error", err)
		panic(http.ErrAbortHandler)
	}
	return nil
}
