package parser

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Kind says what a notification is.
type Kind string

// Kinds of notification.
const (
	KindPayment    Kind = "payment"
	KindCancel     Kind = "cancel"
	KindNotPayment Kind = "not_payment"
)

// Reasons a text is not a payment.
const (
	ReasonAdvertising = "advertising"
	ReasonBilling     = "billing or payment-due notice"
	ReasonLimit       = "credit limit notice"
	ReasonDeclined    = "declined payment"
	ReasonNoApproval  = "no approval or cancellation in the text"
	ReasonNoAmount    = "no amount in the text"
	ReasonEmpty       = "empty text"
)

// Notification is what a card or bank notification says.
//
// Amount is in won. A payment in a foreign currency has Currency set to its
// ISO code and OriginalAmount to the amount in that currency; its Amount is
// the won figure only when the message prints one, else 0 (the caller converts
// with an exchange rate). A won payment has Currency "KRW" and OriginalAmount
// equal to Amount. Installments is 0 for a lump sum (일시불) and N for N months.
// Last4 is the card's last digits as printed, which some issuers mask ("1*3*").
// At is the time in the message, in ref's location and with ref's year (the
// year before when that would put it more than a day after ref); ref itself
// when the message has no time.
type Notification struct {
	Kind           Kind
	Reason         string
	Issuer         string
	CardName       string
	CheckCard      bool
	Last4          string
	Amount         int64
	Currency       string
	OriginalAmount decimal.Decimal
	Installments   int
	Merchant       string
	At             time.Time
}

var (
	// The legal advertising tag (광고) leads every promotional SMS.
	adWords      = []string{"(광고)", "[광고]", "<광고>", "광고)", "(AD)", "[AD]"}
	promoWords   = []string{"이벤트", "혜택", "쿠폰", "캐시백", "경품", "추첨", "프로모션", "특가", "무이자할부안내", "EVENT"}
	billingWords = []string{"결제예정", "청구금액", "청구예정", "결제일", "납부", "명세서", "출금예정", "결제하실", "자동이체", "결제대금", "연체", "미납", "DUEDATE", "PAYMENTDUE", "STATEMENT"}
	limitWords   = []string{"한도상향", "한도하향", "한도변경", "한도조정", "한도증액", "한도감액", "한도안내", "한도가", "한도를", "한도는", "한도소진", "CREDITLIMIT"}
	declineWords = []string{"승인거절", "거절", "한도초과", "잔액부족", "DECLINED"}
	// The English words are those of the international networks' alerts
	// (Visa, Mastercard, American Express, JCB, UnionPay) and of card apps:
	// "was charged", "a charge of", "a transaction of", "used for a
	// purchase", "spent"; "reversed", "a refund ... was credited".
	cancelWords  = []string{"취소", "CANCEL", "REFUND", "환불", "REVERSED", "REVERSAL", "CREDITED", "VOIDED"}
	approveWords = []string{"승인", "결제", "사용", "APPROVED", "APPROVAL", "PAID", "PURCHASE", "CHARGE", "TRANSACTION", "SPENT", "일시불", "개월"}
)

