// Package config reads the service's settings from the environment. Every
// setting has a working local default where one can exist; a bad value stops
// start-up with an error that names the variable.
package config

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Config is every setting of the service.
type Config struct {
	HTTPAddr    string
	DatabaseURL string
	// DatabaseHangTimeout is about how long an ordinary request waits on a
	// PostgreSQL that stopped answering before it answers 503 (package
	// database, hangWatch).
	DatabaseHangTimeout time.Duration
	RedisURL            string
	SQLInitMode         string // "always" or "never"
	PublicBaseURL       string
	CookieSecure        bool
	TrustedProxies      []netip.Prefix
	// CORSAllowedOrigins are the browser origins (scheme://host[:port]) that
	// may call the API with credentials; empty sends no CORS headers.
	CORSAllowedOrigins []string

	AdminEmail    string
	AdminPassword string

	// AccountCryptoKey is the 32-byte AES-256 key for account numbers; nil means
	// account numbers pass through as plain text.
	AccountCryptoKey []byte

	IDPAClientID string
	IDPAIssuer   string
	IDPAJWKSURL  string
	IDPBAudience string
	IDPBIssuer   string
	IDPBJWKSURL  string

	StoreTestMode bool
	StoreAPIURL   string
	// StoreAPIToken is the credential sent to the store API as a bearer token.
	StoreAPIToken    string
	StorePackageName string
	StoreTimeout     time.Duration
	// MonthlyProduct and YearlyProduct are the subscriptions the store sells.
	MonthlyProduct Product
	YearlyProduct  Product
	OCRAPIURL      string
	OCRAPIKey      string
	AIAPIURL       string
	AIAPIKey       string
	AIModel        string
	FXAPIURL       string
	QuoteAPIURL    string

	// FXDailyLimit, AIDailyLimit and OCRDailyLimit are the outside calls
	// one member may cause per day (package quota).
	FXDailyLimit  int
	AIDailyLimit  int
	OCRDailyLimit int

	Timezone     *time.Location
	BaseCurrency string

	SessionIdleTimeout time.Duration
	SessionLifetime    time.Duration
	LogLevel           string
	// LogFlushInterval is how long an info or debug line may wait to be
	// written with others (package logbatch); 0 writes each line at once.
	LogFlushInterval time.Duration
	// GCPercent is the Go collector's target (GOGC): how far, in percent of
	// the live heap, the heap grows between collections; -1 is off.
	GCPercent int

	// BoardImageDailyLimit is how many images (board uploads and profile
	// images) one member may upload per day.
	BoardImageDailyLimit int
	// SignupLimitPerHour is how many sign-ups one client address may make
	// an hour.
	SignupLimitPerHour int
	// HeavyPerReplica is how many heavy requests (backup, restore, CSV
	// import and export, account deletion) one replica runs at once.
	HeavyPerReplica int
	// BookMemberLimit is how many members a household book may have, and
	// BooksPerMember how many books one member may be in (internal/book).
	BookMemberLimit int
	BooksPerMember  int
	// ImageMaxPixels and ImageMaxFrames bound what an uploaded image may
	// declare: width × height (of the canvas or any frame) and frames.
	ImageMaxPixels int
	ImageMaxFrames int

	// OTLPEndpoint is where traces go over OTLP/HTTP ("" turns tracing
	// off); OTelServiceName names the service in them and TraceSampleRatio
	// is the share of new traces recorded (package tracing).
	OTLPEndpoint     string
	OTelServiceName  string
	TraceSampleRatio float64
}

// Setting describes one environment variable, for the README and --help.
type Setting struct {
	Name, Default, Meaning string
}

