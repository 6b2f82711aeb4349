package parser

import (
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/shopspring/decimal"
)

// EntryType is the type of entry a text describes.
type EntryType string

// Entry types, spelled as the contract spells them.
const (
	Expense EntryType = "expense"
	Income  EntryType = "income"
)

// Draft is an entry read out of free text or a notification. Date is midnight
// of the day in the location of the "today" the parser was given. Merchant
// is what the text names besides amount and date ("점심", "택시", "coffee"),
// empty when nothing is left.
type Draft struct {
	Type     EntryType
	Amount   int64
	Merchant string
	Date     time.Time
}

var (
	incomeWords = []string{"입금", "받은", "월급", "급여", "수입", "받음", "받았", "환급", "이자", "용돈받", "보너스", "상여", "환불", "정산받",
		"salary", "income", "refund", "received", "got paid", "bonus", "deposit", "paycheck", "interest", "payday"}
	// Words that say what happened, not where: dropped from the merchant.
	fillerRE = regexp.MustCompile(`(?i)^(입금|출금|지출|받은|결제|결제함|씀|썼음|썼다|썼어|사용|사용함|냄|지불|수입|받음|받았음|spent|spend|paid|pay|for|from|refund|refunded|received|on|at|in|bought|buy|the|a|an|won|원|krw)$`)
	// Korean particles glued to the word before them ("스타벅스에서").
	particleSuffixes = []string{"에서", "으로", "에게", "한테", "에", "로", "을", "를"}

	relativeDays = []struct {
		words  []string
		offset int
	}{
		{[]string{"그저께", "그제", "엊그제", "day before yesterday"}, -2},
		{[]string{"어제", "yesterday", "yday"}, -1},
		{[]string{"오늘", "today", "tonight", "this morning"}, 0},
		{[]string{"내일", "tomorrow"}, 1},
	}
	daysAgoRE    = regexp.MustCompile(`(?i)([0-9]{1,3})\s?(?:일\s?전|days?\s+ago)`)
	weekdayRE    = regexp.MustCompile(`(?i)(지난\s?주\s?|last\s+)?(월|화|수|목|금|토|일)요일|(last\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)`)
	fullDateRE   = regexp.MustCompile(`(20[0-9]{2})\s?[-./년]\s?([0-9]{1,2})\s?[-./월]\s?([0-9]{1,2})일?`)
	monthDayRE   = regexp.MustCompile(`\b([0-9]{1,2})\s?/\s?([0-9]{1,2})\b|([0-9]{1,2})월\s?([0-9]{1,2})일`)
	dayOnlyRE    = regexp.MustCompile(`(^|\s)([0-9]{1,2})일(\s|$)`)
	kiloRE       = regexp.MustCompile(`(?i)([0-9][0-9,]*(?:\.[0-9]+)?)\s?k\b`)
	koreanWeek   = map[string]time.Weekday{"일": time.Sunday, "월": time.Monday, "화": time.Tuesday, "수": time.Wednesday, "목": time.Thursday, "금": time.Friday, "토": time.Saturday}
	englishWeek  = map[string]time.Weekday{"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday, "thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday}
	notifSignals = []string{"승인", "APPROVED", "취소", "누적", "일시불"}
)

// ParseText reads an entry out of a line a member typed ("어제 점심
// 12,000원", "coffee 4.5k yesterday", "만오천원 택시", "3/14 월세 50만원 입금")
// or a pasted card notification. Dates are relative to today, whose location
// is the app's time zone; a month and day without a year that would lie after
// today are taken from last year. ok is false when the text holds no amount.
func ParseText(text string, today time.Time) (Draft, bool) {
	s := normalize(text)
	if s == "" {
		return Draft{}, false
	}
	if d, isNotification := draftFromNotification(s, today); isNotification {
		return d, d.Amount > 0
	}
	line := []byte(strings.ReplaceAll(s, "\n", " "))
	w := &work{s: line}
	d := Draft{Type: Expense, Date: dayOf(today)}
	d.Date = readTextDate(w, today)
	// A foreign amount ("$12", "USD 12.50") is no won amount: blank it so it
	// is not read as one. Converting is the caller's business.
	w.maskAll(foreignRE)
	amount, ok := readTextAmount(w)
	if !ok {
		return Draft{}, false
	}
	d.Amount = amount
	lower := strings.ToLower(s)
	if containsAny(lower, incomeWords...) {
		d.Type = Income
	}
	d.Merchant = textMerchant(string(w.s))
	return d, true
}

