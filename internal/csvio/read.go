package csvio

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/oapi-codegen/runtime/types"
	"github.com/shopspring/decimal"
	"golang.org/x/text/encoding/korean"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/text"
)

const maxMemoRunes = 200

// readParts reads the multipart parts file and mapping; a file over
// maxBytes is 413.
func readParts(body *multipart.Reader, maxBytes int64) ([]byte, *api.CsvImportMapping, error) {
	if body == nil {
		return nil, nil, problem.Invalid("/file", "send the CSV file as the multipart part file")
	}
	var file []byte
	var mapping *api.CsvImportMapping
	for {
		part, err := body.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, &problem.Error{Status: http.StatusBadRequest, Code: problem.CodeValidationFailed,
				Detail: "the multipart body could not be read", Fields: []problem.FieldError{{Field: "/file", Message: "malformed multipart body"}}, Err: err}
		}
		switch part.FormName() {
		case "file":
			data, err := io.ReadAll(io.LimitReader(part, maxBytes+1))
			if err != nil {
				return nil, nil, problem.Invalid("/file", "the file could not be read")
			}
			if int64(len(data)) > maxBytes {
				return nil, nil, problem.New(http.StatusRequestEntityTooLarge, problem.CodePayloadTooLarge,
					fmt.Sprintf("the file is over %d bytes", maxBytes))
			}
			file = data
		case "mapping":
			data, err := io.ReadAll(io.LimitReader(part, 64<<10))
			if err != nil {
				return nil, nil, problem.Invalid("/mapping", "the mapping could not be read")
			}
			var m api.CsvImportMapping
			if err := json.Unmarshal(data, &m); err != nil {
				return nil, nil, problem.Invalid("/mapping", "must be a JSON object (CsvImportMapping)")
			}
			mapping = &m
		}
	}
	if file == nil {
		return nil, nil, problem.Invalid("/file", "send the CSV file as the multipart part file")
	}
	return file, mapping, nil
}

// Bounds of one row of a file, whatever its shape, so that what reading a
// row costs follows the file's size: encoding/csv holds a whole record (and
// an index and a position per cell) before it answers, so a 4 MB line of
// four million empty cells once cost 650 MB. The service's own rows are well
// inside them: 12 columns; the longest cell is 20 tags of 30 characters (2.4
// KB of UTF-8), a memo 200 characters (800 bytes); a whole row, every quote
// in it doubled, under 8 KiB. Banks' and card issuers' files have one or two
// dozen columns.
const (
	maxColumns   = 64
	maxCellBytes = 4 << 10
	// maxRowBytes bounds a record as the file writes it: its quotes, and
	// the line breaks of its quoted cells, counted.
	maxRowBytes = 32 << 10
)

// readBufferSize is how far the csv reader reads ahead of what it parsed
// (bufio's default size).
const readBufferSize = 4096

// errRowTooLong stops the csv reader inside a record over maxRowBytes.
var errRowTooLong = errors.New("row over the limit")

// window hands the csv reader the text up to end, then errRowTooLong: the
// reader never holds more than maxRowBytes of one record plus its
// read-ahead, however long the record is.
type window struct {
	txt      []byte
	pos, end int
}

func (w *window) Read(p []byte) (int, error) {
	if w.pos >= len(w.txt) {
		return 0, io.EOF
	}
	if w.pos >= w.end {
		return 0, errRowTooLong
	}
	n := copy(p, w.txt[w.pos:min(w.end, len(w.txt))])
	w.pos += n
	return n, nil
}

// parseFile reads an uploaded file into rows: its text decoded, then read
// by the service's own header or the mapping.
func parseFile(ctx context.Context, file []byte, m *api.CsvImportMapping, maxRows int64) (sheet, error) {
	txt, err := decodeText(file, m)
	if err != nil {
		return sheet{}, err
	}
	return readSheet(ctx, txt, m, maxRows)
}

