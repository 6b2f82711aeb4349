package board

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nestegg/nestegg/internal/problem"
)

// checkLine refuses a one-line text (title, tag, name, keyword) with NUL or
// other control characters.
func checkLine(field, s string) error {
	if !utf8.ValidString(s) {
		return problem.Invalid(field, "must be valid UTF-8")
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return problem.Invalid(field, "must not contain control characters")
		}
	}
	return nil
}

// checkText refuses a multi-line text (a body) with NUL or control
// characters other than line breaks and tabs.
func checkText(field, s string) error {
	if !utf8.ValidString(s) {
		return problem.Invalid(field, "must be valid UTF-8")
	}
	for _, r := range s {
		if unicode.IsControl(r) && r != '\n' && r != '\r' && r != '\t' {
			return problem.Invalid(field, "must not contain control characters other than line breaks and tabs")
		}
	}
	return nil
}

// requiredText trims s and checks it has 1 to max characters.
func requiredText(field, s string, max int, multiLine bool) (string, error) {
	s = strings.TrimSpace(s)
	check := checkLine
	if multiLine {
		check = checkText
	}
	if err := check(field, s); err != nil {
		return "", err
	}
	if n := utf8.RuneCountInString(s); n == 0 || n > max {
		return "", problem.Invalid(field, fmt.Sprintf("must have 1 to %d characters (not counting spaces around it)", max))
	}
	return s, nil
}

// tagList trims tags, drops repeats and checks each has 1 to 30 characters.
func tagList(field string, tags []string, maxItems int) ([]string, error) {
	out := make([]string, 0, len(tags))
	seen := map[string]bool{}
	for i, t := range tags {
		t, err := requiredText(fmt.Sprintf("%s/%d", field, i), t, 30, false)
		if err != nil {
			return nil, err
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	if len(out) > maxItems {
		return nil, problem.Invalid(field, fmt.Sprintf("at most %d items", maxItems))
	}
	return out, nil
}