// Settings lists every variable Load reads, in the README's order.
var Settings = []Setting{
	{"HTTP_ADDR", ":8080", "address the HTTP server listens on"},
	{"DATABASE_URL", "postgres://postgres@127.0.0.1:5432/nestegg?sslmode=disable", "PostgreSQL; the database is created if missing"},
	{"DATABASE_HANG_TIMEOUT", "1s", "about how long a request waits on a PostgreSQL that stopped answering (a stopped process, a vanished host) before it answers 503 with Retry-After; PostgreSQL is probed only while a statement has waited a quarter of it, and a slow statement or lock wait it still answers is left alone. Heavy operations (backup, restore, CSV import and export) keep their own deadlines. From 100ms to 8s"},
	{"REDIS_URL", "redis://127.0.0.1:6379/0", "Redis, the fast session store (optional at run time: sessions fall back to PostgreSQL)"},
	{"SQL_INIT_MODE", "always", "`always` applies migrations at start-up (under a lock); `never` applies none and refuses to start on a database that lacks them"},
	{"PUBLIC_BASE_URL", "", "absolute address clients reach this service at (image URLs); unset: the address the server listens on (`http://localhost:<port of HTTP_ADDR>`), so a test server on another port answers working image URLs. Set it behind a proxy or a domain"},
	{"COOKIE_SECURE", "false", "mark the session cookie Secure (set it behind HTTPS)"},
	{"TRUSTED_PROXIES", "", "comma-separated addresses or CIDRs whose X-Forwarded-For is believed"},
	{"CORS_ALLOWED_ORIGINS", "", "comma-separated browser origins (`https://app.example`) allowed to call the API with credentials; unset sends no CORS headers"},
	{"ADMIN_EMAIL", "", "e-mail of the first administrator, created or promoted at start-up"},
	{"ADMIN_PASSWORD", "", "password of that administrator when it is created (8 to 128 characters)"},
	{"ACCOUNT_CRYPTO_KEY", "", "base64 of 32 bytes: AES-256-GCM key for wallet account numbers; unset stores them as plain text"},
	{"IDP_A_CLIENT_ID", "", "client id that identity provider A's ID tokens must carry as audience; unset disables that login (503)"},
	{"IDP_A_ISSUER", "", "issuer of provider A's ID tokens"},
	{"IDP_A_JWKS_URL", "", "key set address of provider A"},
	{"IDP_B_AUDIENCE", "", "app identifier that provider B's ID tokens must carry as audience; unset disables that login (503)"},
	{"IDP_B_ISSUER", "", "issuer of provider B's ID tokens"},
	{"IDP_B_JWKS_URL", "", "key set address of provider B"},
	{"STORE_TEST_MODE", "false", "accept store purchase tokens starting with `test-` without calling the store"},
	{"STORE_API_URL", "", "address of the app store's purchase verification API"},
	{"STORE_API_TOKEN", "", "credential sent to the store API as `Authorization: Bearer`"},
	{"STORE_PACKAGE_NAME", "com.nestegg.app", "the app's package name in the store API's paths"},
	{"STORE_TIMEOUT", "5s", "deadline of one call to the store API; past it verification answers 503"},
	{"BILLING_MONTHLY_PRODUCT_ID", "premium_monthly", "store product id of the monthly subscription"},
	{"BILLING_MONTHLY_PRICE", "4900", "price of the monthly subscription, in the base currency"},
	{"BILLING_MONTHLY_PERIOD", "P1M", "what one monthly purchase adds to the plan's expiry (ISO 8601 period: years, months, weeks, days)"},
	{"BILLING_YEARLY_PRODUCT_ID", "premium_yearly", "store product id of the yearly subscription"},
	{"BILLING_YEARLY_PRICE", "49000", "price of the yearly subscription, in the base currency"},
	{"BILLING_YEARLY_PERIOD", "P1Y", "what one yearly purchase adds to the plan's expiry"},
	{"OCR_API_URL", "", "address of the images:annotate OCR API"},
	{"OCR_API_KEY", "", "key of the OCR API; unset makes receipt OCR answer 503"},
	{"AI_API_URL", "", "address of an OpenAI-compatible chat-completions API for text parsing"},
	{"AI_API_KEY", "", "key of that API; unset uses the rule-based parser only"},
	{"AI_MODEL", "", "model name sent to that API"},
	{"FX_API_URL", "", "address of the foreign exchange rate provider"},
	{"QUOTE_API_URL", "", "address of the stock quote provider"},
	{"FX_DAILY_LIMIT", "100", "exchange rate lookups that call the FX provider one member may cause per day (APP_TIMEZONE); over it 429"},
	{"AI_DAILY_LIMIT", "200", "AI text parses one member may cause per day; over it 429"},
	{"OCR_DAILY_LIMIT", "50", "receipt recognitions (OCR calls) one member may cause per day; over it 429"},
	{"APP_TIMEZONE", "Asia/Seoul", "time zone of every day, week and month"},
	{"BASE_CURRENCY", "KRW", "ISO 4217 code of the base currency"},
	{"SESSION_IDLE_TIMEOUT", "720h", "a session ends after this long without use"},
	{"SESSION_LIFETIME", "4320h", "a session ends this long after login, used or not"},
	{"LOG_LEVEL", "info", "debug, info, warn or error"},
	{"LOG_FLUSH_INTERVAL", "100ms", "how long an info or debug line may wait to be written with others, in one write (warnings and errors are written at once, with the lines before them); 0 writes each line at once"},
	{"GOGC", "400", "the Go garbage collector's target: how far the heap may grow between collections, in percent of what is live (Go's own default is 100; `off` collects only at `GOMEMLIMIT`); see Speed for what 400 costs and saves"},
	{"SIGNUP_LIMIT_PER_HOUR", "5", "sign-ups allowed from one client address an hour; over it 429. Raise it on a test server that a client team's scenarios sign up on many times an hour"},
	{"BOARD_IMAGE_DAILY_LIMIT", "50", "images (board uploads and profile images) one member may upload per day; over it 429"},
	{"HEAVY_PER_REPLICA", "4", "heavy requests (backup, restore, CSV import and export, account deletion) one replica runs at once; past it 503 with Retry-After (one at a time per member, across replicas: 429 BUSY)"},
	{"BOOK_MEMBER_LIMIT", "6", "most members a household book may have (internal/book); an invitation accepted past it is 409"},
	{"BOOKS_PER_MEMBER", "5", "most household books one member may be in, created or joined; past it 409"},
	{"IMAGE_MAX_PIXELS", "50000000", "most pixels (width × height, as the file declares them) an uploaded image may have; over it 400"},
	{"IMAGE_MAX_FRAMES", "300", "most frames an uploaded animated image (GIF, APNG, WebP) may have; over it 400"},
	{"OTEL_EXPORTER_OTLP_ENDPOINT", "", "OTLP/HTTP collector address (`http://collector:4318`); spans of requests, SQL statements and outside calls are posted to its `/v1/traces`, and request ids become trace ids. Unset: no tracing at all"},
	{"OTEL_SERVICE_NAME", "nestegg", "service name in the traces"},
	{"OTEL_TRACES_SAMPLER_ARG", "1", "share of new traces recorded, 0 to 1 (a request inside a sampled trace, by its `traceparent`, is always recorded)"},
}