var (
	// Running totals and balances an issuer appends: never the payment.
	totalRE   = regexp.MustCompile(`(?i)(총\s*누적|누적\s*금액|누적|잔액|잔여\s*한도|가용\s*한도|이용\s*가능\s*(금액|한도)?|사용\s*가능\s*(금액|한도)?|적립\s*(예정)?\s*포인트|포인트|balance|total)\s*[:：]?\s*-?\s*(₩\s*)?[0-9][0-9,]*(\.[0-9]+)?\s*(원|P|KRW)?`)
	foreignRE = regexp.MustCompile(`(?i)(?:\b(USD|JPY|EUR|GBP|CNY|RMB|HKD|SGD|AUD|CAD|CHF|THB|VND|PHP|TWD|NZD|MYR|IDR|INR|MXN|SEK|NOK|DKK|AED)\s?([0-9][0-9,]*(?:\.[0-9]+)?)|([0-9][0-9,]*(?:\.[0-9]+)?)\s?(USD|JPY|EUR|GBP|CNY|RMB|HKD|SGD|AUD|CAD|CHF|THB|VND|PHP|TWD|NZD|MYR|IDR|INR|MXN|SEK|NOK|DKK|AED)\b|(US\$|\$|€|£|¥)\s?([0-9][0-9,]*(?:\.[0-9]+)?)|([0-9][0-9,]*(?:\.[0-9]+)?)\s?(달러|엔|유로|위안|파운드))`)
	wonRE     = regexp.MustCompile(`(?i)(?:([0-9][0-9,]*)\s?원|(?:KRW|₩)\s?([0-9][0-9,]*)|([0-9][0-9,]*)\s?(?:KRW|won)\b)`)
	// Dates with a time first, then dates alone.
	dateTimeREs = []*regexp.Regexp{
		regexp.MustCompile(`(20[0-9]{2})[./-]\s?([0-9]{1,2})[./-]\s?([0-9]{1,2})\.?\s*(?:([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}))?)?`),
		regexp.MustCompile(`()([0-9]{1,2})월\s?([0-9]{1,2})일\s*(?:([0-9]{1,2})[:시]\s?([0-9]{2})분?(?::([0-9]{2}))?)?`),
		regexp.MustCompile(`()\b([0-9]{1,2})[/.-]([0-9]{1,2})\s*(?:at\s+)?([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}))?`),
		regexp.MustCompile(`()\b([0-9]{1,2})/([0-9]{1,2})\b()()()`),
	}
	installmentRE = regexp.MustCompile(`(?:할부\s?)?\(?\s?([0-9]{1,2})\s?개월\s?(?:할부)?\)?`)
	lumpSumRE     = regexp.MustCompile(`\(?\s?일시불\s?\)?`)
	last4REs      = []*regexp.Regexp{
		regexp.MustCompile(`[(\[]\s?([0-9*]{4})\s?[)\]]`),
		regexp.MustCompile(`(?i)(?:\*|끝자리\s?|ending\s(?:in\s)?|no\.\s?)([0-9]{4})\b`),
		regexp.MustCompile(`(?:승인|취소)\s([0-9]{4})(?:\s|$)`),
	}
	// The card product words right after the issuer: "카드 M", "체크", "카드".
	cardNameRE = regexp.MustCompile(`^(?:[A-Za-z가-힣]*)(?:\s(?:[A-Z][A-Za-z0-9+]{0,11}\b|[가-힣]{1,6}카드))?`)
	digitsRE   = regexp.MustCompile(`^\s?([0-9*]{4})(?:[^0-9,.:/]|$)`)
	// Member names as issuers print them: masked ("홍*동", "HONG*GD") or
	// with the honorific ("홍길동님").
	nameRE = regexp.MustCompile(`(?:[가-힣A-Za-z]{1,4}\*+[가-힣A-Za-z]{0,4}\s?님?|[가-힣]{2,4}\s?님|고객님)`)
	// Words of the message itself, never part of a merchant.
	noiseRE = regexp.MustCompile(`(?im)(\||(?:^|\s)(?:결제|사용)(?:\s|$)|승인\s?취소|취소\s?승인|해외\s?승인|국내\s?승인|승인|취소|(체크|신용)\s?카드|approved|cancel(l?ed)?|refund(ed)?|\bcard\b|\bat\b|\bon\b)`)
	// The English form names the merchant after "at" (a refund: "from"),
	// up to what the sentence goes on with.
	atRE     = regexp.MustCompile(`(?i)\b(?:at|from)\s+(.+?)(?:\s+(?:on|was|has|is|to)\s+.*)?$`)
	trimCuts = " \t\n|:-,./[]<>·•"
)