// decodeText answers the file as UTF-8 text without a byte order mark: the
// file itself when it is UTF-8 (no copy), decoded when the mapping says
// EUC-KR or when its bytes are not UTF-8 but are EUC-KR (CP949).
func decodeText(file []byte, m *api.CsvImportMapping) ([]byte, error) {
	bad := problem.Invalid("/file", "the file is neither UTF-8 nor EUC-KR (CP949) text")
	eucKR := m != nil && m.Encoding != nil && *m.Encoding == api.CsvEncodingEUCKR
	if !eucKR {
		if !utf8.Valid(file) {
			eucKR = true
		} else {
			return bytes.TrimPrefix(file, []byte(bom)), nil
		}
	}
	// EUC-KR text is at most half again as long in UTF-8 (a two-byte
	// character is three); a file that needs more holds bytes that are not
	// EUC-KR (each decoded as U+FFFD, three bytes).
	out := make([]byte, len(file)+len(file)/2)
	n, _, err := korean.EUCKR.NewDecoder().Transform(out, file, true)
	if err != nil || bytes.ContainsRune(out[:n], utf8.RuneError) {
		return nil, bad
	}
	return out[:n], nil
}

// row is one data row of the file, read and checked as far as the file
// alone allows.
type row struct {
	line     int
	err      *api.CsvImportError
	date     time.Time
	typ      string
	amount   int64
	memo     string
	wallet   string
	category string
	tags     []string
	// walletCol and categoryCol name where the wallet and category came
	// from, for a row error: the column's header, or the mapping's field.
	walletCol, categoryCol string
	currency               *string
	original               decimal.NullDecimal
	rate                   decimal.NullDecimal
	months                 *int32
	transfer               string
}

func (r *row) fail(column, message string) {
	if r.err == nil {
		r.err = &api.CsvImportError{Row: int32(r.line), Column: column, Message: message}
	}
}

// sheet is a file read into rows.
type sheet struct {
	own  bool
	rows []*row
}

// records reads a file's records one at a time within the row bounds.
type records struct {
	w *window
	r *csv.Reader
}

func newRecords(txt []byte) *records {
	w := &window{txt: txt}
	r := csv.NewReader(w)
	// Rows may differ in length (banks put titles and totals around
	// their tables); maxColumns bounds them instead.
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	// A record's cells are substrings of one string allocated per record,
	// so a row keeps its cells while the slice of them is reused.
	r.ReuseRecord = true
	return &records{w: w, r: r}
}

// next answers the next record (io.EOF after the last) and the line it
// starts on. A record over maxRowBytes is a 400 naming its line.
func (rs *records) next() ([]string, int, error) {
	start := skipBlankLines(rs.w.txt, int(rs.r.InputOffset()))
	// Whatever the reader read ahead lies before start+readBufferSize.
	rs.w.end = start + maxRowBytes + readBufferSize
	rec, err := rs.r.Read()
	if err == nil && int(rs.r.InputOffset())-start > maxRowBytes {
		err = errRowTooLong
	}
	if errors.Is(err, errRowTooLong) {
		line := 1 + bytes.Count(rs.w.txt[:start], []byte("\n"))
		return nil, 0, problem.Invalid("/file", fmt.Sprintf(
			"the row at line %d is over %d bytes (a row is at most %d bytes, %d columns and %d bytes a cell; a quote left open makes the rest of the file one row)",
			line, maxRowBytes, maxRowBytes, maxColumns, maxCellBytes))
	}
	if err != nil {
		return nil, 0, err
	}
	line, _ := rs.r.FieldPos(0)
	return rec, line, nil
}

// skipBlankLines answers the offset past the empty lines ("\n" or "\r\n",
// which the csv reader skips) at txt[i:].
func skipBlankLines(txt []byte, i int) int {
	for {
		switch {
		case i < len(txt) && txt[i] == '\n':
			i++
		case i+1 < len(txt) && txt[i] == '\r' && txt[i+1] == '\n':
			i += 2
		default:
			return i
		}
	}
}

