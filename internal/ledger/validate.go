package ledger

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/text"
)

// Entry and category types, as stored.
const (
	TypeIncome  = "income"
	TypeExpense = "expense"
)

// cleanName trims a name and checks its length and characters.
func cleanName(field, s string, maxLen int) (string, error) {
	s = strings.TrimSpace(s)
	if n := utf8.RuneCountInString(s); n < 1 || n > maxLen {
		return "", problem.Invalid(field, fmt.Sprintf("must be 1 to %d characters, not only spaces", maxLen))
	}
	if err := text.CheckLine(field, s); err != nil {
		return "", err
	}
	return s, nil
}

// cleanMemo trims a memo and checks it (line breaks and tabs are allowed).
func cleanMemo(field string, s *string) (string, error) {
	if s == nil {
		return "", nil
	}
	m := strings.TrimSpace(*s)
	if utf8.RuneCountInString(m) > 200 {
		return "", problem.Invalid(field, "must be at most 200 characters")
	}
	if err := text.CheckMultiline(field, m); err != nil {
		return "", err
	}
	return m, nil
}

// cleanType checks an entry or category type.
func cleanType(field, t string) (string, error) {
	if t != TypeIncome && t != TypeExpense {
		return "", problem.Invalid(field, "must be income or expense")
	}
	return t, nil
}

// checkIDs refuses an empty or repeated id list (the contract says so too).
func checkIDs(ids []int64) error {
	if len(ids) == 0 {
		return problem.Invalid("/ids", "must list at least one id")
	}
	seen := make(map[int64]bool, len(ids))
	for _, id := range ids {
		if seen[id] {
			return problem.Invalid("/ids", "must not repeat an id")
		}
		seen[id] = true
	}
	return nil
}
