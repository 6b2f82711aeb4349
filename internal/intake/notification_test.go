package intake_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/external/fx/fxtest"
	"github.com/nestegg/nestegg/internal/intake"
)

const (
	shinhan       = "[Web발신]\n신한카드(1234)승인 홍*동 12,500원(일시불)11/16 12:34 스타벅스 누적1,234,567원"
	shinhanCancel = "[Web발신]\n신한카드(1234)승인취소 홍*동 12,500원(일시불)11/16 12:34 스타벅스"
	hyundai       = "[Web발신]\n현대카드 M 승인\n홍*동\n12,500원 일시불\n11/16 12:34\n스타벅스\n누적1,234,567원"
	installment   = "[Web발신]\n신한카드(5678)승인 김*수 1,290,000원(03개월)11/15 19:02 (주)하이마트 누적2,345,000원"
	advertising   = "(광고)[신한카드] 11월 혜택 안내! 스타벅스 30% 할인 이벤트 무료수신거부 080-000-0000"
	foreign       = "[Web발신]\n신한카드(1234)해외승인 홍*동 USD 12.50 11/14 03:21 AMAZON.COM"
)

var posted = time.Date(2026, 11, 16, 12, 40, 0, 0, time.FixedZone("KST", 9*3600))

func send(t *testing.T, m *apitest.Member, text string, key *string) api.NotificationResult {
	t.Helper()
	var out api.NotificationResult
	m.Do(http.MethodPost, "/api/account/entries/notification",
		api.NotificationRequest{Text: text, PostedAt: &posted, NotifKey: key}).Want(http.StatusOK).JSON(&out)
	return out
}

func pendingCount(t *testing.T, m *apitest.Member) int64 {
	t.Helper()
	var c api.PendingCount
	m.Do(http.MethodGet, "/api/account/entries/pending/count", nil).Want(http.StatusOK).JSON(&c)
	return c.Count
}

// sendTogether delivers text n times at once and answers the results,
// decoded after every delivery has answered; an answer other than 200 fails
// the test.
func sendTogether(t *testing.T, m *apitest.Member, text string, n int) []api.NotificationResult {
	t.Helper()
	answers := apitest.TogetherV(n, func(int) *apitest.Response {
		return m.Do(http.MethodPost, "/api/account/entries/notification", api.NotificationRequest{Text: text, PostedAt: &posted})
	})
	results := make([]api.NotificationResult, n)
	for i, r := range answers {
		r.Want(http.StatusOK).JSON(&results[i])
	}
	return results
}

// theOneAmongDuplicates checks that exactly one result has the outcome and
// every other is DUPLICATE, and answers that one.
func theOneAmongDuplicates(t *testing.T, results []api.NotificationResult, outcome api.NotificationOutcome) api.NotificationResult {
	t.Helper()
	var one []api.NotificationResult
	outcomes := make([]api.NotificationOutcome, len(results))
	for i, r := range results {
		outcomes[i] = r.Outcome
		switch r.Outcome {
		case outcome:
			one = append(one, r)
		case "DUPLICATE":
		default:
			t.Errorf("outcome %s", r.Outcome)
		}
	}
	if len(one) != 1 || one[0].Entry == nil {
		t.Fatalf("want one %s among duplicates, got %v", outcome, outcomes)
	}
	return one[0]
}