// overLimits answers why a record is past the row bounds ("" when it is
// not) and the column (header text) to name.
func overLimits(rec, header []string) (column, message string) {
	if len(rec) > maxColumns {
		return "", fmt.Sprintf("the row has %d columns; a row has at most %d", len(rec), maxColumns)
	}
	for i, c := range rec {
		if len(c) > maxCellBytes {
			if i < len(header) {
				column = header[i]
			}
			return column, fmt.Sprintf("column %d holds %d bytes; a cell holds at most %d", i+1, len(c), maxCellBytes)
		}
	}
	return "", ""
}

// readSheet reads the text into rows, by the service's own header or the
// mapping. More than maxRows data rows is 413.
func readSheet(ctx context.Context, txt []byte, m *api.CsvImportMapping, maxRows int64) (sheet, error) {
	rs := newRecords(txt)
	headerLine := 1
	if m != nil && m.HeaderRow != nil {
		headerLine = int(*m.HeaderRow)
	}
	var header []string
	for header == nil {
		rec, line, err := rs.next()
		if errors.Is(err, io.EOF) {
			return sheet{}, problem.Invalid("/file", fmt.Sprintf("the file has no header row at line %d", headerLine))
		}
		if err != nil {
			return sheet{}, readError(err)
		}
		if line < headerLine {
			continue
		}
		if _, why := overLimits(rec, nil); why != "" {
			return sheet{}, problem.Invalid("/file", "the header row is past the limits: "+why)
		}
		header = trimAll(nil, rec)
	}
	var read func(rec []string, rw *row)
	own := isOwnHeader(header)
	switch {
	case m != nil:
		cols, err := mapColumns(header, m)
		if err != nil {
			return sheet{}, err
		}
		read = cols.read
	case own:
		read = readOwn
	default:
		return sheet{}, problem.Invalid("/mapping", "the file is not in the service's export format: send a mapping")
	}
	out := sheet{own: own && m == nil}
	var trimmed []string
	for n := 1; ; n++ {
		if n%1000 == 0 && ctx.Err() != nil {
			return sheet{}, ctx.Err()
		}
		rec, line, err := rs.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return sheet{}, readError(err)
		}
		if blank(rec) {
			continue
		}
		if int64(len(out.rows)) >= maxRows {
			return sheet{}, problem.New(http.StatusRequestEntityTooLarge, problem.CodePayloadTooLarge,
				fmt.Sprintf("the file has over %d rows", maxRows))
		}
		rw := &row{line: line}
		if column, why := overLimits(rec, header); why != "" {
			rw.fail(column, why)
		} else {
			// read keeps cells (substrings of the record's own string),
			// never the slice, which the next record reuses.
			trimmed = trimAll(trimmed, rec)
			read(trimmed, rw)
		}
		out.rows = append(out.rows, rw)
	}
	return out, nil
}

// readError is a reading error as the answer: a 400 as it is, a CSV error
// as a 400 naming its line.
func readError(err error) error {
	if _, ok := problem.As(err); ok {
		return err
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return problem.Invalid("/file", fmt.Sprintf("line %d is not CSV: %v", pe.Line, pe.Err))
	}
	return problem.Invalid("/file", "the file is not CSV: "+err.Error())
}

// trimAll answers rec's cells trimmed, in buf's array when it is large
// enough.
func trimAll(buf, rec []string) []string {
	out := buf[:0]
	for _, s := range rec {
		out = append(out, strings.TrimSpace(s))
	}
	return out
}

func blank(rec []string) bool {
	for _, s := range rec {
		if strings.TrimSpace(s) != "" {
			return false
		}
	}
	return true
}

func isOwnHeader(h []string) bool {
	if len(h) < len(Header) {
		return false
	}
	for i, name := range Header {
		if h[i] != name {
			return false
		}
	}
	return true
}

func cell(rec []string, i int) string {
	if i < 0 || i >= len(rec) {
		return ""
	}
	return rec[i]
}

