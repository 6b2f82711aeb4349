package idempotency_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	pngenc "image/png"
	"mime/multipart"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/app"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/idempotency"
)

func count(t *testing.T, env *apitest.Env, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := env.Pool.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

func entries(t *testing.T, env *apitest.Env, memberID int64) int {
	return count(t, env, "SELECT count(*) FROM account_entry WHERE member_id = $1", memberID)
}

// TestParallelRetriesOfOneCreateMakeOneRecord: 50 retries of one create sent
// at once make one entry; one answer is the original, every other one is the
// same answer replayed or 409 CONFLICT with Retry-After.
func TestParallelRetriesOfOneCreateMakeOneRecord(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	w := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	for _, tc := range []struct {
		name string
		body api.EntryRequest
	}{
		{"one statement", lt.Expense(lt.Date(2026, 11, 16), 1200, w.ID)},
		{"with tags", func() api.EntryRequest {
			b := lt.Expense(lt.Date(2026, 11, 16), 3400, w.ID)
			b.Tags = &[]string{"trip"}
			return b
		}()},
	} {
		before := entries(t, env, m.ID)
		c := m.WithHeader(idempotency.Header, "parallel-"+tc.name)
		answers := apitest.TogetherV(50, func(int) *apitest.Response {
			return c.Do(http.MethodPost, "/api/account/entries", tc.body)
		})
		var original *apitest.Response
		replayed, busy := 0, 0
		for _, res := range answers {
			switch {
			case res.Status == http.StatusCreated && res.Header.Get(idempotency.ReplayedHeader) == "":
				if original != nil {
					t.Errorf("%s: two original answers", tc.name)
				}
				original = res
			case res.Status == http.StatusCreated && res.Header.Get(idempotency.ReplayedHeader) == "true":
				replayed++
			case res.Status == http.StatusConflict && res.Header.Get("Retry-After") != "":
				// Its own code (issue 43): a client tells "retry soon" from
				// a conflict with the records without reading headers.
				res.WantProblem(http.StatusConflict, "IDEMPOTENCY_KEY_IN_FLIGHT")
				busy++
			default:
				t.Errorf("%s: answer %d %s", tc.name, res.Status, res.Body)
			}
		}
		if original == nil {
			t.Fatalf("%s: no original answer among %d replayed and %d busy", tc.name, replayed, busy)
		}
		for _, res := range answers {
			if res.Status == http.StatusCreated && !bytes.Equal(res.Body, original.Body) {
				t.Errorf("%s: replayed %s, original %s", tc.name, res.Body, original.Body)
			}
		}
		if n := entries(t, env, m.ID) - before; n != 1 {
			t.Errorf("%s: %d entries made, want 1", tc.name, n)
		}
		// Once it has answered, every retry replays.
		res := c.Do(http.MethodPost, "/api/account/entries", tc.body).Want(http.StatusCreated)
		if res.Header.Get(idempotency.ReplayedHeader) != "true" || !bytes.Equal(res.Body, original.Body) {
			t.Errorf("%s: a later retry answered %s (replayed %q)", tc.name, res.Body, res.Header.Get(idempotency.ReplayedHeader))
		}
		t.Logf("%s: 1 original, %d replayed, %d busy", tc.name, replayed, busy)
	}
}

// TestKeyRulesAndScope: another body under a used key is 422, a key over
// 255 characters is 400, keys are per member, and a request without a key
// works as before.
func TestKeyRulesAndScope(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	w := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	c := m.WithHeader(idempotency.Header, "k1")
	c.Do(http.MethodPost, "/api/account/entries", lt.Expense(lt.Date(2026, 11, 16), 100, w.ID)).Want(http.StatusCreated)
	c.Do(http.MethodPost, "/api/account/entries", lt.Expense(lt.Date(2026, 11, 16), 101, w.ID)).
		WantProblem(http.StatusUnprocessableEntity, "IDEMPOTENCY_KEY_REUSED")
	// The same key on another path is another request.
	c.Do(http.MethodPost, "/api/account/wallets", api.CreateWalletJSONRequestBody{Name: "Bank", Type: api.WalletTypeBank}).
		WantProblem(http.StatusUnprocessableEntity, "IDEMPOTENCY_KEY_REUSED")
	if n := entries(t, env, m.ID); n != 1 {
		t.Errorf("%d entries, want 1", n)
	}

	long := m.Raw().WithHeader(idempotency.Header, strings.Repeat("k", idempotency.MaxKeyLen+1))
	long.Do(http.MethodPost, "/api/account/entries", lt.Expense(lt.Date(2026, 11, 16), 100, w.ID)).
		WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	m.WithHeader(idempotency.Header, strings.Repeat("k", idempotency.MaxKeyLen)).
		Do(http.MethodPost, "/api/account/entries", lt.Expense(lt.Date(2026, 11, 16), 100, w.ID)).Want(http.StatusCreated)

	// Another member's same key is theirs.
	o := env.NewMember()
	ow := lt.Wallet(o.Client, "Cash", api.WalletTypeCash, 0)
	res := o.WithHeader(idempotency.Header, "k1").
		Do(http.MethodPost, "/api/account/entries", lt.Expense(lt.Date(2026, 11, 16), 100, ow.ID)).Want(http.StatusCreated)
	if res.Header.Get(idempotency.ReplayedHeader) != "" {
		t.Errorf("another member's key was replayed")
	}

	// A failed request keeps nothing: its retry runs again.
	f := m.WithHeader(idempotency.Header, "fails")
	f.Do(http.MethodPost, "/api/account/entries", lt.Expense(lt.Date(2026, 11, 16), 100, 999999)).
		WantProblem(http.StatusNotFound, "NOT_FOUND")
	if n := count(t, env, "SELECT count(*) FROM idempotency_key WHERE member_id = $1 AND key = 'fails'", m.ID); n != 0 {
		t.Errorf("a failed request's key was kept")
	}
	f.Do(http.MethodPost, "/api/account/entries", lt.Expense(lt.Date(2026, 11, 16), 100, 999999)).
		WantProblem(http.StatusNotFound, "NOT_FOUND")
}

// TestKeysExpireAfterADay: a key's answer is replayed within 24 hours; after
// them (and after the cleanup job deleted it) the key makes a new record.
func TestKeysExpireAfterADay(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	c := m.WithHeader(idempotency.Header, "daily")
	body := api.CreateTagJSONRequestBody{Name: "trip"}
	m2 := env.NewMember(apitest.AsPremium())
	c = m2.WithHeader(idempotency.Header, "daily")
	c.Do(http.MethodPost, "/api/account/tags", body).Want(http.StatusCreated)
	env.Clock.Advance(23 * time.Hour)
	if res := c.Do(http.MethodPost, "/api/account/tags", body).Want(http.StatusCreated); res.Header.Get(idempotency.ReplayedHeader) != "true" {
		t.Errorf("not replayed within the day")
	}
	env.Clock.Advance(2 * time.Hour)
	if ran, err := env.App.Jobs.Run(t.Context(), idempotency.CleanupJobName); err != nil || !ran {
		t.Fatalf("cleanup ran %v: %v", ran, err)
	}
	if n := count(t, env, "SELECT count(*) FROM idempotency_key"); n != 0 {
		t.Errorf("%d keys left after the cleanup", n)
	}
	// The tag exists now, so the create runs and answers its conflict.
	c.Do(http.MethodPost, "/api/account/tags", body).WantProblem(http.StatusConflict, "CONFLICT")
	_ = m
}

// TestRetryAfterACrash: a server that stops right after the commit (the
// connection dropped unanswered) leaves the record and the key, and the
// retry replays the answer; one that stops before the commit leaves
// neither, and the retry creates once.
func TestRetryAfterACrash(t *testing.T) {
	t.Parallel()
	for _, stage := range []string{"after commit", "before commit"} {
		t.Run(stage, func(t *testing.T) {
			t.Parallel()
			var crash atomic.Bool
			hook := func(context.Context) {
				if crash.CompareAndSwap(true, false) {
					panic(http.ErrAbortHandler)
				}
			}
			env := apitest.New(t, apitest.WithAppOptions(func(o *app.Options) {
				if stage == "after commit" {
					o.IdempotencyHooks.AfterCommit = hook
				} else {
					o.IdempotencyHooks.BeforeCommit = hook
				}
			}))
			m := env.NewMember()
			w := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
			body, _ := json.Marshal(lt.Expense(lt.Date(2026, 11, 16), 4200, w.ID))

			// The first attempt gets no answer: sent outside the checking
			// client, as there is no answer to check, on a connection of its
			// own (net/http retries a request with an Idempotency-Key by
			// itself when a reused connection drops).
			crash.Store(true)
			req, _ := http.NewRequest(http.MethodPost, env.Server.URL+"/api/account/entries", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+m.Token)
			req.Header.Set(idempotency.Header, "crash")
			fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
			if res, err := fresh.Do(req); err == nil {
				res.Body.Close()
				t.Fatalf("the crashed request answered %d", res.StatusCode)
			}
			wantBefore := map[string]int{"after commit": 1, "before commit": 0}[stage]
			if n := entries(t, env, m.ID); n != wantBefore {
				t.Fatalf("%d entries after the crash, want %d", n, wantBefore)
			}

			res := m.WithHeader(idempotency.Header, "crash").Send(http.MethodPost, "/api/account/entries", "application/json", body).
				Want(http.StatusCreated)
			wantReplay := map[string]string{"after commit": "true", "before commit": ""}[stage]
			if got := res.Header.Get(idempotency.ReplayedHeader); got != wantReplay {
				t.Errorf("retry: Idempotent-Replayed %q, want %q", got, wantReplay)
			}
			var e api.Entry
			res.JSON(&e)
			if e.Amount != 4200 {
				t.Errorf("retry answered %s", res.Body)
			}
			if n := entries(t, env, m.ID); n != 1 {
				t.Errorf("%d entries after the retry, want 1", n)
			}
		})
	}
}

// TestEveryCreateReplays: each operation that takes an Idempotency-Key
// answers its retry with the first answer and makes one record.
func TestEveryCreateReplays(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, apitest.WithConfig(func(c *config.Config) { c.StoreTestMode = true }))
	m := env.NewMember(apitest.AsPremium())
	w := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 0)
	w2 := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	cat := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)
	var stock api.Stock
	m.Do(http.MethodPost, "/api/account/invest/stocks", api.CreateStockJSONRequestBody{Code: "005930", Name: "Samsung"}).
		Want(http.StatusCreated).JSON(&stock)
	var post api.Post
	m.Do(http.MethodPost, "/api/board/posts", api.CreatePostJSONRequestBody{Category: "saving", Title: "Hello", Body: "First post"}).
		Want(http.StatusCreated).JSON(&post)

	var png bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	img.Set(1, 1, color.RGBA{R: 255, A: 255})
	if err := pngenc.Encode(&png, img); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path  string
		body  any
		table string
	}{
		{"/api/account/wallets", api.CreateWalletJSONRequestBody{Name: "Card", Type: api.WalletTypeCard}, "wallet"},
		{"/api/account/categories", api.CreateCategoryJSONRequestBody{Name: "Rent", Type: api.EntryTypeExpense}, "account_category"},
		{"/api/account/tags", api.CreateTagJSONRequestBody{Name: "trip"}, "account_tag"},
		{"/api/account/entries", lt.Expense(lt.Date(2026, 11, 16), 700, w.ID), "account_entry"},
		{"/api/account/transfers", api.TransferRequest{
			Date: lt.Date(2026, 11, 16), Amount: 300, FromWalletID: w.ID, ToWalletID: w2.ID,
		}, "transfer"},
		{"/api/account/recurrings", api.RecurringRequest{Name: "Rent", Type: api.EntryTypeExpense, Amount: 1000, Day: 5, WalletID: &w.ID}, "recurring"},
		{"/api/account/quick-entries", api.QuickEntryRequest{Name: "Coffee", Type: api.EntryTypeExpense, Amount: 4500, WalletID: &w.ID}, "quick_entry"},
		{"/api/account/budgets", api.CreateBudgetJSONRequestBody{CategoryID: cat.ID, Year: 2026, Month: 11, Amount: 10000}, "budget"},
		{"/api/account/invest/stocks", api.CreateStockJSONRequestBody{Code: "000660", Name: "SK hynix"}, "stock"},
		{"/api/account/invest/trades", api.CreateTradeJSONRequestBody{
			StockID: stock.ID, Side: api.TradeSideBuy, Date: lt.Date(2026, 11, 16), Quantity: "3", Price: "70000",
		}, "invest_trade"},
		{"/api/board/posts", api.CreatePostJSONRequestBody{Category: "saving", Title: "Again", Body: "Second post"}, "post"},
		{fmt.Sprintf("/api/board/posts/%d/comments", post.ID), api.CreateCommentJSONRequestBody{Body: "Nice"}, "comment"},
		{"/api/account/budgets/onetime", api.OnetimeBudgetRequest{
			Name: "Year end", Amount: 100000, StartDate: lt.Date(2026, 12, 20), EndDate: lt.Date(2026, 12, 27),
		}, "budget_onetime"},
		{"/api/account/entries/notification", api.NotificationRequest{
			Text: "[Web발신]\n신한카드(1234)승인 홍*동 12,500원(일시불)11/16 12:34 스타벅스 누적1,234,567원",
		}, "account_entry"},
		{"/api/billing/store/verify", api.VerifyStorePurchaseJSONRequestBody{ProductID: "premium_monthly", PurchaseToken: "test-idem"}, "iap_purchase"},
		{"/api/board/images", png.Bytes(), "board_image"},
	}
	for i, tc := range cases {
		before := count(t, env, "SELECT count(*) FROM "+tc.table)
		c := m.WithHeader(idempotency.Header, fmt.Sprintf("every-%d", i))
		send := func() *apitest.Response { return c.Do(http.MethodPost, tc.path, tc.body) }
		if data, ok := tc.body.([]byte); ok {
			// A multipart body built again draws a new boundary: still the
			// same request.
			send = func() *apitest.Response {
				var buf bytes.Buffer
				mw := multipart.NewWriter(&buf)
				part, _ := mw.CreateFormFile("file", "upload.png")
				part.Write(data)
				mw.Close()
				return c.Send(http.MethodPost, tc.path, mw.FormDataContentType(), buf.Bytes())
			}
		}
		first := send()
		if first.Status/100 != 2 {
			t.Errorf("POST %s: %d %s", tc.path, first.Status, first.Body)
			continue
		}
		again := send()
		if again.Status != first.Status || !bytes.Equal(again.Body, first.Body) || again.Header.Get(idempotency.ReplayedHeader) != "true" {
			t.Errorf("POST %s retry: %d %s (replayed %q), first %d %s", tc.path, again.Status, again.Body,
				again.Header.Get(idempotency.ReplayedHeader), first.Status, first.Body)
		}
		if n := count(t, env, "SELECT count(*) FROM "+tc.table) - before; n != 1 {
			t.Errorf("POST %s: %d %s rows made, want 1", tc.path, n, tc.table)
		}
	}
}