// draftFromNotification reads a pasted notification as a draft: a payment is
// an expense, a cancellation an income (money back). isNotification is true
// when s is a notification, whose figures then must not be read as free text
// (card digits are no amount): an advertisement, a bill or a declined payment
// gives no draft, and neither does a foreign payment without its won figure
// (it needs a rate). Those answer a Draft with no Amount.
func draftFromNotification(s string, today time.Time) (d Draft, isNotification bool) {
	flat := asciiUpper(compact(s))
	n := ParseNotification(s, today)
	switch {
	case n.Kind == KindNotPayment:
		// "회사 이벤트 회비 2만원" is free text, not a promotion: only a text
		// naming an issuer (or tagged as advertising) is a notice.
		switch n.Reason {
		case ReasonAdvertising, ReasonBilling, ReasonLimit, ReasonDeclined:
			return Draft{}, n.Issuer != "" || containsAny(flat, adWords...)
		}
		return Draft{}, false
	case !containsAny(flat, notifSignals...) && n.Issuer == "":
		return Draft{}, false // free text that merely says 결제 or 사용
	case n.Amount <= 0:
		return Draft{}, true
	}
	d = Draft{Type: Expense, Amount: n.Amount, Merchant: n.Merchant, Date: dayOf(n.At)}
	if n.Kind == KindCancel {
		d.Type = Income
	}
	return d, true
}

