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
}

func TestBadValuesNameTheVariable(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"SQL_INIT_MODE":        "sometimes",
		"DATABASE_URL":         "mysql://x/y",
		"REDIS_URL":            "not a url",
		"PUBLIC_BASE_URL":      "ftp://x",
		"COOKIE_SECURE":        "maybe",
		"TRUSTED_PROXIES":      "10.0.0.0/8, nonsense",
		"ACCOUNT_CRYPTO_KEY":   "c2hvcnQ=",
		"APP_TIMEZONE":         "Mars/Olympus",
		"BASE_CURRENCY":        "WON!",
		"SESSION_IDLE_TIMEOUT": "-1h",
		"IDP_A_JWKS_URL":       "jwks",
		"LOG_LEVEL":            "loud",
		"CORS_ALLOWED_ORIGINS": "https://app.example, *",
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
	}))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.TrustedProxies) != 2 || c.TrustedProxies[1].Bits() != 32 {
		t.Fatalf("trusted proxies %v", c.TrustedProxies)
	}
	if len(c.AccountCryptoKey) != 32 || !c.CookieSecure || c.PublicBaseURL != "https://api.nestegg.example" {
		t.Fatalf("parsed %+v", c)
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
