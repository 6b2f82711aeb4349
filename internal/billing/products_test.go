package billing_test

import (
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
)

func TestProductsComeFromSettings(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	var list api.ProductList
	env.NewMember().Do(http.MethodGet, "/api/billing/products", nil).Want(http.StatusOK).JSON(&list)
	want := []api.Product{
		{ProductID: "premium_monthly", Price: 4900, Currency: "KRW", Period: "P1M"},
		{ProductID: "premium_yearly", Price: 49000, Currency: "KRW", Period: "P1Y"},
	}
	if len(list.Items) != 2 || list.Items[0] != want[0] || list.Items[1] != want[1] {
		t.Fatalf("products %+v, want %+v", list.Items, want)
	}

	changed := apitest.New(t, apitest.WithConfig(func(c *config.Config) {
		c.MonthlyProduct = config.Product{ID: "nestegg.monthly", Price: 5500, Period: config.Period{Days: 30}}
	}))
	changed.NewMember().Do(http.MethodGet, "/api/billing/products", nil).Want(http.StatusOK).JSON(&list)
	if got := list.Items[0]; got != (api.Product{ProductID: "nestegg.monthly", Price: 5500, Currency: "KRW", Period: "P30D"}) {
		t.Fatalf("changed monthly product %+v", got)
	}
	env.Client().Do(http.MethodGet, "/api/billing/products", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
}
