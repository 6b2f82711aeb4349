package intake_test

import (
	"math"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/external/ai/aitest"
	"github.com/nestegg/nestegg/internal/external/ocr/ocrtest"
	"github.com/nestegg/nestegg/internal/problem"
)

// untilTomorrow is the Retry-After a daily limit answers: the seconds from
// the service's clock to the next midnight of APP_TIMEZONE.
func untilTomorrow(env *apitest.Env) string {
	now := env.Clock.Now().In(env.Config.Timezone)
	y, m, d := now.Date()
	next := time.Date(y, m, d+1, 0, 0, 0, 0, env.Config.Timezone)
	return strconv.Itoa(int(math.Ceil(next.Sub(now).Seconds())))
}

// countLimited checks that exactly limit of the answers are 200 and the rest
// 429 RATE_LIMITED with Retry-After to the member's next day.
func countLimited(t *testing.T, env *apitest.Env, answers []*apitest.Response, limit int) {
	t.Helper()
	ok, limited := 0, 0
	for i, res := range answers {
		switch res.Status {
		case http.StatusOK:
			ok++
		case http.StatusTooManyRequests:
			limited++
			res.WantProblem(http.StatusTooManyRequests, problem.CodeRateLimited)
			if got, want := res.Header.Get("Retry-After"), untilTomorrow(env); got != want {
				t.Errorf("answer %d: Retry-After %q, want %q", i, got, want)
			}
		default:
			t.Errorf("answer %d: status %d", i, res.Status)
		}
	}
	if ok != limit || limited != len(answers)-limit {
		t.Fatalf("%d answered, %d limited; want exactly %d answered", ok, limited, limit)
	}
}

// wantCounted checks the member's count of calls of the kind today: the
// reserved calls, exactly the limit, however many asked at once.
func wantCounted(t *testing.T, env *apitest.Env, m *apitest.Member, kind string, want int) {
	t.Helper()
	var calls int
	err := env.Pool.QueryRow(t.Context(), `SELECT calls FROM outside_call_count WHERE member_id = $1 AND kind = $2`, m.ID, kind).Scan(&calls)
	if err != nil || calls != want {
		t.Fatalf("%s calls counted: %d (%v), want %d", kind, calls, err, want)
	}
}

func TestAIParsesAreLimitedPerMemberPerDay(t *testing.T) {
	t.Parallel()
	const limit = 3
	fake := aitest.New(t)
	env := apitest.New(t, withAI(fake), apitest.WithConfig(func(cfg *config.Config) { cfg.AIDailyLimit = limit }))
	m := env.NewMember()
	answers := apitest.TogetherV(10, func(int) *apitest.Response {
		return m.Do(http.MethodPost, "/api/account/entries/parse", api.ParseEntryTextJSONRequestBody{Text: "어제 점심 12,000원"})
	})
	countLimited(t, env, answers, limit)
	if fake.Calls() != limit {
		t.Fatalf("%d AI calls, want %d", fake.Calls(), limit)
	}
	wantCounted(t, env, m, "AI", limit)
	// The limit is the member's: another member still parses.
	if got := parse(t, env.NewMember(), "어제 점심 12,000원"); got.Parser != "AI" {
		t.Fatalf("another member: %+v", got)
	}
	// The next day in APP_TIMEZONE starts a new count.
	env.Clock.Set(time.Date(2026, 11, 16, 15, 0, 0, 0, time.UTC))
	if got := parse(t, m, "점심 12,000원"); got.Parser != "AI" {
		t.Fatalf("next day: %+v", got)
	}
}

func TestParseWithoutAICountsNothing(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, apitest.WithConfig(func(cfg *config.Config) { cfg.AIDailyLimit = 1 }))
	m := env.NewMember()
	for range 3 {
		if got := parse(t, m, "점심 12,000원"); got.Parser != "RULES" {
			t.Fatalf("got %+v", got)
		}
	}
}

func TestReceiptsAreLimitedPerMemberPerDay(t *testing.T) {
	t.Parallel()
	const limit = 2
	fake := ocrtest.New(t)
	env := apitest.New(t, withOCR(fake), apitest.WithConfig(func(cfg *config.Config) { cfg.OCRDailyLimit = limit }))
	m := env.NewMember(apitest.AsPremium())
	ct, body := multipartBody(t, "file", pngHeader)
	answers := apitest.TogetherV(8, func(int) *apitest.Response {
		return m.Send(http.MethodPost, "/api/account/ocr/receipt", ct, body)
	})
	countLimited(t, env, answers, limit)
	if fake.Calls() != limit {
		t.Fatalf("%d OCR calls, want %d", fake.Calls(), limit)
	}
	wantCounted(t, env, m, "OCR", limit)
	upload(env.NewMember(apitest.AsPremium()), t, pngHeader).Want(http.StatusOK)
}
