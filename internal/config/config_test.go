package config

import (
	"os"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestDefaultsWork(t *testing.T) {
	t.Parallel()
	c, err := Load(env(nil))
	if err != nil {
		t.Fatalf("defaults refused: %v", err)
	}
	if c.HTTPAddr != ":8080" || c.SQLInitMode != "always" || c.BaseCurrency != "KRW" {
		t.Fatalf("defaults %+v", c)
	}
	if c.Timezone.String() != "Asia/Seoul" {
		t.Fatalf("time zone %s", c.Timezone)
	}
	if c.SessionIdleTimeout != 30*24*time.Hour || c.SessionLifetime != 180*24*time.Hour {
		t.Fatalf("session lifetimes %s / %s", c.SessionIdleTimeout, c.SessionLifetime)
	}
	if c.AccountCryptoKey != nil {
		t.Fatal("crypto key set without ACCOUNT_CRYPTO_KEY")
	}
	if c.BoardImageDailyLimit != 50 {
		t.Fatalf("daily image limit %d", c.BoardImageDailyLimit)
	}
	if c.ImageMaxPixels != 50_000_000 || c.ImageMaxFrames != 300 {
		t.Fatalf("image bounds %d pixels, %d frames", c.ImageMaxPixels, c.ImageMaxFrames)
	}
	if c.LogFlushInterval != 100*time.Millisecond {
		t.Fatalf("log flush interval %s", c.LogFlushInterval)
	}
	if c.DatabaseHangTimeout != time.Second {
		t.Fatalf("database hang timeout %s", c.DatabaseHangTimeout)
	}
}

func TestBadValuesNameTheVariable(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"SQL_INIT_MODE":              "sometimes",
		"DATABASE_URL":               "mysql://x/y",
		"REDIS_URL":                  "not a url",
		"PUBLIC_BASE_URL":            "ftp://x",
		"COOKIE_SECURE":              "maybe",
		"TRUSTED_PROXIES":            "10.0.0.0/8, nonsense",
		"ACCOUNT_CRYPTO_KEY":         "c2hvcnQ=",
		"APP_TIMEZONE":               "Mars/Olympus",
		"BASE_CURRENCY":              "WON!",
		"SESSION_IDLE_TIMEOUT":       "-1h",
		"IDP_A_JWKS_URL":             "jwks",
		"LOG_LEVEL":                  "loud",
		"LOG_FLUSH_INTERVAL":         "-5ms",
		"STORE_TIMEOUT":              "soon",
		"STORE_PACKAGE_NAME":         "no dots",
		"BILLING_MONTHLY_PRODUCT_ID": "Premium Monthly",
		"BILLING_MONTHLY_PRICE":      "-5",
		"BILLING_YEARLY_PERIOD":      "P0D",
		"BILLING_YEARLY_PRODUCT_ID":  "premium_monthly",
		"CORS_ALLOWED_ORIGINS":       "https://app.example, *",
		"BOARD_IMAGE_DAILY_LIMIT":    "0",
		"IMAGE_MAX_PIXELS":           "-1",
		"IMAGE_MAX_FRAMES":           "many",
		"GOGC":                       "0",
		"DATABASE_HANG_TIMEOUT":      "10ms",
	}
	for name, value := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Load(env(map[string]string{name: value}))
			if err == nil || !strings.Contains(err.Error(), name) {
				t.Fatalf("%s=%q: error %v, want one naming %s", name, value, err, name)
			}
		})
	}
}

// GOGC is read as the Go runtime reads it, with a default of its own.
func TestGCPercent(t *testing.T) {
	t.Parallel()
	for value, want := range map[string]int{"": 400, "off": -1, "OFF": -1, "150": 150} {
		c, err := Load(env(map[string]string{"GOGC": value}))
		if err != nil || c.GCPercent != want {
			t.Errorf("GOGC=%q: %d (%v), want %d", value, c.GCPercent, err, want)
		}
	}
}

func TestAdminPasswordRules(t *testing.T) {
	t.Parallel()
	if _, err := Load(env(map[string]string{"ADMIN_EMAIL": "a@b.c"})); err == nil || !strings.Contains(err.Error(), "ADMIN_PASSWORD") {
		t.Fatalf("ADMIN_EMAIL without password: %v", err)
	}
	if _, err := Load(env(map[string]string{"ADMIN_EMAIL": "a@b.c", "ADMIN_PASSWORD": "short"})); err == nil {
		t.Fatal("short admin password accepted")
	}
}

