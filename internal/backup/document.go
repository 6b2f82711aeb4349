package backup

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/ledger"
	"github.com/nestegg/nestegg/internal/problem"
)

// document is a backup read for a restore. Every record kind but entries is
// decoded (the contract caps each at thousands, transfers at 100,000 small
// records); entries, which may be most of a 64 MiB body, stay in the body
// and are decoded one at a time, each time they are needed (eachEntry): a
// first pass here gathers what the steps before them need (their count,
// their tag names, today's entries), a second writes them.
type document struct {
	// Backup holds every record kind but entries (Entries is nil).
	api.Backup
	body []byte
	// entriesAt is the offset in body of the entries array, -1 for none.
	entriesAt  int
	entryCount int
	// entryTags are the distinct tag names the entries use, cleaned, in
	// the order of first use; entryTagErr is the first name refused.
	entryTags   []string
	entryTagErr error
	// today holds the entries dated on the restore's day (a restored
	// recurring entry's occurrence of today may be among them).
	today []api.BackupEntry
}

// checkEvery is how many entries a pass reads between looks at the
// request's deadline.
const checkEvery = 4096

// readDocument reads body (a JSON object, as the contract checked it) and
// its entries once. now is the restore's time in the service time zone.
func readDocument(ctx context.Context, body []byte, now time.Time) (*document, error) {
	d := &document{body: body, entriesAt: -1}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := wantDelim(dec, '{'); err != nil {
		return nil, decodeError("", err)
	}
	fields := map[string]any{
		"version": &d.Version, "wallets": &d.Wallets, "tags": &d.Tags, "categories": &d.Categories,
		"recurring": &d.Recurring, "quickEntries": &d.QuickEntries, "budgets": &d.Budgets,
		"onetimeBudgets": &d.OnetimeBudgets, "transfers": &d.Transfers, "expectedIncomes": &d.ExpectedIncomes,
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, decodeError("", err)
		}
		name, _ := tok.(string)
		switch v, ok := fields[name]; {
		case name == "entries":
			if err := d.scanEntries(ctx, dec, now); err != nil {
				return nil, err
			}
		case ok:
			if err := dec.Decode(v); err != nil {
				return nil, decodeError("/"+name, err)
			}
		default: // not part of version 1: skipped
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, decodeError("/"+name, err)
			}
		}
	}
	return d, nil
}

// scanEntries reads the entries array at dec's position: where it is, how
// many entries it holds, their tag names and today's entries.
func (d *document) scanEntries(ctx context.Context, dec *json.Decoder, now time.Time) error {
	// A name given twice: the last one counts, as for the other members.
	*d = document{Backup: d.Backup, body: d.body, entriesAt: -1}
	tok, err := dec.Token()
	if err != nil {
		return decodeError("/entries", err)
	}
	if tok == nil {
		return nil // null: the contract refuses it; read as none
	}
	if tok != json.Delim('[') {
		return problem.Invalid("/entries", "must be an array")
	}
	d.entriesAt = int(dec.InputOffset()) - 1
	y, m, day := now.Date()
	seen := map[string]bool{}
	for i := 0; dec.More(); i++ {
		if i%checkEvery == checkEvery-1 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("read the backup's entries: %w", err)
			}
		}
		var e api.BackupEntry
		if err := dec.Decode(&e); err != nil {
			return decodeError(fmt.Sprintf("/entries/%d", i), err)
		}
		d.entryCount++
		for j, t := range e.Tags {
			if seen[t] {
				continue
			}
			seen[t] = true
			name, err := ledger.TagName(fmt.Sprintf("/entries/%d/tags/%d", i, j), t)
			if err != nil {
				if d.entryTagErr == nil {
					d.entryTagErr = err
				}
				continue
			}
			d.entryTags = append(d.entryTags, name)
		}
		if ey, em, ed := e.Date.Date(); ey == y && em == m && ed == day {
			d.today = append(d.today, e)
		}
	}
	_, err = dec.Token() // ]
	return decodeError("/entries", err)
}

// eachEntry decodes the entries one at a time, in order, and calls f with
// each (e is reused: f must copy what it keeps of it but its strings).
func (d *document) eachEntry(ctx context.Context, f func(i int, e *api.BackupEntry) error) error {
	if d.entriesAt < 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(d.body[d.entriesAt:]))
	if err := wantDelim(dec, '['); err != nil {
		return decodeError("/entries", err)
	}
	var e api.BackupEntry
	for i := 0; dec.More(); i++ {
		if i%checkEvery == checkEvery-1 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("restore the backup's entries: %w", err)
			}
		}
		e = api.BackupEntry{}
		if err := dec.Decode(&e); err != nil {
			return decodeError(fmt.Sprintf("/entries/%d", i), err)
		}
		if err := f(i, &e); err != nil {
			return err
		}
	}
	return nil
}

func wantDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != want {
		return fmt.Errorf("%w: want %v", errNotJSONValue, want)
	}
	return nil
}

var errNotJSONValue = errors.New("unexpected JSON value")

// decodeError answers a body the contract let through that does not decode
// (the checks differ at the edges) as a 400 naming the field; at is where the
// value that failed starts.
func decodeError(at string, err error) error {
	var (
		typeErr   *json.UnmarshalTypeError
		syntaxErr *json.SyntaxError
	)
	switch {
	case err == nil:
		return nil
	case errors.As(err, &typeErr):
		field := at
		if typeErr.Field != "" {
			field += "/" + strings.ReplaceAll(typeErr.Field, ".", "/")
		}
		return problem.Invalid(field, "has the wrong JSON type (got "+typeErr.Value+")")
	case errors.As(err, &syntaxErr), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF), errors.Is(err, errNotJSONValue):
		return problem.Invalid("body", "malformed JSON")
	}
	if at == "" {
		at = "body"
	}
	return problem.Invalid(at, "could not be decoded as part of a backup")
}