// ParseNotification reads a card or bank notification. ref is when it was
// posted: it gives the year and location of the message's date and time.
func ParseNotification(text string, ref time.Time) Notification {
	s := normalize(text)
	n := Notification{At: ref}
	if s == "" {
		n.Kind, n.Reason = KindNotPayment, ReasonEmpty
		return n
	}
	flat := asciiUpper(compact(s))
	switch {
	case containsAny(flat, adWords...) || strings.HasPrefix(flat, "광고"):
		return notPayment(n, ReasonAdvertising)
	case containsAny(flat, declineWords...):
		return notPayment(n, ReasonDeclined)
	case containsAny(flat, billingWords...):
		return notPayment(n, ReasonBilling)
	case containsAny(flat, limitWords...):
		return notPayment(n, ReasonLimit)
	}
	cancel := containsAny(flat, cancelWords...)
	approve := containsAny(flat, approveWords...)
	if !cancel && !approve {
		if containsAny(flat, promoWords...) {
			return notPayment(n, ReasonAdvertising)
		}
		return notPayment(n, ReasonNoApproval)
	}

	w := &work{s: []byte(s)}
	n.CheckCard = strings.Contains(flat, "체크")
	readIssuer(w, &n)
	w.maskAll(totalRE)
	if !readAmount(w, &n) {
		if containsAny(flat, promoWords...) {
			return notPayment(n, ReasonAdvertising)
		}
		return notPayment(n, ReasonNoAmount)
	}
	timeEnd := readTime(w, &n, ref)
	if timeEnd < 0 && containsAny(flat, promoWords...) {
		// "혜택" or "이벤트" with an amount but no time of payment is a
		// promotion quoting a price, not a payment.
		return notPayment(n, ReasonAdvertising)
	}
	if loc := lumpSumRE.FindIndex(w.s); loc != nil {
		w.mask(loc[0], loc[1])
	}
	if m := installmentRE.FindSubmatchIndex(w.s); m != nil {
		months, _ := strconv.Atoi(string(w.s[m[2]:m[3]]))
		if months > 1 {
			n.Installments = months
		}
		w.mask(m[0], m[1])
	}
	if n.Last4 == "" {
		readLast4(w, &n)
	}
	n.Merchant = readMerchant(w, s, timeEnd)
	n.Kind = KindPayment
	if cancel {
		n.Kind = KindCancel
	}
	return n
}

func notPayment(n Notification, reason string) Notification {
	n.Kind, n.Reason = KindNotPayment, reason
	return n
}

// work is the message with every part already read blanked out (replaced by
// line breaks of the same length), so later patterns cannot read a part twice
// and what is left over falls apart into the unread pieces.
type work struct {
	s []byte
}

func (w *work) mask(start, end int) {
	for i := start; i < end; i++ {
		w.s[i] = '\n'
	}
}

func (w *work) maskAll(re *regexp.Regexp) {
	for _, loc := range re.FindAllIndex(w.s, -1) {
		w.mask(loc[0], loc[1])
	}
}

// readIssuer finds the issuer, the card product named with it and the last
// digits printed right after it ("KB국민카드1234승인", "신한카드(1234)").
func readIssuer(w *work, n *Notification) {
	name, start, _, ok := findIssuer(string(w.s))
	if !ok {
		return
	}
	n.Issuer = name
	rest := string(w.s[start:])
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	cardName := cardNameRE.FindString(rest)
	// A currency code after the issuer is the amount, not a card product.
	if i := strings.IndexByte(cardName, ' '); i > 0 && isCurrencyCode(cardName[i+1:]) {
		cardName = cardName[:i]
	}
	// "승인" or "취소" glued to the card name belongs to the message.
	for _, word := range []string{"승인취소", "취소", "승인", "해외"} {
		if i := strings.Index(cardName, word); i > 0 {
			cardName = cardName[:i]
		}
	}
	n.CardName = strings.TrimSpace(strings.Trim(cardName, "[]"))
	end := start + len(cardName)
	if m := digitsRE.FindStringSubmatchIndex(string(w.s[end:])); m != nil {
		n.Last4 = string(w.s[end+m[2] : end+m[3]])
		end += m[3]
	}
	// A bracketed issuer ("[현대카드]") leaves its brackets behind.
	if start > 0 && w.s[start-1] == '[' {
		start--
	}
	w.mask(start, end)
}

