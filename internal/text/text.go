// Package text checks the characters of text members write, for every area:
// names and titles on one line, bodies and memos over several.
package text

import (
	"fmt"
	"unicode"

	"github.com/nestegg/nestegg/internal/problem"
)

// CheckLine refuses a one-line text holding a control character, or a format
// character (zero-width spaces, direction overrides and isolates): they make
// one member's name or title look like another's, or reorder what follows
// it. The zero-width joiner stays allowed, as emoji sequences need it.
func CheckLine(field, s string) error {
	return check(field, s, false)
}

// CheckMultiline is CheckLine for text over several lines: line feeds and
// tabs are allowed.
func CheckMultiline(field, s string) error {
	return check(field, s, true)
}

func check(field, s string, multiline bool) error {
	for _, r := range s {
		if multiline && (r == '\n' || r == '\t' || r == '\r') {
			continue
		}
		if r == '\u200d' {
			continue
		}
		if r == unicode.ReplacementChar || unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) ||
			unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) {
			return problem.Invalid(field, fmt.Sprintf("must not contain the control or formatting character U+%04X", r))
		}
	}
	return nil
}
