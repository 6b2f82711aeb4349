package ledger

import (
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/nestegg/nestegg/generated/api"
)

// entryPageAnswer answers a page of entries, the answer members open most
// (the month list). It writes exactly what encoding/json writes for
// api.EntryPage (TestEntryPageJSONIsEncodingJSONs holds it to that, field
// by field and byte by byte, so a field the contract adds fails the test
// until it is written here), but by appending: a page of 100 entries costs
// a fraction of encoding/json's reflection, and of oapi-codegen's date
// type, which marshals every date twice.
type entryPageAnswer api.EntryPage

func (p entryPageAnswer) VisitListEntriesResponse(w http.ResponseWriter) error {
	b := appendEntryPage(make([]byte, 0, 128+320*len(p.Items)), api.EntryPage(p))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(b)
	return err
}

// appendEntryPage appends p as encoding/json's Encoder writes it (with its
// trailing newline).
func appendEntryPage(b []byte, p api.EntryPage) []byte {
	b = append(b, `{"items":`...)
	if p.Items == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range p.Items {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendEntry(b, &p.Items[i])
		}
		b = append(b, ']')
	}
	b = append(b, `,"page":`...)
	b = strconv.AppendInt(b, int64(p.Page), 10)
	b = append(b, `,"size":`...)
	b = strconv.AppendInt(b, int64(p.Size), 10)
	b = append(b, `,"summary":{"expense":`...)
	b = strconv.AppendInt(b, p.Summary.Expense, 10)
	b = append(b, `,"income":`...)
	b = strconv.AppendInt(b, p.Summary.Income, 10)
	if o := p.Summary.OutOfRange; o != nil {
		// The values are the contract's enum: nothing to escape.
		b = append(b, `,"outOfRange":[`...)
		for i, v := range *o {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '"')
			b = append(b, v...)
			b = append(b, '"')
		}
		b = append(b, ']')
	}
	b = append(b, `},"total":`...)
	b = strconv.AppendInt(b, p.Total, 10)
	return append(b, "}\n"...)
}

func appendEntry(b []byte, e *api.Entry) []byte {
	b = append(b, `{"amount":`...)
	b = strconv.AppendInt(b, e.Amount, 10)
	b = append(b, `,"awaitingRate":`...)
	b = strconv.AppendBool(b, e.AwaitingRate)
	b = append(b, `,"categoryId":`...)
	b = appendIntPtr(b, e.CategoryID)
	b = append(b, `,"createdAt":"`...)
	b = e.CreatedAt.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","createdBy":`...)
	b = appendMemberRef(b, &e.CreatedBy)
	b = append(b, `,"currency":`...)
	b = appendStringPtr(b, e.Currency)
	b = append(b, `,"date":"`...)
	b = e.Date.AppendFormat(b, "2006-01-02")
	b = append(b, `","exchangeRate":`...)
	b = appendStringPtr(b, e.ExchangeRate)
	b = append(b, `,"id":`...)
	b = strconv.AppendInt(b, e.ID, 10)
	b = append(b, `,"installmentMonths":`...)
	if e.InstallmentMonths == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, int64(*e.InstallmentMonths), 10)
	}
	b = append(b, `,"memo":`...)
	b = appendString(b, e.Memo)
	b = append(b, `,"originalAmount":`...)
	b = appendStringPtr(b, e.OriginalAmount)
	b = append(b, `,"paidBy":`...)
	b = appendMemberRef(b, &e.PaidBy)
	b = append(b, `,"pending":`...)
	b = strconv.AppendBool(b, e.Pending)
	b = append(b, `,"tags":`...)
	if e.Tags == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, t := range e.Tags {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, t)
		}
		b = append(b, ']')
	}
	b = append(b, `,"transferId":`...)
	b = appendIntPtr(b, e.TransferID)
	b = append(b, `,"type":`...)
	b = appendString(b, string(e.Type))
	b = append(b, `,"walletId":`...)
	b = appendIntPtr(b, e.WalletID)
	return append(b, '}')
}

// appendMemberRef appends who an entry names (household books).
func appendMemberRef(b []byte, r *api.MemberRef) []byte {
	b = append(b, `{"former":`...)
	b = strconv.AppendBool(b, r.Former)
	b = append(b, `,"memberId":`...)
	b = strconv.AppendInt(b, r.MemberID, 10)
	b = append(b, `,"name":`...)
	b = appendString(b, r.Name)
	return append(b, '}')
}

func appendIntPtr(b []byte, v *int64) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, *v, 10)
}

func appendStringPtr(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendString(b, *s)
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string the way encoding/json does:
// <, > and & escaped for HTML, U+2028 and U+2029 escaped, invalid UTF-8
// replaced by U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