// readAmount reads the payment amount: a foreign amount with its currency
// (and the won figure when also printed), else a won amount.
func readAmount(w *work, n *Notification) bool {
	if m := foreignRE.FindSubmatchIndex(w.s); m != nil {
		code, num := "", ""
		for g := 1; g < len(m)/2; g += 2 {
			a, b := m[2*g], m[2*g+2]
			if a < 0 && b < 0 {
				continue
			}
			if a >= 0 && isCurrencyWord(string(w.s[a:m[2*g+1]])) {
				code, num = string(w.s[a:m[2*g+1]]), string(w.s[b:m[2*g+3]])
			} else {
				num, code = string(w.s[a:m[2*g+1]]), string(w.s[b:m[2*g+3]])
			}
			break
		}
		if d, ok := parseDecimal(num); ok && d.IsPositive() {
			n.Currency = currencyCode(code)
			n.OriginalAmount = d
			w.mask(m[0], m[1])
			if m := wonRE.FindSubmatchIndex(w.s); m != nil {
				if v, ok := wonAmount(w.s, m); ok {
					n.Amount = v
					w.mask(m[0], m[1])
				}
			}
			return true
		}
	}
	for _, m := range wonRE.FindAllSubmatchIndex(w.s, -1) {
		if v, ok := wonAmount(w.s, m); ok && v > 0 {
			n.Amount, n.Currency, n.OriginalAmount = v, "KRW", decimal.NewFromInt(v)
			w.mask(m[0], m[1])
			return true
		}
	}
	return false
}

func wonAmount(s []byte, m []int) (int64, bool) {
	for g := 1; g <= 3; g++ {
		if m[2*g] >= 0 {
			return parseDigits(string(s[m[2*g]:m[2*g+1]]))
		}
	}
	return 0, false
}

func isCurrencyCode(s string) bool {
	m := foreignRE.FindStringSubmatch(s + " 1")
	return m != nil && strings.EqualFold(m[1], s) || strings.EqualFold(s, "KRW")
}

func isCurrencyWord(s string) bool {
	if s == "" {
		return false
	}
	return s[0] < '0' || s[0] > '9'
}

func currencyCode(s string) string {
	switch strings.ToUpper(s) {
	case "US$", "$", "달러":
		return "USD"
	case "€", "유로":
		return "EUR"
	case "£", "파운드":
		return "GBP"
	case "¥", "엔":
		return "JPY"
	case "RMB", "위안":
		return "CNY"
	}
	return strings.ToUpper(s)
}

// readTime reads the message's date and time into n.At and returns where it
// ends in the message, or -1 when there is none.
func readTime(w *work, n *Notification, ref time.Time) int {
	for _, re := range dateTimeREs {
		m := re.FindSubmatchIndex(w.s)
		if m == nil {
			continue
		}
		num := func(g int) int {
			if m[2*g] < 0 || m[2*g] == m[2*g+1] {
				return -1
			}
			v, _ := strconv.Atoi(string(w.s[m[2*g]:m[2*g+1]]))
			return v
		}
		year, month, day, hour, minute, sec := num(1), num(2), num(3), num(4), num(5), num(6)
		at, ok := dateIn(ref, year, month, day, hour, minute, sec)
		if !ok {
			continue
		}
		n.At = at
		w.mask(m[0], m[1])
		return m[1]
	}
	return -1
}

// dateIn builds a time in ref's location from the parts a message printed;
// -1 means not printed. A date without a year takes ref's year, or the year
// before when it would otherwise lie more than a day after ref.
func dateIn(ref time.Time, year, month, day, hour, minute, sec int) (time.Time, bool) {
	if month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	hour, minute, sec = max(hour, 0), max(minute, 0), max(sec, 0)
	explicitYear := year > 0
	if !explicitYear {
		year = ref.Year()
	}
	at := time.Date(year, time.Month(month), day, hour, minute, sec, 0, ref.Location())
	if at.Day() != day {
		return time.Time{}, false // 2/30 and the like
	}
	if !explicitYear && at.After(ref.Add(24*time.Hour)) {
		at = at.AddDate(-1, 0, 0)
	}
	return at, true
}