func dayOf(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

// readTextDate reads the first date the text gives, relative or written out,
// and blanks it out of w; today when there is none.
func readTextDate(w *work, today time.Time) time.Time {
	day := dayOf(today)
	lower := asciiLower(string(w.s))
	if m := fullDateRE.FindSubmatchIndex(w.s); m != nil {
		y, _ := strconv.Atoi(string(w.s[m[2]:m[3]]))
		mo, _ := strconv.Atoi(string(w.s[m[4]:m[5]]))
		dd, _ := strconv.Atoi(string(w.s[m[6]:m[7]]))
		if t, ok := dateIn(day, y, mo, dd, 0, 0, 0); ok {
			w.mask(m[0], m[1])
			return t
		}
	}
	if m := monthDayRE.FindSubmatchIndex(w.s); m != nil {
		g := 1
		if m[2] < 0 {
			g = 3
		}
		mo, _ := strconv.Atoi(string(w.s[m[2*g]:m[2*g+1]]))
		dd, _ := strconv.Atoi(string(w.s[m[2*g+2]:m[2*g+3]]))
		// A date without a year lies on or before today (a draft records
		// what happened), so dateIn's one-day grace is taken back.
		if t, ok := dateIn(day, -1, mo, dd, 0, 0, 0); ok {
			if t.After(day) {
				t = t.AddDate(-1, 0, 0)
			}
			w.mask(m[0], m[1])
			return t
		}
	}
	if m := daysAgoRE.FindSubmatchIndex(w.s); m != nil {
		n, _ := strconv.Atoi(string(w.s[m[2]:m[3]]))
		w.mask(m[0], m[1])
		return day.AddDate(0, 0, -n)
	}
	for _, rd := range relativeDays {
		for _, word := range rd.words {
			if i := strings.Index(lower, word); i >= 0 {
				w.mask(i, i+len(word))
				return day.AddDate(0, 0, rd.offset)
			}
		}
	}
	if m := weekdayRE.FindSubmatchIndex(w.s); m != nil {
		var wd time.Weekday
		if m[4] >= 0 {
			wd = koreanWeek[string(w.s[m[4]:m[5]])]
		} else {
			wd = englishWeek[strings.ToLower(string(w.s[m[8]:m[9]]))]
		}
		back := (int(day.Weekday()) - int(wd) + 7) % 7
		if m[2] >= 0 || m[6] >= 0 { // "지난주 금요일", "last friday": the week before
			if back == 0 {
				back = 7
			}
			if m[2] >= 0 { // 지난주 counts calendar weeks starting on Monday
				back = daysBackToLastWeek(day, wd)
			}
		}
		w.mask(m[0], m[1])
		return day.AddDate(0, 0, -back)
	}
	if m := dayOnlyRE.FindSubmatchIndex(w.s); m != nil {
		dd, _ := strconv.Atoi(string(w.s[m[4]:m[5]]))
		if t, ok := dateIn(day, day.Year(), int(day.Month()), dd, 0, 0, 0); ok {
			if t.After(day) {
				t = t.AddDate(0, -1, 0)
			}
			w.mask(m[4], m[5]+len("일"))
			return t
		}
	}
	return day
}

// daysBackToLastWeek is how many days before day the given weekday of the
// previous Monday-to-Sunday week is.
func daysBackToLastWeek(day time.Time, wd time.Weekday) int {
	sinceMonday := (int(day.Weekday()) + 6) % 7
	target := (int(wd) + 6) % 7
	return sinceMonday + 7 - target
}

// readTextAmount finds the amount: "4.5k", a figure followed by 원 or with a
// Korean unit ("12,000원", "50만원", "만오천원", "3만5천"), else the longest
// bare figure. It blanks the amount out of w.
func readTextAmount(w *work) (int64, bool) {
	if m := kiloRE.FindSubmatchIndex(w.s); m != nil {
		if d, ok := parseDecimal(string(w.s[m[2]:m[3]])); ok {
			v := d.Shift(3).Round(0)
			if v.IsPositive() && v.LessThanOrEqual(decimalMax) {
				w.mask(m[0], m[1])
				return v.IntPart(), true
			}
		}
	}
	type candidate struct {
		start, end int
		value      int64
		marked     bool
		digits     int
	}
	var best *candidate
	rs := []rune(string(w.s))
	offsets := runeOffsets(string(w.s))
	for i := 0; i < len(rs); {
		if !isAmountRune(rs[i]) {
			i++
			continue
		}
		j := i
		for j < len(rs) {
			if isAmountRune(rs[j]) {
				j++
				continue
			}
			// "2만 5천원": one space after a big unit, before more figures.
			if rs[j] == ' ' && j > i && koreanBigUnits[rs[j-1]] != 0 && j+1 < len(rs) && isFigureStart(rs[j+1]) {
				j++
				continue
			}
			break
		}
		run := strings.ReplaceAll(string(rs[i:j]), " ", "")
		end := j
		won := j < len(rs) && rs[j] == '원'
		if won {
			end++
		}
		c := classifyRun(run, won, i == 0 || !isWordRune(rs[i-1]), end == len(rs) || !isWordRune(rs[end]))
		if c.ok {
			cand := candidate{offsets[i], offsets[end], c.value, c.marked, c.digits}
			if best == nil || cand.marked && !best.marked || cand.marked == best.marked && cand.digits > best.digits {
				best = &cand
			}
		}
		i = j
	}
	if best == nil || best.value <= 0 {
		return 0, false
	}
	w.mask(best.start, best.end)
	return best.value, true
}

var decimalMax = decimal.NewFromInt(maxAmount)

type runClass struct {
	ok     bool
	value  int64
	marked bool // followed by 원 or written with a Korean unit
	digits int
}

// classifyRun decides whether a run of amount characters is an amount. A run
// of Korean numerals alone ("만오천") counts only before 원, since the same
// syllables start ordinary words (이마트, 오늘); a bare figure counts only as
// a whole word.
func classifyRun(run string, won, wordStart, wordEnd bool) runClass {
	run = strings.Trim(run, ",.")
	hasDigit, hasUnit := false, false
	digits := 0
	for _, r := range run {
		if r >= '0' && r <= '9' {
			hasDigit = true
			digits++
		}
		if koreanBigUnits[r] != 0 || koreanSmallUnits[r] != 0 {
			hasUnit = true
		}
	}
	switch {
	case !hasDigit && (!won || !wordStart):
		return runClass{}
	case won:
		// "12,000원" counts even glued to the word before ("택시비12000원").
	case !wordStart || !hasUnit && !wordEnd:
		return runClass{}
	}
	v, ok := parseKoreanNumber(run)
	if !ok || v <= 0 {
		return runClass{}
	}
	return runClass{ok: true, value: v, marked: won || hasUnit, digits: digits}
}

func isFigureStart(r rune) bool {
	return r >= '0' && r <= '9' || koreanDigits[r] != 0
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func runeOffsets(s string) []int {
	offsets := make([]int, 0, len(s)+1)
	for i := range s {
		offsets = append(offsets, i)
	}
	return append(offsets, len(s))
}

// textMerchant is what is left of the text once amount and date are gone,
// without the words that say what happened.
func textMerchant(rest string) string {
	var words []string
	for _, word := range strings.Fields(strings.ReplaceAll(rest, "\n", " ")) {
		word = strings.Trim(word, trimCuts+"!?~")
		for _, p := range particleSuffixes {
			if len([]rune(word)) > len([]rune(p))+1 && strings.HasSuffix(word, p) && hasHangul(p) {
				word = strings.TrimSuffix(word, p)
				break
			}
		}
		if word == "" || fillerRE.MatchString(word) || !hasLetter(word) {
			continue
		}
		lower := strings.ToLower(word)
		if containsAny(lower, "입금", "월급받", "받음", "received") && len([]rune(word)) <= 3 {
			continue
		}
		words = append(words, word)
	}
	return cleanMerchant(strings.Join(words, " "))
}