// Load reads the settings through getenv (os.Getenv in production).
func Load(getenv func(string) string) (Config, error) {
	r := reader{getenv: getenv}
	c := Config{
		HTTPAddr:            r.str("HTTP_ADDR"),
		DatabaseURL:         r.url("DATABASE_URL", "postgres", "postgresql"),
		DatabaseHangTimeout: r.durationWithin("DATABASE_HANG_TIMEOUT", 100*time.Millisecond, 8*time.Second),
		RedisURL:            r.url("REDIS_URL", "redis", "rediss"),
		SQLInitMode:         r.oneOf("SQL_INIT_MODE", "always", "never"),
		PublicBaseURL:       strings.TrimRight(r.optURL("PUBLIC_BASE_URL"), "/"),
		CookieSecure:        r.bool("COOKIE_SECURE"),

		AdminEmail:    r.str("ADMIN_EMAIL"),
		AdminPassword: r.str("ADMIN_PASSWORD"),

		IDPAClientID: r.str("IDP_A_CLIENT_ID"),
		IDPAIssuer:   r.str("IDP_A_ISSUER"),
		IDPAJWKSURL:  r.optURL("IDP_A_JWKS_URL"),
		IDPBAudience: r.str("IDP_B_AUDIENCE"),
		IDPBIssuer:   r.str("IDP_B_ISSUER"),
		IDPBJWKSURL:  r.optURL("IDP_B_JWKS_URL"),

		StoreTestMode: r.bool("STORE_TEST_MODE"),
		StoreAPIURL:   r.optURL("STORE_API_URL"),
		StoreAPIToken: r.str("STORE_API_TOKEN"),
		StoreTimeout:  r.duration("STORE_TIMEOUT"),
		OCRAPIURL:     r.optURL("OCR_API_URL"),
		OCRAPIKey:     r.str("OCR_API_KEY"),
		AIAPIURL:      r.optURL("AI_API_URL"),
		AIAPIKey:      r.str("AI_API_KEY"),
		AIModel:       r.str("AI_MODEL"),
		FXAPIURL:      r.optURL("FX_API_URL"),
		QuoteAPIURL:   r.optURL("QUOTE_API_URL"),
		FXDailyLimit:  r.positiveInt("FX_DAILY_LIMIT"),
		AIDailyLimit:  r.positiveInt("AI_DAILY_LIMIT"),
		OCRDailyLimit: r.positiveInt("OCR_DAILY_LIMIT"),

		BaseCurrency: r.currency("BASE_CURRENCY"),

		SessionIdleTimeout: r.duration("SESSION_IDLE_TIMEOUT"),
		SessionLifetime:    r.duration("SESSION_LIFETIME"),
		LogLevel:           r.oneOf("LOG_LEVEL", "debug", "info", "warn", "error"),
		LogFlushInterval:   r.durationOrZero("LOG_FLUSH_INTERVAL"),
		GCPercent:          r.gcPercent("GOGC"),
	}
	if c.PublicBaseURL == "" {
		c.PublicBaseURL = listenBaseURL(c.HTTPAddr)
	}
	c.SignupLimitPerHour = r.positiveInt("SIGNUP_LIMIT_PER_HOUR")
	c.BoardImageDailyLimit = r.positiveInt("BOARD_IMAGE_DAILY_LIMIT")
	c.HeavyPerReplica = r.positiveInt("HEAVY_PER_REPLICA")
	c.BookMemberLimit = r.positiveInt("BOOK_MEMBER_LIMIT")
	c.BooksPerMember = r.positiveInt("BOOKS_PER_MEMBER")
	c.ImageMaxPixels = r.positiveInt("IMAGE_MAX_PIXELS")
	c.ImageMaxFrames = r.positiveInt("IMAGE_MAX_FRAMES")
	c.OTLPEndpoint = strings.TrimRight(r.optURL("OTEL_EXPORTER_OTLP_ENDPOINT"), "/")
	c.OTelServiceName = r.str("OTEL_SERVICE_NAME")
	c.TraceSampleRatio = r.ratio("OTEL_TRACES_SAMPLER_ARG")
	c.TrustedProxies = r.prefixes("TRUSTED_PROXIES")
	c.CORSAllowedOrigins = r.origins("CORS_ALLOWED_ORIGINS")
	c.AccountCryptoKey = r.key32("ACCOUNT_CRYPTO_KEY")
	c.Timezone = r.location("APP_TIMEZONE")
	c.StorePackageName = r.packageName("STORE_PACKAGE_NAME")
	c.MonthlyProduct = r.product("BILLING_MONTHLY")
	c.YearlyProduct = r.product("BILLING_YEARLY")
	if c.MonthlyProduct.ID != "" && c.MonthlyProduct.ID == c.YearlyProduct.ID {
		r.fail("BILLING_YEARLY_PRODUCT_ID", "must differ from BILLING_MONTHLY_PRODUCT_ID")
	}
	if c.AdminEmail != "" && c.AdminPassword == "" {
		r.fail("ADMIN_PASSWORD", "must be set when ADMIN_EMAIL is set")
	}
	if c.AdminPassword != "" && (len([]rune(c.AdminPassword)) < 8 || len([]rune(c.AdminPassword)) > 128) {
		r.fail("ADMIN_PASSWORD", "must be 8 to 128 characters")
	}
	if c.SessionIdleTimeout > c.SessionLifetime {
		r.fail("SESSION_IDLE_TIMEOUT", "must not be longer than SESSION_LIFETIME")
	}
	if err := errors.Join(r.errs...); err != nil {
		return Config{}, err
	}
	return c, nil
}