// entryIDs are the ids of the member's entries in the database, in order.
func entryIDs(t *testing.T, env *apitest.Env, m *apitest.Member) []int64 {
	t.Helper()
	rows, err := env.Pool.Query(t.Context(), `SELECT id FROM account_entry WHERE member_id = $1 ORDER BY id`, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

func TestNotificationCreatesPendingExpenseOnTheMatchedCard(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	lt.Wallet(m.Client, "현금", api.WalletTypeCash, 0)
	lt.Wallet(m.Client, "KB국민 체크", api.WalletTypeCheckCard, 0)
	card := lt.Wallet(m.Client, "신한 Deep Dream", api.WalletTypeCard, 0)
	lt.Wallet(m.Client, "현대카드 M", api.WalletTypeCard, 0)

	got := send(t, m, shinhan, nil)
	e := got.Entry
	if got.Outcome != "CREATED" || e == nil || got.Reason != nil {
		t.Fatalf("got %+v", got)
	}
	if !e.Pending || e.Type != "expense" || e.Amount != 12500 || e.Memo != "스타벅스" ||
		e.Date.Format(time.DateOnly) != "2026-11-16" || e.WalletID == nil || *e.WalletID != card.ID ||
		e.CategoryID != nil || e.Currency != nil || e.InstallmentMonths != nil {
		t.Fatalf("entry %+v (wallet %v), want a pending 12,500 expense at 스타벅스 on %d", e, e.WalletID, card.ID)
	}
	if n := pendingCount(t, m); n != 1 {
		t.Fatalf("%d pending entries", n)
	}
}

func TestNotificationMatchesWalletNameInTextAndLastDigits(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	// The wallet's name appears in the text (the other direction).
	lt.Wallet(m.Client, "신한카드 (5678)", api.WalletTypeCard, 0)
	m2 := lt.Wallet(m.Client, "M", api.WalletTypeCard, 0)
	hy := lt.Wallet(m.Client, "현대카드 M", api.WalletTypeCard, 0)
	if e := send(t, m, hyundai, nil).Entry; e == nil || *e.WalletID != hy.ID {
		t.Fatalf("hyundai entry %+v, want wallet %d (not %d)", e, hy.ID, m2.ID)
	}
	// The last digits pick the card, and installments stay on a credit card.
	e := send(t, m, installment, nil).Entry
	if e == nil || e.WalletID == nil || e.InstallmentMonths == nil || *e.InstallmentMonths != 3 || e.Amount != 1290000 {
		t.Fatalf("installment entry %+v", e)
	}
	var w api.Wallet
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", *e.WalletID), nil).Want(http.StatusOK).JSON(&w)
	if w.Name != "신한카드 (5678)" {
		t.Fatalf("installment on %q", w.Name)
	}
}

func TestNotificationUsesTheOnlyCardOverCash(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	lt.Wallet(m.Client, "현금 지갑", api.WalletTypeCash, 0)
	only := lt.Wallet(m.Client, "생활비", api.WalletTypeCheckCard, 0)
	if e := send(t, m, hyundai, nil).Entry; e == nil || e.WalletID == nil || *e.WalletID != only.ID {
		t.Fatalf("entry %+v, want the only card %d", e, only.ID)
	}
	// Two cards and no match: no wallet rather than a guess.
	lt.Wallet(m.Client, "여행", api.WalletTypeCard, 0)
	if e := send(t, m, shinhan, nil).Entry; e == nil || e.WalletID != nil {
		t.Fatalf("entry %+v, want no wallet", e)
	}
}

func TestNotificationPrefillsTheMostUsedCategoryOfConfirmedEntries(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	card := lt.Wallet(m.Client, "신한카드", api.WalletTypeCard, 0)
	cafe := lt.Category(m.Client, "카페", api.EntryTypeExpense, nil)
	food := lt.Category(m.Client, "식비", api.EntryTypeExpense, nil)
	gift := lt.Category(m.Client, "선물", api.EntryTypeIncome, nil)
	add := func(typ api.EntryType, memo string, cat int64) {
		b := lt.Expense(lt.Date(2026, 11, 1), 5000, card.ID)
		b.Type, b.Memo, b.CategoryID = typ, &memo, &cat
		lt.Entry(m.Client, b)
	}
	add(api.EntryTypeExpense, "스타벅스 강남점", cafe.ID)
	add(api.EntryTypeExpense, "스타벅스 역삼", cafe.ID)
	add(api.EntryTypeExpense, "스타벅스 점심", food.ID)
	add(api.EntryTypeExpense, "이마트", food.ID)
	add(api.EntryTypeExpense, "이마트", food.ID)
	// Income of the same memo and pending expenses do not count.
	add(api.EntryTypeIncome, "스타벅스 환급", gift.ID)
	add(api.EntryTypeIncome, "스타벅스 환급", gift.ID)
	add(api.EntryTypeIncome, "스타벅스 환급", gift.ID)
	env.Exec(`INSERT INTO account_entry (member_id, type, amount, entry_date, memo, category_id, pending)
		SELECT $1, 'expense', 1, '2026-11-02', '스타벅스', $2, true FROM generate_series(1, 5)`, m.ID, food.ID)

	e := send(t, m, shinhan, nil).Entry
	if e == nil || e.CategoryID == nil || *e.CategoryID != cafe.ID || !e.Pending {
		t.Fatalf("entry %+v, want category %d (카페) and pending", e, cafe.ID)
	}
}

func TestNotificationParallelDeliveryCreatesOneEntry(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	lt.Wallet(m.Client, "신한카드", api.WalletTypeCard, 0)
	results := sendTogether(t, m, shinhan, 20)
	createdID := theOneAmongDuplicates(t, results, "CREATED").Entry.ID
	if n := pendingCount(t, m); n != 1 {
		t.Fatalf("%d pending", n)
	}
	// Every duplicate answers the one entry, and the database holds one row.
	for _, out := range results {
		if out.Outcome == "DUPLICATE" && (out.Entry == nil || out.Entry.ID != createdID) {
			t.Errorf("a duplicate answers %+v, not entry %d", out.Entry, createdID)
		}
	}
	if ids := entryIDs(t, env, m); len(ids) != 1 || ids[0] != createdID {
		t.Fatalf("entries in the database %v, want [%d]", ids, createdID)
	}
	// A given key decides: the same key is a duplicate whatever the text
	// (the push and the SMS of one payment read differently).
	key := "android-1"
	first := send(t, m, hyundai, &key)
	again := send(t, m, strings.ReplaceAll(hyundai, "\n", " "), &key)
	if first.Outcome != "CREATED" || again.Outcome != "DUPLICATE" || again.Entry == nil || again.Entry.ID != first.Entry.ID {
		t.Fatalf("first %+v, again %+v", first, again)
	}
}

func TestNotificationCancellationOffsetsThePayment(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	card := lt.Wallet(m.Client, "신한카드", api.WalletTypeCard, 0)

	// While pending, the payment is deleted.
	paid := send(t, m, shinhan, nil).Entry
	got := send(t, m, shinhanCancel, nil)
	if got.Outcome != "DELETED" || got.Entry == nil || got.Entry.ID != paid.ID {
		t.Fatalf("cancel of a pending payment: %+v", got)
	}
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", paid.ID), nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	if n := pendingCount(t, m); n != 0 {
		t.Fatalf("%d pending after the cancellation", n)
	}

	// Confirmed, it is offset by a pending income of the same amount.
	confirmed := lt.Entry(m.Client, func() api.EntryRequest {
		b := lt.Expense(lt.Date(2026, 11, 16), 12500, card.ID)
		b.Memo = lt.Ptr("스타벅스")
		return b
	}())
	got = send(t, m, shinhanCancel, lt.Ptr("cancel-2"))
	e := got.Entry
	if got.Outcome != "REVERSED" || e == nil || e.Type != "income" || e.Amount != 12500 || !e.Pending ||
		e.WalletID == nil || *e.WalletID != card.ID {
		t.Fatalf("cancel of a confirmed payment: %+v", got)
	}
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", confirmed.ID), nil).Want(http.StatusOK)
	if again := send(t, m, shinhanCancel, lt.Ptr("cancel-2")); again.Outcome != "DUPLICATE" {
		t.Fatalf("the same cancellation again: %+v", again)
	}

	// A cancellation of nothing creates nothing and says so.
	other := env.NewMember(apitest.AsPremium())
	if got := send(t, other, shinhanCancel, nil); got.Outcome != "IGNORED" || got.Entry != nil || got.Reason == nil {
		t.Fatalf("cancel without a payment: %+v", got)
	}
}

// twoEqualPayments records two pending 12,500 payments at 스타벅스 on the same
// day, a few minutes apart (so with different keys), that one cancellation
// text matches either of.
func twoEqualPayments(t *testing.T, m *apitest.Member) [2]int64 {
	t.Helper()
	lt.Wallet(m.Client, "신한카드", api.WalletTypeCard, 0)
	first := send(t, m, strings.Replace(shinhan, "12:34", "12:30", 1), nil)
	second := send(t, m, shinhan, nil)
	if first.Outcome != "CREATED" || second.Outcome != "CREATED" || first.Entry.ID == second.Entry.ID {
		t.Fatalf("payments: %+v, %+v", first, second)
	}
	return [2]int64{first.Entry.ID, second.Entry.ID}
}

func TestNotificationCancellationDeliveredTwiceDeletesOnePayment(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	paid := twoEqualPayments(t, m)

	got := send(t, m, shinhanCancel, nil)
	if got.Outcome != "DELETED" || got.Entry == nil {
		t.Fatalf("the cancellation: %+v", got)
	}
	again := send(t, m, shinhanCancel, nil)
	if again.Outcome != "DUPLICATE" || again.Entry != nil || again.Reason == nil {
		t.Fatalf("the same cancellation again: %+v", again)
	}
	for _, id := range paid {
		status := http.StatusOK
		if id == got.Entry.ID {
			status = http.StatusNotFound
		}
		m.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", id), nil).Want(status)
	}
	if n := pendingCount(t, m); n != 1 {
		t.Fatalf("%d pending entries, want the other payment", n)
	}
}

func TestNotificationParallelCancellationDeletesOnePayment(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	paid := twoEqualPayments(t, m)
	deletedID := theOneAmongDuplicates(t, sendTogether(t, m, shinhanCancel, 10), "DELETED").Entry.ID
	if left := pendingCount(t, m); left != 1 {
		t.Fatalf("%d pending", left)
	}
	// The other payment is the row left, and the cancellation's key is
	// remembered once.
	other := paid[0]
	if deletedID == other {
		other = paid[1]
	}
	if ids := entryIDs(t, env, m); len(ids) != 1 || ids[0] != other || (deletedID != paid[0] && deletedID != paid[1]) {
		t.Fatalf("deleted %d of %v; entries in the database %v", deletedID, paid, ids)
	}
	var keys int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM notification_key WHERE member_id = $1`, m.ID).Scan(&keys); err != nil || keys != 1 {
		t.Fatalf("%d cancellation keys (%v), want 1", keys, err)
	}
}

func TestNotificationIgnoresWhatIsNotAPayment(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	for _, text := range []string{
		advertising,
		"[신한카드] 11월 결제예정금액 안내 홍*동님 1,234,000원 결제일 11/25",
		"안녕하세요 오늘 날씨가 좋네요",
	} {
		got := send(t, m, text, nil)
		if got.Outcome != "IGNORED" || got.Entry != nil || got.Reason == nil || *got.Reason == "" {
			t.Errorf("%q: %+v", text, got)
		}
	}
	if got := send(t, m, advertising, nil); *got.Reason != "advertising" {
		t.Errorf("reason %q", *got.Reason)
	}
	if n := pendingCount(t, m); n != 0 {
		t.Fatalf("%d pending entries", n)
	}
}

func TestNotificationForeignPaymentUsesTheRateOfItsDay(t *testing.T) {
	t.Parallel()
	fake := fxtest.New(t)
	env := apitest.New(t, apitest.WithConfig(func(cfg *config.Config) { cfg.FXAPIURL = fake.URL }))
	m := env.NewMember(apitest.AsPremium())
	e := send(t, m, foreign, nil).Entry
	if e == nil || e.Currency == nil || *e.Currency != "USD" || e.OriginalAmount == nil || *e.OriginalAmount != "12.5" ||
		e.ExchangeRate == nil || *e.ExchangeRate != "1391.25" || e.Amount != 17391 || e.Date.Format(time.DateOnly) != "2026-11-14" {
		t.Fatalf("entry %+v", e)
	}
}

// A foreign payment that prints no won amount is recorded even when no rate
// can be had (DECISIONS.md section 9): pending, awaiting its rate, which its
// confirmation looks up.
func TestNotificationForeignPaymentIsNeverLostToTheFXService(t *testing.T) {
	t.Parallel()
	fake := fxtest.New(t)
	env := apitest.New(t, apitest.WithConfig(func(cfg *config.Config) { cfg.FXAPIURL = fake.URL; cfg.FXDailyLimit = 3 }))
	m := env.NewMember(apitest.AsPremium())
	fake.SetMode(fxtest.Fail)
	got := send(t, m, foreign, nil)
	e := got.Entry
	if got.Outcome != "CREATED" || e == nil || !e.AwaitingRate || !e.Pending || e.Amount != 0 || e.ExchangeRate != nil ||
		e.Currency == nil || *e.Currency != "USD" || e.OriginalAmount == nil || *e.OriginalAmount != "12.5" {
		t.Fatalf("with the FX service down: %+v %+v", got, e)
	}
	if fake.Calls() == 0 {
		t.Fatal("no rate was asked for")
	}

	// Delivered again, past the remembered miss: DUPLICATE, and no lookup.
	env.Clock.Advance(2 * time.Minute)
	calls := fake.Calls()
	if again := send(t, m, foreign, nil); again.Outcome != "DUPLICATE" || again.Entry == nil || again.Entry.ID != e.ID {
		t.Fatalf("redelivery: %+v", again)
	}
	if fake.Calls() != calls {
		t.Fatal("a redelivery looked up a rate")
	}

	// Confirming while no rate can be had: 503 with Retry-After; still pending.
	confirm := fmt.Sprintf("/api/account/entries/%d/confirm", e.ID)
	res := m.Do(http.MethodPost, confirm, nil)
	res.WantProblem(http.StatusServiceUnavailable, "DEPENDENCY_UNAVAILABLE")
	if res.Header.Get("Retry-After") == "" {
		t.Error("503 without Retry-After")
	}
	var now api.Entry
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/entries/%d", e.ID), nil).Want(http.StatusOK).JSON(&now)
	if !now.Pending || !now.AwaitingRate || now.Amount != 0 {
		t.Fatalf("after a failed confirmation: %+v", now)
	}

	// The service back: the confirmation fills the won amount at the rate
	// of the payment's day.
	fake.SetMode(fxtest.Good)
	env.Clock.Advance(2 * time.Minute)
	var done api.Entry
	m.Do(http.MethodPost, confirm, nil).Want(http.StatusOK).JSON(&done)
	if done.Pending || done.AwaitingRate || done.ExchangeRate == nil || *done.ExchangeRate != "1391.25" || done.Amount != 17391 {
		t.Fatalf("confirmed: %+v", done)
	}
	// Confirming again changes nothing and looks nothing up.
	calls = fake.Calls()
	var twice api.Entry
	m.Do(http.MethodPost, confirm, nil).Want(http.StatusOK).JSON(&twice)
	if twice.Amount != 17391 || fake.Calls() != calls {
		t.Fatalf("confirmed twice: %+v, %d calls", twice, fake.Calls()-calls)
	}

	// Over the member's daily FX limit the notification is still recorded.
	for i := 10; i < 14; i++ {
		text := strings.Replace(foreign, "11/14", fmt.Sprintf("11/%d", i), 1)
		if r := send(t, m, text, nil); r.Outcome != "CREATED" || r.Entry == nil {
			t.Fatalf("payment of 11/%d: %+v", i, r)
		}
	}
	var awaiting int
	if err := env.Pool.QueryRow(t.Context(), `SELECT count(*) FROM account_entry WHERE member_id = $1 AND awaiting_rate`, m.ID).Scan(&awaiting); err != nil {
		t.Fatal(err)
	}
	if awaiting == 0 {
		t.Fatal("no payment over the FX limit awaits its rate")
	}
	if n := pendingCount(t, m); n != 4 {
		t.Fatalf("%d pending entries, want 4", n)
	}
}

func TestNotificationAccessAndBadInput(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	free := env.NewMember()
	free.Do(http.MethodPost, "/api/account/entries/notification", api.NotificationRequest{Text: shinhan, PostedAt: &posted}).
		WantProblem(http.StatusForbidden, "PREMIUM_REQUIRED")
	m := env.NewMember(apitest.AsPremium())
	for name, body := range map[string]api.NotificationRequest{
		"empty":         {Text: "", PostedAt: &posted},
		"huge":          {Text: strings.Repeat("가", 2001), PostedAt: &posted},
		"control":       {Text: "신한카드 승인 \x07 12,500원", PostedAt: &posted},
		"bidi":          {Text: "신한카드 승인 \u202e 12,500원", PostedAt: &posted},
		"key spaces":    {Text: shinhan, PostedAt: &posted, NotifKey: lt.Ptr("a b")},
		"key too long":  {Text: shinhan, PostedAt: &posted, NotifKey: lt.Ptr(strings.Repeat("k", 129))},
		"key empty":     {Text: shinhan, PostedAt: &posted, NotifKey: lt.Ptr("")},
		"key non-ascii": {Text: shinhan, PostedAt: &posted, NotifKey: lt.Ptr("키")},
	} {
		r := m.Raw().Do(http.MethodPost, "/api/account/entries/notification", body)
		if r.Status != http.StatusBadRequest {
			t.Errorf("%s: status %d", name, r.Status)
		}
	}
}

// Cancellation keys older than the redelivery window go in the daily
// cleanup; younger ones stay and still answer DUPLICATE.
func TestCleanupJobDeletesCancellationKeysPastTheWindow(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	other := env.NewMember(apitest.AsPremium())
	twoEqualPayments(t, m)
	twoEqualPayments(t, other)
	if got := send(t, m, shinhanCancel, nil); got.Outcome != "DELETED" {
		t.Fatalf("the cancellation: %+v", got)
	}
	if got := send(t, other, shinhanCancel, nil); got.Outcome != "DELETED" {
		t.Fatalf("the other member's cancellation: %+v", got)
	}
	now := env.Clock.Now()
	env.Exec(`UPDATE notification_key SET created_at = $2 WHERE member_id = $1`, m.ID, now.Add(-intake.KeyWindow-time.Minute))
	env.Exec(`UPDATE notification_key SET created_at = $2 WHERE member_id = $1`, other.ID, now.Add(-intake.KeyWindow+time.Minute))

	if ran, err := env.App.Jobs.Run(context.Background(), intake.CleanupJobName); err != nil || !ran {
		t.Fatalf("ran=%v err=%v", ran, err)
	}
	var left []int64
	rows, err := env.Pool.Query(context.Background(), `SELECT member_id FROM notification_key`)
	if err != nil {
		t.Fatal(err)
	}
	left, err = pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 1 || left[0] != other.ID {
		t.Fatalf("keys left of members %v, want only the younger key of member %d", left, other.ID)
	}
	if again := send(t, other, shinhanCancel, nil); again.Outcome != "DUPLICATE" {
		t.Fatalf("a key inside the window no longer dedupes: %+v", again)
	}
}

// A card deleted while its notification is being recorded does not lose
// the notification: the create's checks key-share lock the card (so that the
// write check's totals lock follows them, database.LockOrder), so the
// deletion waits for the notification's commit, the payment is recorded on
// the card, and the deletion then finds the card in use (409), never a 500.
func TestNotificationSurvivesItsCardDeletedMidway(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	card := lt.Wallet(m.Client, "신한 Deep Dream", api.WalletTypeCard, 0)
	// The insert of an entry naming a wallet waits, after its checks passed,
	// for an advisory lock this test holds; meanwhile the card is deleted.
	ctx := t.Context()
	if _, err := env.Pool.Exec(ctx, `
CREATE FUNCTION test_wait_midway() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.notif_key IS NOT NULL AND NEW.wallet_id IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(4242);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER test_wait_midway BEFORE INSERT ON account_entry
  FOR EACH ROW EXECUTE FUNCTION test_wait_midway();`); err != nil {
		t.Fatal(err)
	}
	holder, err := env.Pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Release()
	if _, err := holder.Exec(ctx, `SELECT pg_advisory_lock(4242)`); err != nil {
		t.Fatal(err)
	}
	answered := make(chan api.NotificationResult, 1)
	go func() {
		var out api.NotificationResult
		r := m.Do(http.MethodPost, "/api/account/entries/notification", api.NotificationRequest{Text: shinhan, PostedAt: &posted})
		if r.Status == http.StatusOK {
			r.JSON(&out)
		} else {
			out.Outcome = api.NotificationOutcome(fmt.Sprintf("status %d: %s", r.Status, r.Body))
		}
		answered <- out
	}()
	deadline := time.Now().Add(30 * time.Second)
	for waiting := false; !waiting; {
		if time.Now().After(deadline) {
			t.Fatal("the notification's insert never reached the lock")
		}
		if err := env.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = 4242 AND NOT granted)`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	deleted := make(chan *apitest.Response, 1)
	go func() { deleted <- m.Do(http.MethodDelete, fmt.Sprintf("/api/account/wallets/%d", card.ID), nil) }()
	// The deletion waits on the card's row, which the notification's
	// checks hold, until the notification commits.
	for waiting := 0; waiting < 2 && len(deleted) == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the deletion never waited for the card's row")
		}
		if err := env.Pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := holder.Exec(ctx, `SELECT pg_advisory_unlock(4242)`); err != nil {
		t.Fatal(err)
	}
	got := <-answered
	if got.Outcome != "CREATED" || got.Entry == nil || got.Entry.WalletID == nil || *got.Entry.WalletID != card.ID || got.Entry.Amount != 12500 {
		t.Fatalf("got %+v, want the payment recorded on card %d", got, card.ID)
	}
	if res := <-deleted; res.Status != http.StatusConflict {
		t.Fatalf("the card's deletion behind the notification answered %d %s, want 409 (in use)", res.Status, res.Body)
	}
	if n := pendingCount(t, m); n != 1 {
		t.Fatalf("%d pending entries, want the one payment", n)
	}
}
