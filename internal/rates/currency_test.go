package rates

import "testing"

func TestIsCurrency(t *testing.T) {
	for _, c := range []string{"USD", "KRW", "EUR", "JPY", "VES", "SLE", "ZWG", "XCG", "XAU"} {
		if !IsCurrency(c) {
			t.Errorf("%s refused", c)
		}
	}
	// Made up, withdrawn, lower case, and the codes that name no money.
	for _, c := range []string{"XYZ", "ABC", "QQQ", "DEM", "VEF", "HRK", "ZWL", "usd", "US", "USDX", "", "XTS", "XXX"} {
		if IsCurrency(c) {
			t.Errorf("%q accepted", c)
		}
	}
	if n := len(iso4217); n < 170 || n > 185 {
		t.Errorf("%d codes: the table lost or gained a block", n)
	}
}
