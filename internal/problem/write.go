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
// *Error is a 500: its cause is logged with the request id and never shown.
func Write(w http.ResponseWriter, r *http.Request, err error) {
	reqID := RequestID(r.Context())
	pe, ok := As(err)
	if !ok {
		slog.ErrorContext(r.Context(), "internal error", "request_id", reqID, "method", r.Method, "path", r.URL.Path, "error", err)
		pe = New(http.StatusInternalServerError, CodeInternal, "an unexpected error occurred; quote the request id when reporting it")
	} else if pe.Status >= 500 && pe.Err != nil {
		slog.ErrorContext(r.Context(), "request failed", "request_id", reqID, "code", pe.Code, "error", pe.Err)
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