// readOwn reads a row of the service's own format.
func readOwn(rec []string, r *row) {
	d, err := time.Parse(time.DateOnly, cell(rec, 0))
	if err != nil {
		r.fail("date", "must be a date YYYY-MM-DD")
		return
	}
	r.date = calendar.Date(d.Year(), d.Month(), d.Day())
	r.typ = cell(rec, 1)
	if r.typ != ledger.TypeIncome && r.typ != ledger.TypeExpense {
		r.fail("type", "must be income or expense")
		return
	}
	amount, err := strconv.ParseInt(cell(rec, 2), 10, 64)
	if err != nil || amount < 0 || amount > ledger.MaxEntryAmount {
		r.fail("amount", "must be a whole number of won from 0 to 10^15")
		return
	}
	r.amount = amount
	r.walletCol, r.categoryCol = "wallet", "category"
	r.wallet = unsafeText(cell(rec, 3))
	r.category = unsafeText(cell(rec, 4))
	if tags := unsafeText(cell(rec, 5)); tags != "" {
		names := strings.Split(tags, tagSeparator)
		if len(names) > ledger.MaxTagsPerEntry {
			r.fail("tags", fmt.Sprintf("at most %d tags", ledger.MaxTagsPerEntry))
			return
		}
		for _, t := range names {
			name, err := ledger.TagName("tags", t)
			if err != nil {
				r.fail("tags", "a tag must be 1 to 30 characters of text")
				return
			}
			r.tags = append(r.tags, name)
		}
	}
	if !r.setMemo("memo", unsafeText(cell(rec, 6))) {
		return
	}
	if c := unsafeText(cell(rec, 7)); c != "" {
		if len(c) != 3 || strings.ToUpper(c) != c || strings.ContainsFunc(c, func(x rune) bool { return x < 'A' || x > 'Z' }) {
			r.fail("currency", "must be a three-letter ISO 4217 code such as USD")
			return
		}
		r.currency = &c
	}
	if s := cell(rec, 10); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 2 || n > 24 {
			r.fail("installment_months", "must be 2 to 24")
			return
		}
		m := int32(n)
		r.months = &m
	}
	r.transfer = cell(rec, 11)
	r.checkAsEntry(cell(rec, 8), cell(rec, 9))
}

// checkAsEntry runs the API's own checks of an entry (ledger.EntryInputFrom)
// over the row, so that an imported entry is one the API would take: it can
// be saved unchanged through PUT, and the member's backup restores it. The
// foreign amount and rate come out of it as the API stores them. A refusal
// is the row's error, on the column of the field it names.
func (r *row) checkAsEntry(original, rate string) {
	in, err := ledger.EntryInputFrom(api.EntryRequest{
		Date: types.Date{Time: r.date}, Type: api.EntryType(r.typ), Amount: &r.amount, Memo: &r.memo, Tags: &r.tags,
		Currency: r.currency, OriginalAmount: optional(original), ExchangeRate: optional(rate), InstallmentMonths: r.months,
	}, true)
	if err == nil {
		// The memo as the API stores it: trimmed, also where an apostrophe
		// taken off (unsafeText) left a space at its start.
		r.memo, r.original, r.rate = in.Memo, in.OriginalAmount, in.ExchangeRate
		return
	}
	p, ok := problem.As(err)
	if !ok || len(p.Fields) == 0 {
		r.fail("", err.Error())
		return
	}
	f := p.Fields[0]
	column := strings.TrimPrefix(f.Field, "/")
	if c, ok := entryColumns[column]; ok {
		column = c
	} else if strings.HasPrefix(column, "tags") {
		column = "tags"
	}
	r.fail(column, f.Message)
}

// entryColumns are the columns of the service's own format that hold an
// entry request's fields of other names.
var entryColumns = map[string]string{
	"originalAmount": "original_amount", "exchangeRate": "exchange_rate", "installmentMonths": "installment_months",
}

// optional is a cell as an optional field: nil when empty.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (r *row) setMemo(column, memo string) bool {
	if utf8.RuneCountInString(memo) > maxMemoRunes {
		r.fail(column, fmt.Sprintf("must be at most %d characters", maxMemoRunes))
		return false
	}
	if err := text.CheckMultiline(column, memo); err != nil {
		r.fail(column, "holds characters a memo may not hold")
		return false
	}
	r.memo = memo
	return true
}

