package parser

import "strings"

// issuer is one card issuer or bank and the words its messages name it by.
// Aliases are tried longest first, so "KB국민" wins over "국민".
type issuer struct {
	name    string
	aliases []string
}

// issuers are the Korean card issuers and banks whose messages the parser
// knows. The name is the one wallets are usually called by; Aliases returns
// every spelling for matching a wallet in both directions.
var issuers = []issuer{
	{"신한카드", []string{"신한카드", "신한체크", "신한", "SHINHAN"}},
	{"KB국민카드", []string{"KB국민카드", "KB국민체크", "KB국민", "국민카드", "국민체크", "KB카드", "KB"}},
	{"현대카드", []string{"현대카드", "현대", "HYUNDAI"}},
	{"삼성카드", []string{"삼성카드", "삼성체크", "삼성", "SAMSUNG"}},
	{"롯데카드", []string{"롯데카드", "롯데", "LOTTE"}},
	{"우리카드", []string{"우리카드", "우리체크", "우리", "WOORI"}},
	{"하나카드", []string{"하나카드", "하나체크", "하나", "HANA"}},
	{"BC카드", []string{"BC카드", "비씨카드", "BC", "비씨"}},
	{"NH농협카드", []string{"NH농협카드", "NH농협", "농협카드", "NH카드", "NH체크", "농협", "NH"}},
	{"IBK기업은행", []string{"IBK기업은행", "IBK기업", "기업은행", "IBK"}},
	{"카카오뱅크", []string{"카카오뱅크", "카뱅", "KAKAOBANK"}},
	{"토스뱅크", []string{"토스뱅크", "토스", "TOSS"}},
	{"케이뱅크", []string{"케이뱅크", "K뱅크", "KBANK"}},
}

// Aliases returns the spellings of an issuer name the parser returned
// (Notification.Issuer), for matching wallet names; nil for an unknown name.
func Aliases(issuerName string) []string {
	for _, is := range issuers {
		if is.name == issuerName {
			return append([]string(nil), is.aliases...)
		}
	}
	return nil
}

// findIssuer returns the issuer named earliest in s and where its alias
// starts and ends; ok is false when none is named.
func findIssuer(s string) (name string, start, end int, ok bool) {
	upper := asciiUpper(s)
	start = -1
	for _, is := range issuers {
		for _, a := range is.aliases {
			i := strings.Index(upper, a)
			if i < 0 {
				continue
			}
			// Short Latin aliases ("KB", "NH", "BC") must not be the
			// inside of a longer word (a merchant such as "KBS").
			if isLatin(a) && !latinBoundary(upper, i, i+len(a)) {
				continue
			}
			if start < 0 || i < start || (i == start && i+len(a) > end) {
				name, start, end, ok = is.name, i, i+len(a), true
			}
		}
	}
	return name, start, end, ok
}

func isLatin(s string) bool {
	for _, r := range s {
		if r > 0x7f {
			return false
		}
	}
	return true
}

func latinBoundary(s string, start, end int) bool {
	if start > 0 && isASCIILetter(s[start-1]) {
		return false
	}
	if end < len(s) && isASCIILetter(s[end]) {
		return false
	}
	return true
}

func isASCIILetter(b byte) bool { return (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') }

// asciiUpper upper-cases ASCII letters only, so byte offsets stay those of s.
func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// asciiLower lower-cases ASCII letters only, so byte offsets stay those of s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c - 'A' + 'a'
		}
	}
	return string(b)
}
