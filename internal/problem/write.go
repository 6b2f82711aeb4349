package problem

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
)

// body is the wire form of a problem; it matches the contract's Problem schema.
type body struct {
	Type      string       `json:"type"`
	Title     string       `json:"title"`
	Status    int          `json:"status"`
	Detail    string       `json:"detail,omitempty"`
	Code      string       `json:"code"`
	RequestID string       `json:"requestId,omitempty"`
	Errors    []FieldError `json:"errors,omitempty"`
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
	case pe.Status == http.StatusServiceUnavailable && pe.Err != nil:
		// Expected while a dependency is away or unconfigured: a warning,
		// and once per outage rather than once per request.
		if outageLog.due() {
			slog.WarnContext(r.Context(), "dependency unavailable", "request_id", reqID, "code", pe.Code, "error", pe.Err)
		}
	}
	b := body{
		Type:      "about:blank",
		Title:     http.StatusText(pe.Status),
		Status:    pe.Status,
		Detail:    pe.Detail,
		Code:      pe.Code,
		RequestID: reqID,
		Errors:    pe.Fields,
	}
	for k, v := range pe.Headers {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Del("Content-Length")
	w.WriteHeader(pe.Status)
	_ = json.NewEncoder(w).Encode(b)
}
