package problem

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"
)

// Whatever an error holds, its answer is at most MaxBytes and names at most
// MaxFieldErrors fields, saying when it cut them: here 1,000 fields whose
// names and messages are a mebibyte each of control characters, which JSON
// escapes sixfold, and as long a detail.
func TestWriteIsBounded(t *testing.T) {
	t.Parallel()
	hostile := strings.Repeat("\x01", 1<<20)
	fields := make([]FieldError, 1000)
	for i := range fields {
		fields[i] = FieldError{Field: hostile, Message: hostile}
	}
	for _, tc := range []struct {
		name string
		err  *Error
	}{
		{"fields", &Error{Status: http.StatusBadRequest, Code: CodeValidationFailed, Detail: hostile, Fields: fields}},
		{"detail only", &Error{Status: http.StatusBadRequest, Code: CodeValidationFailed, Detail: hostile}},
	} {
		rec := httptest.NewRecorder()
		Write(rec, httptest.NewRequest(http.MethodGet, "/", nil), tc.err)
		if rec.Body.Len() > MaxBytes {
			t.Fatalf("%s: %d bytes, over %d", tc.name, rec.Body.Len(), MaxBytes)
		}
		var b body
		if err := json.Unmarshal(rec.Body.Bytes(), &b); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if b.Code != CodeValidationFailed || b.Detail == "" {
			t.Fatalf("%s: code %q, detail %q", tc.name, b.Code, b.Detail)
		}
		if tc.err.Fields != nil && (len(b.Errors) == 0 || len(b.Errors) > MaxFieldErrors || !b.ErrorsTruncated) {
			t.Fatalf("%s: %d errors, truncated %v", tc.name, len(b.Errors), b.ErrorsTruncated)
		}
	}
}

// A short list is answered whole and not said to be cut; a long one is cut
// to the first MaxFieldErrors.
func TestWriteCutsFieldsAtTheCap(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, MaxFieldErrors, MaxFieldErrors + 1, 170000} {
		fields := make([]FieldError, n)
		for i := range fields {
			fields[i] = FieldError{Field: "/ids/" + strings.Repeat("9", i%5), Message: "must be an integer"}
		}
		rec := httptest.NewRecorder()
		Write(rec, httptest.NewRequest(http.MethodGet, "/", nil), &Error{Status: http.StatusBadRequest, Code: CodeValidationFailed, Detail: "x", Fields: fields})
		var b body
		if err := json.Unmarshal(rec.Body.Bytes(), &b); err != nil {
			t.Fatal(err)
		}
		if want := min(n, MaxFieldErrors); len(b.Errors) != want || b.ErrorsTruncated != (n > MaxFieldErrors) {
			t.Fatalf("%d fields: %d answered (want %d), truncated %v", n, len(b.Errors), want, b.ErrorsTruncated)
		}
	}
}

func TestClip(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"abcdefghij", 8, "abcde…"},
		{"가나다라마", 8, "가…"}, // 3 bytes a character: never cut inside one
	} {
		got := Clip(tc.in, tc.n)
		if got != tc.want || len(got) > tc.n || !utf8.ValidString(got) {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
