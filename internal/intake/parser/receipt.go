package parser

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Receipt is the draft read out of a receipt's recognised text. Each field is
// zero when the text does not show it.
type Receipt struct {
	Merchant string
	Total    int64
	Date     time.Time
}

var (
	// Total lines, best first: what was actually charged beats a subtotal.
	totalLabels = [][]string{
		{"결제금액", "받을금액", "승인금액", "카드결제", "AMOUNTDUE", "GRANDTOTAL"},
		{"합계금액", "총합계", "총액", "총금액", "합계", "TOTAL"},
	}
	merchantLabelRE = regexp.MustCompile(`(?i)^\s*(상호|상호명|가맹점|가맹점명|매장명|매장|store|merchant)\s*[:：]?\s*(.+)$`)
	receiptDateRE   = regexp.MustCompile(`(20[0-9]{2})\s?[-./년]\s?([0-9]{1,2})\s?[-./월]\s?([0-9]{1,2})|\b([0-9]{2})[-./]([0-9]{2})[-./]([0-9]{2})\b`)
	receiptNumberRE = regexp.MustCompile(`[0-9][0-9,]*(\.[0-9]{1,2}\b)?`)
	receiptSkipRE   = regexp.MustCompile(`(?i)(영수증|receipt|매출전표|카드전표|신용승인|고객용|사업자|대표|전화|tel|주소|pos|no\.|[0-9]{3}-[0-9]{2}-[0-9]{5})`)
)

// ParseReceipt reads merchant, total and date out of a receipt's text. ok is
// false when it finds none of them. A two-digit year is taken as 20xx.
func ParseReceipt(text string, today time.Time) (Receipt, bool) {
	s := normalize(text)
	var r Receipt
	lines := strings.Split(s, "\n")
	r.Total = receiptTotal(lines)
	if m := receiptDateRE.FindStringSubmatch(s); m != nil {
		y, mo, d := m[1], m[2], m[3]
		if y == "" {
			y, mo, d = "20"+m[4], m[5], m[6]
		}
		yy, _ := strconv.Atoi(y)
		mm, _ := strconv.Atoi(mo)
		dd, _ := strconv.Atoi(d)
		if t, ok := dateIn(dayOf(today), yy, mm, dd, 0, 0, 0); ok {
			r.Date = t
		}
	}
	r.Merchant = receiptMerchant(lines)
	return r, r.Total > 0 || r.Merchant != "" || !r.Date.IsZero()
}

func receiptTotal(lines []string) int64 {
	for _, labels := range totalLabels {
		for i, line := range lines {
			if !containsAny(asciiUpper(compact(line)), labels...) {
				continue
			}
			// The figure is on the label's line, or on the next one when
			// the receipt prints it in a column below.
			for _, l := range []string{line, next(lines, i)} {
				if v := lastFigure(l); v > 0 {
					return v
				}
			}
		}
	}
	return 0
}

func next(lines []string, i int) string {
	if i+1 < len(lines) {
		return lines[i+1]
	}
	return ""
}

func lastFigure(line string) int64 {
	all := receiptNumberRE.FindAllString(line, -1)
	for i := len(all) - 1; i >= 0; i-- {
		// A foreign receipt's cents are dropped: the draft is a hint.
		whole, _, _ := strings.Cut(all[i], ".")
		if v, ok := parseDigits(whole); ok && v > 0 {
			return v
		}
	}
	return 0
}

func receiptMerchant(lines []string) string {
	for _, l := range lines {
		if m := merchantLabelRE.FindStringSubmatch(l); m != nil {
			if name := cleanMerchant(m[2]); name != "" {
				return name
			}
		}
	}
	for _, l := range lines {
		if receiptSkipRE.MatchString(l) || receiptDateRE.MatchString(l) || lastFigure(l) > 0 && !hasHangul(l) {
			continue
		}
		if name := cleanMerchant(l); name != "" {
			return name
		}
	}
	return ""
}
