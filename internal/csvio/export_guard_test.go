package csvio

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
)

// Every cell of up to four characters from an alphabet of the characters
// that matter (formula starts, apostrophes, quotes, commas, line breaks, a
// space, text) is guarded where a spreadsheet would read a formula, and
// reads back from the written row (encoding/csv's Reader, then unsafeText)
// byte for byte.
func TestCellsReadBackAsWritten(t *testing.T) {
	t.Parallel()
	alphabet := []string{"'", "=", "+", "-", "@", "\t", "\r", "\n", `"`, ",", " ", ";", "a", "가"}
	cells := []string{""}
	for range 4 {
		for _, c := range cells {
			for _, a := range alphabet {
				if len(c) < 4 {
					cells = append(cells, c+a)
				}
			}
		}
	}
	seen := map[string]bool{}
	for _, cell := range cells {
		if seen[cell] {
			continue
		}
		seen[cell] = true
		safe := safeText(cell)
		if safe != "" && strings.ContainsRune(formulaStart, rune(safe[0])) {
			t.Fatalf("%q is written %q, a formula", cell, safe)
		}
		var b bytes.Buffer
		w := bufio.NewWriter(&b)
		writeRecord(w, []string{safe, "x"})
		writeRecord(w, []string{"x", safe})
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		rs := newRecords(b.Bytes())
		for _, want := range [][]string{{cell, "x"}, {"x", cell}} {
			rec, _, err := rs.next()
			if err != nil || len(rec) != 2 || unsafeText(rec[0]) != want[0] || unsafeText(rec[1]) != want[1] {
				t.Fatalf("%q written %q read back %q (%v)", cell, b.String(), rec, err)
			}
		}
	}
}

// The guard is the only change: a cell that neither starts a formula nor
// starts with an apostrophe unsafeText would take off is written as it is.
func TestSafeText(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":       "",
		"kept":   "kept",
		"=kept":  "'=kept",
		"'=kept": "''=kept",
		"'kept":  "'kept",
		"''":     "'''",
		"'":      "'",
		"-1":     "'-1",
		"\tx":    "'\tx",
		"'\rx":   "''\rx",
	} {
		if got := safeText(in); got != want {
			t.Errorf("safeText(%q) = %q, want %q", in, got, want)
		}
	}
}
