package ledger_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/external/fx/fxtest"
)

func TestForeignEntryWithoutAmountOrRateTakesTheFXRateOfItsDate(t *testing.T) {
	t.Parallel()
	fake := fxtest.New(t)
	env := apitest.New(t, apitest.WithConfig(func(cfg *config.Config) { cfg.FXAPIURL = fake.URL }))
	m := env.NewMember()
	body := api.EntryRequest{Date: lt.Date(2026, 11, 16), Type: api.EntryTypeExpense, Currency: lt.Ptr("USD"), OriginalAmount: lt.Ptr("12.50")}
	e := lt.Entry(m.Client, body)
	if e.Amount != 17391 || e.ExchangeRate == nil || *e.ExchangeRate != "1391.25" || *e.OriginalAmount != "12.5" {
		t.Fatalf("entry %+v", e)
	}
	// An update without amount and rate looks the rate up too.
	var got api.Entry
	body.OriginalAmount = lt.Ptr("2")
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/entries/%d", e.ID), body).Want(http.StatusOK).JSON(&got)
	if got.Amount != 2783 {
		t.Fatalf("updated %+v", got)
	}
	// Neither amount, rate nor currency: still 400 on /exchangeRate.
	body.Currency = nil
	p := m.Do(http.MethodPost, "/api/account/entries", body).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	if len(p.Errors) != 1 || p.Errors[0].Field != "/exchangeRate" {
		t.Fatalf("problem %+v", p)
	}
	// The provider down with nothing stored: 503, nothing created.
	fake.SetMode(fxtest.Fail)
	body.Currency = lt.Ptr("EUR")
	m.Do(http.MethodPost, "/api/account/entries", body).WantProblem(http.StatusServiceUnavailable, "DEPENDENCY_UNAVAILABLE")
}

// Issue 43: with no FX provider configured, a foreign entry without a won
// amount or a rate answers FX_NOT_CONFIGURED with no retry advice (retrying
// does not help), as does the rate itself; a rate stored earlier is still
// used; the same entry with its rate is created.
func TestForeignEntryWithoutAnFXProviderSaysItIsNotConfigured(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	body := api.EntryRequest{Date: lt.Date(2026, 11, 16), Type: api.EntryTypeExpense, Currency: lt.Ptr("USD"), OriginalAmount: lt.Ptr("12.50")}
	for _, res := range []*apitest.Response{
		m.Raw().Do(http.MethodPost, "/api/account/entries", body),
		m.Raw().Do(http.MethodGet, "/api/fx/rate?from=USD&to=KRW", nil),
	} {
		res.WantProblem(http.StatusServiceUnavailable, "FX_NOT_CONFIGURED")
		if ra := res.Header.Get("Retry-After"); ra != "" {
			t.Fatalf("Retry-After %q with no FX provider", ra)
		}
	}
	env.Exec(`INSERT INTO fx_rate (from_currency, to_currency, day, rate, rate_date, fetched_at)
		VALUES ('USD', 'KRW', '2026-11-10', 1400, '2026-11-10', now())`)
	if e := lt.Entry(m.Client, body); e.Amount != 17500 {
		t.Fatalf("entry at the stored rate %+v", e)
	}
	body.Currency, body.OriginalAmount = lt.Ptr("EUR"), lt.Ptr("2")
	body.ExchangeRate = lt.Ptr("1500")
	if e := lt.Entry(m.Client, body); e.Amount != 3000 {
		t.Fatalf("entry with its rate %+v", e)
	}
}
