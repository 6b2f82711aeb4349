package parser

import (
	"strings"

	"github.com/shopspring/decimal"
)

// maxAmount bounds every amount the parsers return (one quadrillion won): a
// larger figure in a message is a misreading, and staying far below the
// int64 limit keeps every later sum safe.
const maxAmount = 1_000_000_000_000_000

var koreanDigits = map[rune]int64{
	'영': 0, '공': 0, '일': 1, '이': 2, '삼': 3, '사': 4, '오': 5, '육': 6, '륙': 6, '칠': 7, '팔': 8, '구': 9,
}

var koreanSmallUnits = map[rune]int64{'십': 10, '백': 100, '천': 1000}

var koreanBigUnits = map[rune]int64{'만': 10_000, '억': 100_000_000, '조': 1_000_000_000_000}

// isAmountRune reports whether r can be part of a written amount such as
// "12,000", "1.5만", "3만5천" or "만오천".
func isAmountRune(r rune) bool {
	if r >= '0' && r <= '9' || r == ',' || r == '.' {
		return true
	}
	_, d := koreanDigits[r]
	_, s := koreanSmallUnits[r]
	_, b := koreanBigUnits[r]
	return d || s || b
}

// parseKoreanNumber reads an amount written with Arabic digits, Korean
// numerals and units, or a mix: "12,000", "50만", "1.5만", "3만5천", "만오천",
// "십이만", "1억2천만". ok is false when s holds no number or is out of range.
func parseKoreanNumber(s string) (int64, bool) {
	s = strings.ReplaceAll(s, ",", "")
	if s == "" {
		return 0, false
	}
	total := decimal.Zero   // sum of completed 만/억/조 groups
	section := decimal.Zero // value below the current big unit
	var num decimal.Decimal // the number being read, before its unit
	haveNum, seen := false, false
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r >= '0' && r <= '9' || r == '.':
			j := i
			for j < len(rs) && (rs[j] >= '0' && rs[j] <= '9' || rs[j] == '.') {
				j++
			}
			d, err := decimal.NewFromString(string(rs[i:j]))
			if err != nil || len(rs[i:j]) > 18 {
				return 0, false
			}
			num, haveNum, seen = d, true, true
			i = j - 1
		case koreanDigits[r] != 0 || r == '영' || r == '공':
			num, haveNum, seen = decimal.NewFromInt(koreanDigits[r]), true, true
		case koreanSmallUnits[r] != 0:
			if !haveNum {
				num = decimal.NewFromInt(1)
			}
			section = section.Add(num.Mul(decimal.NewFromInt(koreanSmallUnits[r])))
			num, haveNum, seen = decimal.Zero, false, true
		case koreanBigUnits[r] != 0:
			group := section
			if haveNum {
				group = group.Add(num)
			}
			if group.IsZero() {
				group = decimal.NewFromInt(1)
			}
			total = total.Add(group.Mul(decimal.NewFromInt(koreanBigUnits[r])))
			section, num, haveNum, seen = decimal.Zero, decimal.Zero, false, true
		default:
			return 0, false
		}
	}
	if !seen {
		return 0, false
	}
	if haveNum {
		section = section.Add(num)
	}
	v := total.Add(section).Round(0)
	if v.IsNegative() || v.GreaterThan(decimal.NewFromInt(maxAmount)) {
		return 0, false
	}
	return v.IntPart(), true
}

// parseDigits reads "12,500" or "12500" as a whole number of won.
func parseDigits(s string) (int64, bool) {
	s = strings.ReplaceAll(s, ",", "")
	if s == "" || len(s) > 16 {
		return 0, false
	}
	var v int64
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if v > maxAmount {
		return 0, false
	}
	return v, true
}

// parseDecimal reads a foreign amount such as "1,234.56".
func parseDecimal(s string) (decimal.Decimal, bool) {
	s = strings.ReplaceAll(s, ",", "")
	if len(s) > 24 {
		return decimal.Zero, false
	}
	d, err := decimal.NewFromString(s)
	if err != nil || d.IsNegative() || d.GreaterThan(decimal.NewFromInt(maxAmount)) {
		return decimal.Zero, false
	}
	return d, true
}
