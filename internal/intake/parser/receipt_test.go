package parser

import (
	"testing"
	"time"
)

func TestParseReceipt(t *testing.T) {
	t.Parallel()
	today := time.Date(2026, 11, 16, 10, 0, 0, 0, seoul)
	cases := []struct {
		name, text, merchant, date string
		total                      int64
	}{
		{"labelled", "[영수증]\n상호: 스타벅스 역삼점\n사업자번호 123-45-67890\n2026-11-15 12:34\n아메리카노 2 9,000\n합계 9,000\n결제금액 9,000원", "스타벅스 역삼점", "2026-11-15", 9000},
		{"first line merchant", "김밥천국 선릉점\nTEL 02-555-1234\n26/11/14 12:01\n참치김밥 4,500\n라면 4,000\n합 계\n8,500", "김밥천국 선릉점", "2026-11-14", 8500},
		{"english", "TRADER JOE'S\n11/14/2026\nBANANAS 0.99\nTOTAL 23.45", "TRADER JOE'S", "", 23},
		{"nothing", "", "", "", 0},
	}
	for _, c := range cases {
		r, ok := ParseReceipt(c.text, today)
		date := ""
		if !r.Date.IsZero() {
			date = r.Date.Format(time.DateOnly)
		}
		if r.Merchant != c.merchant || r.Total != c.total || date != c.date {
			t.Errorf("%s: got %+v (date %s), want %q %d %s", c.name, r, date, c.merchant, c.total, c.date)
		}
		if ok != (c.merchant != "" || c.total != 0 || c.date != "") {
			t.Errorf("%s: ok %v", c.name, ok)
		}
	}
}

func TestParseKoreanNumber(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{
		"12,000": 12000, "50만": 500000, "1.5만": 15000, "3만5천": 35000, "만오천": 15000,
		"십이만": 120000, "1억2천만": 120000000, "이천오백": 2500, "백만": 1000000,
	} {
		if got, ok := parseKoreanNumber(in); !ok || got != want {
			t.Errorf("%s: %d %v, want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", ",", "1.2.3"} {
		if v, ok := parseKoreanNumber(in); ok {
			t.Errorf("%s: %d, want refused", in, v)
		}
	}
}

func TestAliases(t *testing.T) {
	t.Parallel()
	n := ParseNotification("KB국민체크4321승인 7,900원 11/16 07:48 GS25", time.Date(2026, 11, 16, 10, 0, 0, 0, seoul))
	if n.Issuer != "KB국민카드" || !n.CheckCard || len(Aliases(n.Issuer)) == 0 {
		t.Fatalf("got %+v, aliases %v", n, Aliases(n.Issuer))
	}
	if Aliases("nobody") != nil {
		t.Fatal("aliases of an unknown issuer")
	}
}

func TestNotificationKey(t *testing.T) {
	t.Parallel()
	ref := time.Date(2026, 11, 16, 12, 40, 0, 0, seoul)
	sms := "[Web발신]\n신한카드(1234)승인 홍*동 12,500원(일시불)11/16 12:34 스타벅스 누적1,234,567원"
	push := "신한카드(1234)승인 홍*동 12,500원(일시불)11/16 12:34 스타벅스 누적1,247,067원"
	later := "[Web발신]\n신한카드(1234)승인 홍*동 12,500원(일시불)11/16 12:35 스타벅스 누적1,247,067원"
	a, b, c := ParseNotification(sms, ref).Key(), ParseNotification(push, ref.Add(time.Minute)).Key(), ParseNotification(later, ref).Key()
	if a != b || a == c || len(a) != 32 {
		t.Fatalf("keys %s %s %s", a, b, c)
	}
}