type reader struct {
	getenv func(string) string
	errs   []error
}

func (r *reader) fail(name, msg string) {
	r.errs = append(r.errs, fmt.Errorf("%s: %s", name, msg))
}

// str returns the variable, or its default when unset or empty.
func (r *reader) str(name string) string {
	if v := strings.TrimSpace(r.getenv(name)); v != "" {
		return v
	}
	for _, s := range Settings {
		if s.Name == name {
			return s.Default
		}
	}
	panic("config: unknown setting " + name)
}

func (r *reader) oneOf(name string, allowed ...string) string {
	v := strings.ToLower(r.str(name))
	for _, a := range allowed {
		if v == a {
			return v
		}
	}
	r.fail(name, fmt.Sprintf("%q is not one of %s", v, strings.Join(allowed, ", ")))
	return ""
}

func (r *reader) bool(name string) bool {
	v := r.str(name)
	b, err := strconv.ParseBool(v)
	if err != nil {
		r.fail(name, fmt.Sprintf("%q is not true or false", v))
	}
	return b
}

// positiveInt reads a count of at least 1 (at most 10^9).
func (r *reader) positiveInt(name string) int {
	v := r.str(name)
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 1e9 {
		r.fail(name, fmt.Sprintf("%q is not a whole number from 1 to 1000000000", v))
		return 1
	}
	return n
}