// columns are a mapping's columns, by index (-1: not mapped).
type columns struct {
	date, amount, debit, credit, memo, category, wallet int
	names                                               map[int]string
	walletName                                          string
	layout                                              string
	positiveIsExpense                                   bool
	decimalSep, thousandsSep                            string
}

func mapColumns(header []string, m *api.CsvImportMapping) (columns, error) {
	c := columns{names: map[int]string{}, decimalSep: ".", thousandsSep: ","}
	find := func(field string, name *string) (int, error) {
		if name == nil {
			return -1, nil
		}
		want := strings.TrimSpace(*name)
		for i, h := range header {
			if h == want {
				c.names[i] = h
				return i, nil
			}
		}
		return -1, problem.Invalid("/mapping/"+field, fmt.Sprintf("the header row has no column %q", want))
	}
	var err error
	for _, f := range []struct {
		field string
		name  *string
		to    *int
	}{
		{"date", m.Date, &c.date}, {"amount", m.Amount, &c.amount}, {"debit", m.Debit, &c.debit},
		{"credit", m.Credit, &c.credit}, {"memo", m.Memo, &c.memo}, {"category", m.Category, &c.category},
		{"wallet", m.Wallet, &c.wallet},
	} {
		if *f.to, err = find(f.field, f.name); err != nil {
			return c, err
		}
	}
	if c.date < 0 {
		return c, problem.Invalid("/mapping/date", "is required")
	}
	if c.amount < 0 && c.debit < 0 && c.credit < 0 {
		return c, problem.Invalid("/mapping/amount", "give amount, or debit and credit")
	}
	if c.amount >= 0 && (c.debit >= 0 || c.credit >= 0) {
		return c, problem.Invalid("/mapping/amount", "give amount or debit and credit, not both")
	}
	if m.WalletName != nil {
		c.walletName = strings.TrimSpace(*m.WalletName)
	}
	if m.DateFormat != nil {
		if c.layout, err = goLayout(*m.DateFormat); err != nil {
			return c, err
		}
	}
	c.positiveIsExpense = m.SignConvention != nil && *m.SignConvention == api.CsvSignConventionPositiveIsExpense
	if m.DecimalSeparator != nil {
		c.decimalSep = string(*m.DecimalSeparator)
	}
	if m.ThousandsSeparator != nil {
		c.thousandsSep = string(*m.ThousandsSeparator)
	}
	if c.decimalSep == c.thousandsSep {
		return c, problem.Invalid("/mapping/thousandsSeparator", "must differ from decimalSeparator")
	}
	return c, nil
}

// goLayout turns a yyyy-MM-dd style date format into a Go time layout.
func goLayout(f string) (string, error) {
	tokens := []struct{ from, to string }{
		{"yyyy", "2006"}, {"yy", "06"}, {"MM", "01"}, {"M", "1"}, {"dd", "02"}, {"d", "2"},
		{"HH", "15"}, {"mm", "04"}, {"ss", "05"},
	}
	var b strings.Builder
	hasY, hasM, hasD := false, false, false
next:
	for i := 0; i < len(f); {
		for _, t := range tokens {
			if strings.HasPrefix(f[i:], t.from) {
				b.WriteString(t.to)
				i += len(t.from)
				switch t.from[0] {
				case 'y':
					hasY = true
				case 'M':
					hasM = true
				case 'd':
					hasD = true
				}
				continue next
			}
		}
		// Anything else is a separator: a digit or a letter would be read
		// by Go's layout as a field of its own ("Jan", "PM", "MST").
		if c := f[i]; c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			return "", problem.Invalid("/mapping/dateFormat", "may hold only yyyy, yy, MM, M, dd, d, HH, mm, ss and separators")
		}
		b.WriteByte(f[i])
		i++
	}
	if !hasY || !hasM || !hasD {
		return "", problem.Invalid("/mapping/dateFormat", "must have a year, a month and a day")
	}
	return b.String(), nil
}