func TestValuesAreParsed(t *testing.T) {
	t.Parallel()
	c, err := Load(env(map[string]string{
		"TRUSTED_PROXIES":    "10.0.0.0/8, 192.168.1.7",
		"ACCOUNT_CRYPTO_KEY": "MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTIzNDU2Nzg5MDE=",
		"PUBLIC_BASE_URL":    "https://api.nestegg.example/",
		"COOKIE_SECURE":      "true",
		"LOG_FLUSH_INTERVAL": "0",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.TrustedProxies) != 2 || c.TrustedProxies[1].Bits() != 32 {
		t.Fatalf("trusted proxies %v", c.TrustedProxies)
	}
	if len(c.AccountCryptoKey) != 32 || !c.CookieSecure || c.PublicBaseURL != "https://api.nestegg.example" || c.LogFlushInterval != 0 {
		t.Fatalf("parsed %+v", c)
	}
}

// Issue 43: unset, PUBLIC_BASE_URL follows the address the server listens
// on, so a server started on another port answers image URLs that work;
// set, it wins. SIGNUP_LIMIT_PER_HOUR is read.
func TestPublicBaseURLFollowsTheListenAddress(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]string{
		"":                "http://localhost:8080",
		":9090":           "http://localhost:9090",
		"127.0.0.1:18080": "http://127.0.0.1:18080",
		"0.0.0.0:7000":    "http://localhost:7000",
		"[::]:7001":       "http://localhost:7001",
		"[::1]:7002":      "http://[::1]:7002",
	} {
		vars := map[string]string{"SIGNUP_LIMIT_PER_HOUR": "40"}
		if addr != "" {
			vars["HTTP_ADDR"] = addr
		}
		c, err := Load(env(vars))
		if err != nil {
			t.Fatal(err)
		}
		if c.PublicBaseURL != want || c.SignupLimitPerHour != 40 {
			t.Errorf("HTTP_ADDR %q: base %q, sign-up limit %d; want %q, 40", addr, c.PublicBaseURL, c.SignupLimitPerHour, want)
		}
	}
	c, err := Load(env(map[string]string{"HTTP_ADDR": ":9090", "PUBLIC_BASE_URL": "https://api.nestegg.example"}))
	if err != nil || c.PublicBaseURL != "https://api.nestegg.example" {
		t.Fatalf("a set PUBLIC_BASE_URL: %q %v", c.PublicBaseURL, err)
	}
}

// The README's settings table lists every setting Load reads, with its default.
func TestReadmeListsEverySetting(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range Settings {
		def := "(unset)"
		if s.Default != "" {
			def = "`" + s.Default + "`"
		}
		if row := "| `" + s.Name + "` | " + def + " |"; !strings.Contains(string(readme), row) {
			t.Errorf("README lacks the row %q", row)
		}
	}
}

func TestBillingProducts(t *testing.T) {
	t.Parallel()
	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.MonthlyProduct.ID != "premium_monthly" || c.MonthlyProduct.Period != (Period{Months: 1}) || c.MonthlyProduct.Price <= 0 {
		t.Fatalf("monthly product %+v", c.MonthlyProduct)
	}
	if c.YearlyProduct.ID != "premium_yearly" || c.YearlyProduct.Period != (Period{Years: 1}) || c.YearlyProduct.Price <= 0 {
		t.Fatalf("yearly product %+v", c.YearlyProduct)
	}
	if c.StoreTimeout != 5*time.Second || c.StorePackageName != "com.nestegg.app" || c.StoreTestMode {
		t.Fatalf("store settings %+v", c)
	}
	for in, want := range map[string]string{"P1M": "P1M", "P1Y": "P1Y", "P2W": "P14D", "P1Y2M3D": "P1Y2M3D"} {
		p, err := ParsePeriod(in)
		if err != nil || p.String() != want {
			t.Errorf("ParsePeriod(%q) = %v, %v; want %s", in, p, err, want)
		}
	}
	for _, in := range []string{"", "P", "1M", "P1H", "PT1H", "P-1M", "P0M"} {
		if _, err := ParsePeriod(in); err == nil {
			t.Errorf("ParsePeriod(%q) accepted", in)
		}
	}
	jan31 := time.Date(2026, 1, 31, 10, 0, 0, 0, time.UTC)
	if got := (Period{Months: 1}).AddTo(jan31); !got.Equal(time.Date(2026, 2, 28, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("a month after 31 January: %s", got)
	}
	if got := (Period{Years: 1}).AddTo(time.Date(2028, 2, 29, 0, 0, 0, 0, time.UTC)); !got.Equal(time.Date(2029, 2, 28, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("a year after 29 February: %s", got)
	}
	if got := (Period{Days: 14}).AddTo(jan31); !got.Equal(time.Date(2026, 2, 14, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("two weeks after 31 January: %s", got)
	}
}

func TestCORSAllowedOrigins(t *testing.T) {
	t.Parallel()
	c, err := Load(env(nil))
	if err != nil || c.CORSAllowedOrigins != nil {
		t.Fatalf("unset: %v %v, want no origins", c.CORSAllowedOrigins, err)
	}
	c, err = Load(env(map[string]string{"CORS_ALLOWED_ORIGINS": " https://App.Example , http://localhost:5173/"}))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"https://app.example", "http://localhost:5173"}; strings.Join(c.CORSAllowedOrigins, " ") != strings.Join(want, " ") {
		t.Fatalf("origins %q, want %q", c.CORSAllowedOrigins, want)
	}
	for _, bad := range []string{"*", "app.example", "https://app.example/path", "ftp://app.example", "https://app.example?x=1"} {
		if _, err := Load(env(map[string]string{"CORS_ALLOWED_ORIGINS": bad})); err == nil || !strings.Contains(err.Error(), "CORS_ALLOWED_ORIGINS") {
			t.Errorf("%q: error %v, want one naming CORS_ALLOWED_ORIGINS", bad, err)
		}
	}
}
