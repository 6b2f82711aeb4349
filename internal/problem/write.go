package problem

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"unicode/utf8"
)

// Bounds of every problem answer (STYLE 4e), set here and nowhere else: a
// client sending 170,000 bad values, or a megabyte string the answer would
// echo, gets a short answer, not one as large as its request.
const (
	// MaxFieldErrors is how many invalid fields a problem names; validators
	// stop looking once they found one more than this (errorsTruncated).
	MaxFieldErrors = 20
	// MaxBytes bounds a whole problem body.
	MaxBytes = 64 << 10
	// maxDetailBytes and maxFieldBytes clip the strings a problem carries,
	// which may quote the request (a field name, a value).
	maxDetailBytes = 2048
	maxFieldBytes  = 256
)

// body is the wire form of a problem; it matches the contract's Problem schema.
type body struct {
	Type      string `json:"type"`
	Title     string `json:"title"`
	Status    int    `json:"status"`
	Detail    string `json:"detail,omitempty"`
	Code      string `json:"code"`
	RequestID string `json:"requestId,omitempty"`
	// ExistingID is the record a create collided with (409 CONFLICT).
	ExistingID int64        `json:"existingId,omitempty"`
	Errors     []FieldError `json:"errors,omitempty"`
	// ErrorsTruncated says Errors names only the first MaxFieldErrors.
	ErrorsTruncated bool `json:"errorsTruncated,omitempty"`
}

type requestIDKey struct{}

// WithRequestID returns ctx carrying the request's id, which problems quote and
// the log line of a 500 names.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID returns the request id of ctx, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// Write answers err as application/problem+json. An error that is not an
// *Error is classified (a database that cannot be reached is a 503, a string
// the database cannot store a 400); anything else is a 500, whose cause is
// logged with the request id and never shown.
func Write(w http.ResponseWriter, r *http.Request, err error) {
	reqID := RequestID(r.Context())
	pe, ok := As(err)
	if !ok {
		pe, ok = classify(r.Context(), err)
	}
	switch {
	case !ok:
		slog.ErrorContext(r.Context(), "internal error", "request_id", reqID, "method", r.Method, "path", r.URL.Path, "error", err)
		pe = New(http.StatusInternalServerError, CodeInternal, "an unexpected error occurred; quote the request id when reporting it")
	case pe.Status >= 500 && pe.Err != nil && pe.Status != http.StatusServiceUnavailable:
		slog.ErrorContext(r.Context(), "request failed", "request_id", reqID, "code", pe.Code, "error", pe.Err)
	case pe.Code == CodeTimeout:
		// The request's own slowness, not an outage: each one is logged.
		slog.WarnContext(r.Context(), "request timed out", "request_id", reqID, "method", r.Method, "path", r.URL.Path, "error", pe.Err)
	case pe.Status == http.StatusServiceUnavailable && pe.Err != nil:
		// Expected while a dependency is away or unconfigured: a warning,
		// and once per outage rather than once per request.
		if outageLog.due() {
			slog.WarnContext(r.Context(), "dependency unavailable", "request_id", reqID, "code", pe.Code, "error", pe.Err)
		}
	}
	b := body{
		Type:            "about:blank",
		Title:           http.StatusText(pe.Status),
		Status:          pe.Status,
		Detail:          pe.Detail,
		Code:            pe.Code,
		RequestID:       reqID,
		ExistingID:      pe.ExistingID,
		Errors:          pe.Fields,
		ErrorsTruncated: pe.Truncated,
	}
	out := encode(b)
	for k, v := range pe.Headers {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Del("Content-Length")
	w.WriteHeader(pe.Status)
	_, _ = w.Write(out)
}

// encode writes b within MaxBytes: at most MaxFieldErrors fields, each string
// clipped. Clipped text stays far below the bound, but a string of control
// characters or broken UTF-8 grows sixfold when escaped (\u0001), so the
// answer is measured and halved until it fits.
func encode(b body) []byte {
	if len(b.Errors) > MaxFieldErrors {
		b.Errors, b.ErrorsTruncated = b.Errors[:MaxFieldErrors], true
	}
	b.Detail = Clip(b.Detail, maxDetailBytes)
	if len(b.Errors) > 0 {
		clipped := make([]FieldError, len(b.Errors))
		for i, f := range b.Errors {
			clipped[i] = FieldError{Field: Clip(f.Field, maxFieldBytes), Message: Clip(f.Message, maxFieldBytes)}
		}
		b.Errors = clipped
	}
	for {
		var buf bytes.Buffer
		_ = json.NewEncoder(&buf).Encode(b)
		if buf.Len() <= MaxBytes || (len(b.Errors) == 0 && len(b.Detail) == 0) {
			return buf.Bytes()
		}
		if len(b.Errors) > 0 {
			b.Errors, b.ErrorsTruncated = b.Errors[:len(b.Errors)/2], true
		} else if len(b.Detail) > 64 {
			b.Detail = Clip(b.Detail, len(b.Detail)/2)
		} else {
			b.Detail = ""
		}
	}
}

// Clip cuts s to at most n bytes on a character boundary, marking the cut
// with "…".
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const mark = "…"
	cut := n - len(mark)
	if cut < 0 {
		cut = 0
	}
	for i := 0; i < utf8.UTFMax && cut > 0 && !utf8.RuneStart(s[cut]); i++ {
		cut--
	}
	return s[:cut] + mark
}