// gcPercent reads GOGC as the Go runtime does: a percentage of at least 1,
// or off (-1).
func (r *reader) gcPercent(name string) int {
	v := r.str(name)
	if strings.EqualFold(v, "off") {
		return -1
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 1e6 {
		r.fail(name, fmt.Sprintf("%q is not off or a percentage from 1 to 1000000", v))
		return 100
	}
	return n
}

// ratio reads a share from 0 to 1.
func (r *reader) ratio(name string) float64 {
	v := r.str(name)
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f >= 0 && f <= 1) {
		r.fail(name, fmt.Sprintf("%q is not a number from 0 to 1", v))
		return 1
	}
	return f
}

func (r *reader) duration(name string) time.Duration {
	v := r.str(name)
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		r.fail(name, fmt.Sprintf("%q is not a positive duration such as 720h", v))
	}
	return d
}

// durationWithin is duration held to [lo, hi].
func (r *reader) durationWithin(name string, lo, hi time.Duration) time.Duration {
	v := r.str(name)
	d, err := time.ParseDuration(v)
	if err != nil || d < lo || d > hi {
		r.fail(name, fmt.Sprintf("%q is not a duration from %s to %s", v, lo, hi))
	}
	return d
}

// durationOrZero is duration that also accepts 0, which turns the thing off.
func (r *reader) durationOrZero(name string) time.Duration {
	if v := r.str(name); v == "0" {
		return 0
	}
	return r.duration(name)
}

func (r *reader) url(name string, schemes ...string) string {
	v := r.str(name)
	u, err := url.Parse(v)
	if err != nil || u.Host == "" {
		r.fail(name, fmt.Sprintf("%q is not an absolute URL", v))
		return v
	}
	for _, s := range schemes {
		if u.Scheme == s {
			return v
		}
	}
	r.fail(name, fmt.Sprintf("scheme %q is not one of %s", u.Scheme, strings.Join(schemes, ", ")))
	return v
}

// listenBaseURL is the address a client on this machine reaches a server
// listening on addr at: its host, or localhost for every interface.
func listenBaseURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://localhost:8080"
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

func (r *reader) optURL(name string) string {
	if r.str(name) == "" {
		return ""
	}
	return r.url(name, "http", "https")
}

func (r *reader) currency(name string) string {
	v := strings.ToUpper(r.str(name))
	if len(v) != 3 || strings.Trim(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		r.fail(name, fmt.Sprintf("%q is not a three-letter currency code", v))
	}
	return v
}

func (r *reader) location(name string) *time.Location {
	v := r.str(name)
	loc, err := time.LoadLocation(v)
	if err != nil {
		r.fail(name, fmt.Sprintf("%q is not a known time zone", v))
		return time.UTC
	}
	return loc
}

func (r *reader) key32(name string) []byte {
	v := r.str(name)
	if v == "" {
		return nil
	}
	k, err := base64.StdEncoding.DecodeString(v)
	if err != nil || len(k) != 32 {
		r.fail(name, "must be the base64 encoding of exactly 32 bytes")
		return nil
	}
	return k
}

