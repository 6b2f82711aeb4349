package ledger

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"

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

// DecimalBounds are the digits a stored decimal may have, as the contract's
// pattern of the field writes them (EntryRequest's originalAmount: 15
// integer digits and 4 decimals; exchangeRate: 11 and 8).
// Every path that writes an entry (the API, restore, CSV import, card
// notifications) checks them here: a value one path stored and the API
// refused could not be saved unchanged (PUT answered 400) and made the
// member's own backup unrestorable (issue 41: an imported rate of 1e-13, an
// original amount of 1e40).
type DecimalBounds struct {
	Int, Frac int32
}

// The bounds of an entry's foreign amount and exchange rate.
var (
	OriginalAmountBounds = DecimalBounds{Int: 15, Frac: 4}
	ExchangeRateBounds   = DecimalBounds{Int: 11, Frac: 8}
)

// Check refuses d, a non-negative value of field, with more integer or
// fraction digits than b allows (trailing zeros of the fraction do not count).
func (b DecimalBounds) Check(field string, d decimal.Decimal) error {
	if d.GreaterThanOrEqual(decimal.New(1, b.Int)) {
		return problem.Invalid(field, fmt.Sprintf("must be below 10^%d", b.Int))
	}
	if !d.Equal(d.Truncate(b.Frac)) {
		return problem.Invalid(field, fmt.Sprintf("must have at most %d decimal places", b.Frac))
	}
	return nil
}
