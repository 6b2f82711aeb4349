package parser

import (
	"testing"
	"time"
	"unicode/utf8"
)

var fuzzSeeds = []string{
	"[Web발신]\n신한카드(1234)승인 홍*동 12,500원(일시불)11/16 12:34 스타벅스 누적1,234,567원",
	"KB국민카드1234승인\n홍*동님\nUSD 12.50 일시불\n11/16 12:34\nAMAZON",
	"Card *1234 approved USD 12.50 at STARBUCKS",
	"(광고) 이벤트 혜택",
	"어제 점심 12,000원",
	"coffee 4.5k yesterday",
	"만오천원 택시",
	"3/14 월세 50만원 입금",
	"9999999999999999999999원 99/99 99:99",
	"조조조조조원 억억만만천원",
	"2/30 1.2.3k -5원 ₩-1",
	"\x00\xff\xfe승인\u200b취소",
}

func FuzzParseNotification(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, int64(1_794_800_000))
	}
	f.Fuzz(func(t *testing.T, text string, unix int64) {
		ref := time.Unix(unix%4_000_000_000, 0).In(seoul)
		n := ParseNotification(text, ref)
		if n.Amount < 0 || n.OriginalAmount.IsNegative() || n.Installments < 0 {
			t.Fatalf("negative figure from %q: %+v", text, n)
		}
		if n.Kind != KindPayment && n.Kind != KindCancel && n.Kind != KindNotPayment {
			t.Fatalf("kind %q from %q", n.Kind, text)
		}
		if n.Kind == KindNotPayment && n.Reason == "" {
			t.Fatalf("no reason for %q", text)
		}
		if !utf8.ValidString(n.Merchant) || !utf8.ValidString(n.CardName) {
			t.Fatalf("invalid UTF-8 from %q: %+v", text, n)
		}
	})
}

func FuzzParseText(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	today := time.Date(2026, 11, 16, 10, 0, 0, 0, seoul)
	f.Fuzz(func(t *testing.T, text string) {
		d, ok := ParseText(text, today)
		if d.Amount < 0 || ok && d.Amount == 0 {
			t.Fatalf("amount %d (ok %v) from %q", d.Amount, ok, text)
		}
		if ok && d.Type != Expense && d.Type != Income {
			t.Fatalf("type %q from %q", d.Type, text)
		}
		if !utf8.ValidString(d.Merchant) {
			t.Fatalf("invalid UTF-8 merchant from %q", text)
		}
		r, _ := ParseReceipt(text, today)
		if r.Total < 0 {
			t.Fatalf("negative total from %q", text)
		}
	})
}