func readLast4(w *work, n *Notification) {
	for _, re := range last4REs {
		if m := re.FindSubmatchIndex(w.s); m != nil {
			n.Last4 = string(w.s[m[2]:m[3]])
			w.mask(m[0], m[1])
			return
		}
	}
}

// readMerchant takes what is left once every other part was read: the first
// piece after the time (where most issuers print the merchant), else the last
// piece. The English form names it after "at".
func readMerchant(w *work, original string, timeEnd int) string {
	if m := atRE.FindStringSubmatch(strings.ReplaceAll(string(w.s), "\n", " ")); m != nil && !hasHangul(original) {
		if merchant := cleanMerchant(m[1]); merchant != "" {
			return merchant
		}
	}
	w.maskAll(nameRE)
	w.maskAll(noiseRE)
	type piece struct {
		text  string
		start int
	}
	var pieces []piece
	start := -1
	for i := 0; i <= len(w.s); i++ {
		if i < len(w.s) && w.s[i] != '\n' {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			if t := cleanMerchant(string(w.s[start:i])); t != "" {
				pieces = append(pieces, piece{t, start})
			}
			start = -1
		}
	}
	if len(pieces) == 0 {
		return ""
	}
	if timeEnd >= 0 {
		for _, p := range pieces {
			if p.start >= timeEnd {
				return p.text
			}
		}
	}
	return pieces[len(pieces)-1].text
}

var merchantNoise = map[string]bool{
	"결제": true, "사용": true, "해외": true, "국내": true, "할부": true, "님": true, "원": true,
	"카드": true, "일시불": true, "승인": true, "이용": true, "가맹점": true, "사용처": true,
}

func cleanMerchant(s string) string {
	s = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), trimCuts))
	for _, prefix := range []string{"가맹점", "사용처", "이용처"} {
		s = strings.TrimSpace(strings.TrimPrefix(s, prefix))
	}
	s = trimParens(strings.Trim(s, trimCuts))
	if merchantNoise[s] || !hasLetter(s) {
		return ""
	}
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "")
	}
	return s
}

func hasLetter(s string) bool {
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0xAC00 && r <= 0xD7A3 || r > 0x2E80 {
			return true
		}
	}
	return false
}

func hasHangul(s string) bool {
	for _, r := range s {
		if r >= 0xAC00 && r <= 0xD7A3 {
			return true
		}
	}
	return false
}

// trimParens drops brackets left unmatched at either end ("(일시불" once the
// rest was read) but keeps a name's own ("(주)하이마트").
func trimParens(s string) string {
	for {
		t := strings.TrimSpace(s)
		switch {
		case strings.HasPrefix(t, "(") && !strings.Contains(t, ")"):
			t = t[1:]
		case strings.HasSuffix(t, ")") && !strings.Contains(t, "("):
			t = t[:len(t)-1]
		case strings.HasPrefix(t, ")"):
			t = t[1:]
		case strings.HasSuffix(t, "("):
			t = t[:len(t)-1]
		case strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") && strings.Count(t, "(") == 1:
			t = t[1 : len(t)-1]
		}
		if t == s {
			return t
		}
		s = t
	}
}

// Key derives a duplicate-detection key from what identifies one payment:
// kind, issuer, card digits, amount, currency, time and merchant. The same
// message delivered twice (push and SMS, or a retry) gives the same key; a
// second payment of the same amount at the same shop a minute later does not.
func (n Notification) Key() string {
	h := sha256.New()
	for _, part := range []string{
		string(n.Kind), n.Issuer, n.Last4, strconv.FormatInt(n.Amount, 10), n.Currency,
		n.OriginalAmount.String(), n.At.UTC().Format(time.RFC3339), n.Merchant,
	} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}
