package server_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/external/fx/fxtest"
)

// TestAClientOfTheSpec walks a first month as an app written against
// SPEC.md does, sending SPEC.md's values (lower-case entry types) as plain
// JSON: sign up, take PREMIUM in store test mode, import the default
// categories, write income and expense entries, receive a Korean and an
// English card notification, confirm them, back up and restore. Every
// exchange is checked against the contract.
func TestAClientOfTheSpec(t *testing.T) {
	t.Parallel()
	fake := fxtest.New(t)
	env := apitest.New(t, apitest.WithConfig(func(c *config.Config) {
		c.StoreTestMode = true
		c.FXAPIURL = fake.URL
	}))
	env.Clock.Set(time.Date(2026, 11, 21, 9, 30, 0, 0, apitest.Start.Location()))

	type obj = map[string]any
	var auth struct {
		Token string `json:"token"`
	}
	env.Client().Do(http.MethodPost, "/api/auth/signup", obj{
		"email": "spec.client@nestegg.test", "password": "a long enough password", "name": "Spec Client",
	}).Want(http.StatusCreated).JSON(&auth)
	c := env.Client().WithToken(auth.Token)
	c.Do(http.MethodPost, "/api/billing/store/verify", obj{"productId": "premium_monthly", "purchaseToken": "test-spec-client"}).
		Want(http.StatusOK)

	type category struct {
		ID       int64      `json:"id"`
		Name     string     `json:"name"`
		Type     string     `json:"type"`
		Children []category `json:"children"`
	}
	var tree struct {
		Items []category `json:"items"`
	}
	c.Do(http.MethodPost, "/api/account/categories/import", nil).Want(http.StatusOK).JSON(&tree)
	byName := map[string]category{}
	for _, top := range tree.Items {
		byName[top.Name] = top
		if top.Type != "income" && top.Type != "expense" {
			t.Fatalf("category %s has type %q", top.Name, top.Type)
		}
	}
	food, salary := byName["식비"], byName["급여"]
	if food.Type != "expense" || salary.Type != "income" {
		t.Fatalf("imported defaults: 식비 %+v, 급여 %+v", food, salary)
	}
	// A category as SPEC.md's example writes it.
	var mine category
	c.Do(http.MethodPost, "/api/account/categories", obj{"name": "간식", "type": "expense", "parentId": food.ID}).
		Want(http.StatusCreated).JSON(&mine)

	wallet := func(name, typ string) int64 {
		var w struct {
			ID int64 `json:"id"`
		}
		c.Do(http.MethodPost, "/api/account/wallets", obj{"name": name, "type": typ}).Want(http.StatusCreated).JSON(&w)
		return w.ID
	}
	cash := wallet("현금", "CASH")
	wallet("신한카드 1234", "CARD")
	wallet("Visa 4321", "CARD")

	c.Do(http.MethodPost, "/api/account/entries", obj{
		"date": "2026-11-20", "type": "income", "amount": 3_000_000, "walletId": cash, "categoryId": salary.ID, "memo": "월급",
	}).Want(http.StatusCreated)
	c.Do(http.MethodPost, "/api/account/entries", obj{
		"date": "2026-11-21", "type": "expense", "amount": 4_500, "walletId": cash, "categoryId": mine.ID, "memo": "붕어빵",
	}).Want(http.StatusCreated)

	type entry struct {
		ID           int64   `json:"id"`
		Type         string  `json:"type"`
		Amount       int64   `json:"amount"`
		Pending      bool    `json:"pending"`
		AwaitingRate bool    `json:"awaitingRate"`
		Currency     *string `json:"currency"`
		Memo         string  `json:"memo"`
	}
	type result struct {
		Outcome string `json:"outcome"`
		Entry   *entry `json:"entry"`
	}
	notify := func(text string) entry {
		var r result
		// postedAt is optional: the service takes the time it received it.
		c.Do(http.MethodPost, "/api/account/entries/notification", obj{"text": text}).Want(http.StatusOK).JSON(&r)
		if r.Outcome != "CREATED" || r.Entry == nil || !r.Entry.Pending || r.Entry.Type != "expense" {
			t.Fatalf("notification %q: %+v %+v", text, r, r.Entry)
		}
		return *r.Entry
	}
	korean := notify("[Web발신]\n신한카드(1234)승인 홍*동 12,000원(일시불)11/21 08:12 스타벅스 누적1,234,000원")
	english := notify("Your card ending 4321 was charged $18.40 at UBER TRIP on 11/20")
	if korean.Amount != 12_000 || korean.Memo != "스타벅스" || english.Currency == nil || *english.Currency != "USD" || english.Memo != "UBER TRIP" {
		t.Fatalf("notifications: %+v %+v", korean, english)
	}
	for _, e := range []entry{korean, english} {
		var done entry
		c.Do(http.MethodPost, fmt.Sprintf("/api/account/entries/%d/confirm", e.ID), nil).Want(http.StatusOK).JSON(&done)
		if done.Pending || done.AwaitingRate || done.Amount <= 0 {
			t.Fatalf("confirmed %+v", done)
		}
	}

	type page struct {
		Items   []entry `json:"items"`
		Summary struct {
			Income  int64 `json:"income"`
			Expense int64 `json:"expense"`
		} `json:"summary"`
	}
	month := func() page {
		var p page
		c.Do(http.MethodGet, "/api/account/entries?year=2026&month=11&type=expense", nil).Want(http.StatusOK).JSON(&p)
		return p
	}
	before := month()
	var sum int64
	for _, e := range before.Items {
		if e.Type != "expense" {
			t.Fatalf("the expense filter answered %+v", e)
		}
		sum += e.Amount
	}
	if len(before.Items) != 3 || before.Summary.Expense != sum || before.Summary.Income != 0 {
		t.Fatalf("this month's expenses: %+v", before)
	}

	var backup map[string]any
	c.Do(http.MethodGet, "/api/account/backup", nil).Want(http.StatusOK).JSON(&backup)
	c.Do(http.MethodPost, "/api/account/restore", backup).Want(http.StatusOK)
	after := month()
	if len(after.Items) != len(before.Items) || after.Summary != before.Summary {
		t.Fatalf("after the restore: %+v, before %+v", after, before)
	}
}