// looseDate is a date with separators (the day may be followed by a time),
// or exactly eight digits: never a longer run of digits read in part.
var looseDate = regexp.MustCompile(`^(?:(\d{4})[-./](\d{1,2})[-./](\d{1,2})|(\d{4})(\d{2})(\d{2}))(?:\D|$)`)

func (c columns) parseDate(s string) (time.Time, bool) {
	if c.layout != "" {
		t, err := time.Parse(c.layout, s)
		if err != nil {
			return time.Time{}, false
		}
		return calendar.Date(t.Year(), t.Month(), t.Day()), true
	}
	m := looseDate.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, false
	}
	if m[1] == "" {
		m = m[3:] // the eight-digit form
	}
	y, _ := strconv.Atoi(m[1])
	mo, _ := strconv.Atoi(m[2])
	d, _ := strconv.Atoi(m[3])
	t := calendar.Date(y, time.Month(mo), d)
	if t.Month() != time.Month(mo) || t.Day() != d {
		return time.Time{}, false
	}
	return t, true
}

// parseAmount reads a signed amount of whole won: separators as mapped, a
// leading minus or parentheses for a negative, a currency mark ignored.
// ok is false for text that is no amount or one past 10^15.
func (c columns) parseAmount(s string) (v int64, empty, ok bool) {
	s = strings.NewReplacer("원", "", "₩", "", "\u00a0", "").Replace(s)
	if c.thousandsSep != "" {
		s = strings.ReplaceAll(s, c.thousandsSep, "")
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, true, true
	}
	neg := false
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		neg, s = true, s[1:len(s)-1]
	}
	if c.decimalSep == "," {
		s = strings.ReplaceAll(s, ",", ".")
	}
	d, err := decimal.NewFromString(s)
	if err != nil || !d.Equal(d.Truncate(0)) || d.Abs().GreaterThan(decimal.NewFromInt(ledger.MaxEntryAmount)) {
		return 0, false, false
	}
	v = d.IntPart()
	if neg {
		v = -v
	}
	return v, false, true
}

// read reads a row of a mapped file.
func (c columns) read(rec []string, r *row) {
	d, ok := c.parseDate(cell(rec, c.date))
	if !ok {
		r.fail(c.names[c.date], "is not a date in the mapped format")
		return
	}
	r.date = d
	badAmount := "must be a whole number of won up to 10^15"
	switch {
	case c.amount >= 0:
		v, empty, ok := c.parseAmount(cell(rec, c.amount))
		if !ok || empty {
			r.fail(c.names[c.amount], badAmount)
			return
		}
		expense := v < 0
		if c.positiveIsExpense {
			expense = v > 0
		}
		r.typ, r.amount = ledger.TypeIncome, v
		if expense {
			r.typ = ledger.TypeExpense
		}
		if r.amount < 0 {
			r.amount = -r.amount
		}
	default:
		out, outEmpty, ok1 := c.parseAmount(cell(rec, c.debit))
		in, inEmpty, ok2 := c.parseAmount(cell(rec, c.credit))
		switch {
		case !ok1 || out < 0:
			r.fail(c.names[c.debit], badAmount)
			return
		case !ok2 || in < 0:
			r.fail(c.names[c.credit], badAmount)
			return
		case out != 0 && in != 0:
			r.fail(c.names[c.debit], "a row must not have both a debit and a credit")
			return
		case out != 0 || (in == 0 && !outEmpty && inEmpty):
			r.typ, r.amount = ledger.TypeExpense, out
		case in != 0 || !inEmpty:
			r.typ, r.amount = ledger.TypeIncome, in
		default:
			r.fail(c.names[c.debit], "a row needs a debit or a credit")
			return
		}
	}
	if c.memo >= 0 && !r.setMemo(c.names[c.memo], cell(rec, c.memo)) {
		return
	}
	r.wallet, r.walletCol = c.walletName, "walletName"
	if c.wallet >= 0 {
		r.wallet, r.walletCol = cell(rec, c.wallet), c.names[c.wallet]
	}
	if c.category >= 0 {
		r.category, r.categoryCol = cell(rec, c.category), c.names[c.category]
	}
}
