package board

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/text"
)

// requiredText trims s and checks it has 1 to max characters.
func requiredText(field, s string, max int, multiLine bool) (string, error) {
	s = strings.TrimSpace(s)
	check := text.CheckLine
	if multiLine {
		check = text.CheckMultiline
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
