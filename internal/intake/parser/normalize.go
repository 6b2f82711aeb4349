// Package parser is the intake area's rule parser. It reads entry drafts out
// of text: card and bank payment notifications (push and SMS) of Korean
// issuers, free text typed by a member ("어제 점심 12,000원", "coffee 4.5k
// yesterday") and the text of a receipt. It does no I/O and keeps no state:
// every function is a pure function of its arguments (the time it reads
// against is passed in), so package intake, its caller, decides about
// storage, time and outside services.
package parser

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxInputBytes bounds the text looked at: a notification or a line typed by a
// member is short, and anything longer is not one of them.
const maxInputBytes = 8 << 10

// headerRE matches the carrier's sender tags put in front of an SMS.
var headerRE = regexp.MustCompile(`(?i)\[\s*(web\s*발신|국외\s*발신|국제\s*발신|해외\s*발신)\s*\]`)

var spacesRE = regexp.MustCompile(`[ \t]+`)

// normalize returns text as the parsers read it: valid UTF-8, at most
// maxInputBytes, full-width forms folded to ASCII, other control characters
// and carrier headers removed, spaces collapsed, lines trimmed.
func normalize(text string) string {
	if len(text) > maxInputBytes {
		text = text[:maxInputBytes]
	}
	text = strings.ToValidUTF8(text, "")
	var b strings.Builder
	b.Grow(len(text))
	for _, r := range text {
		switch {
		case r == '\r' || r == '\n' || r == '\u2028' || r == '\u2029':
			b.WriteByte('\n')
		case r >= 0xFF01 && r <= 0xFF5E: // full-width ASCII
			b.WriteRune(r - 0xFF01 + 0x21)
		case r == '\u3000' || r == '\t' || unicode.IsSpace(r):
			b.WriteByte(' ')
		case r == '￦' || r == '₩':
			b.WriteRune('₩')
		case unicode.IsControl(r) || r == utf8.RuneError || unicode.Is(unicode.Cf, r):
			// dropped: zero-width and control characters
		default:
			b.WriteRune(r)
		}
	}
	text = headerRE.ReplaceAllString(b.String(), "\n")
	lines := strings.Split(text, "\n")
	out := lines[:0]
	for _, l := range lines {
		l = strings.TrimSpace(spacesRE.ReplaceAllString(l, " "))
		if l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// compact is s without any white space, for keyword checks that must not
// depend on how an issuer spaces its words.
func compact(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

func containsAny(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