func (r *reader) prefixes(name string) []netip.Prefix {
	var out []netip.Prefix
	for _, part := range strings.Split(r.str(name), ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if p, err := netip.ParsePrefix(part); err == nil {
			out = append(out, p.Masked())
			continue
		}
		if a, err := netip.ParseAddr(part); err == nil {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		r.fail(name, fmt.Sprintf("%q is not an address or CIDR", part))
	}
	return out
}

// Product is a subscription the store sells.
type Product struct {
	ID string
	// Price is in the base currency's unit.
	Price int64
	// Period is what one purchase adds to the plan's expiry.
	Period Period
}

// Period is a calendar period, as ISO 8601 writes it (P1M, P1Y, P2W, P30D).
type Period struct {
	Years, Months, Days int
}

var periodPattern = regexp.MustCompile(`^P(?:(\d{1,3})Y)?(?:(\d{1,4})M)?(?:(\d{1,4})W)?(?:(\d{1,5})D)?$`)

// ParsePeriod reads an ISO 8601 period of years, months, weeks and days.
func ParsePeriod(s string) (Period, error) {
	m := periodPattern.FindStringSubmatch(s)
	if m == nil || s == "P" {
		return Period{}, fmt.Errorf("%q is not a period such as P1M or P1Y", s)
	}
	n := func(v string) int { i, _ := strconv.Atoi(v); return i }
	p := Period{Years: n(m[1]), Months: n(m[2]), Days: n(m[3])*7 + n(m[4])}
	if p == (Period{}) {
		return Period{}, fmt.Errorf("%q is an empty period", s)
	}
	return p, nil
}

// AddTo returns t moved forward by the period on the calendar of t's
// location. Months and years keep the day of the month, or take the target
// month's last day when it is shorter (a month after 31 January is the end
// of February, not 3 March as time.AddDate would have it).
func (p Period) AddTo(t time.Time) time.Time {
	y, m, d := t.Date()
	first := time.Date(y+p.Years, m+time.Month(p.Months), 1, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), t.Location())
	last := first.AddDate(0, 1, -1).Day()
	return first.AddDate(0, 0, min(d, last)-1+p.Days)
}

// String writes the period as ISO 8601.
func (p Period) String() string {
	s := "P"
	if p.Years != 0 {
		s += strconv.Itoa(p.Years) + "Y"
	}
	if p.Months != 0 {
		s += strconv.Itoa(p.Months) + "M"
	}
	if p.Days != 0 {
		s += strconv.Itoa(p.Days) + "D"
	}
	return s
}

var (
	productIDPattern   = regexp.MustCompile(`^[a-z0-9][a-z0-9._]{0,99}$`)
	packageNamePattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$`)
)

// product reads <prefix>_PRODUCT_ID, _PRICE and _PERIOD.
func (r *reader) product(prefix string) Product {
	var p Product
	p.ID = r.str(prefix + "_PRODUCT_ID")
	if !productIDPattern.MatchString(p.ID) {
		r.fail(prefix+"_PRODUCT_ID", fmt.Sprintf("%q is not a store product id (lower-case letters, digits, '.' and '_', at most 100)", p.ID))
	}
	price, err := strconv.ParseInt(r.str(prefix+"_PRICE"), 10, 64)
	if err != nil || price <= 0 {
		r.fail(prefix+"_PRICE", fmt.Sprintf("%q is not a positive whole amount", r.str(prefix+"_PRICE")))
	}
	p.Price = price
	if p.Period, err = ParsePeriod(r.str(prefix + "_PERIOD")); err != nil {
		r.fail(prefix+"_PERIOD", err.Error())
	}
	return p
}

func (r *reader) packageName(name string) string {
	v := r.str(name)
	if !packageNamePattern.MatchString(v) || len(v) > 255 {
		r.fail(name, fmt.Sprintf("%q is not a package name such as com.example.app", v))
	}
	return v
}

// origins reads comma-separated origins as browsers send them in Origin:
// scheme and host (and port), lower-case, nothing else. "*" is refused: the
// API is called with credentials, which browsers never send to "*".
func (r *reader) origins(name string) []string {
	var out []string
	for _, part := range strings.Split(r.str(name), ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		u, err := url.Parse(part)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
			strings.TrimSuffix(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			r.fail(name, fmt.Sprintf("%q is not an origin such as https://app.example (scheme and host only)", part))
			continue
		}
		out = append(out, strings.ToLower(u.Scheme+"://"+u.Host))
	}
	return out
}

// ListenHost is the host part of HTTPAddr, for the start-up message.
func (c Config) ListenHost() string {
	host, port, err := net.SplitHostPort(c.HTTPAddr)
	if err != nil {
		return c.HTTPAddr
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}
