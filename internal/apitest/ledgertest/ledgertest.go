// Package ledgertest makes ledger records through the API for tests of the
// ledger and of the areas built on it.
package ledgertest

import (
	"net/http"
	"time"

	"github.com/oapi-codegen/runtime/types"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/calendar"
)

// Date is a calendar date for request bodies.
func Date(year int, month time.Month, day int) types.Date {
	return types.Date{Time: calendar.Date(year, month, day)}
}

// Ptr returns a pointer to v, for optional request fields.
func Ptr[T any](v T) *T { return &v }

// Wallet creates a wallet of the type with an opening balance.
func Wallet(c *apitest.Client, name string, typ api.WalletType, opening int64) api.Wallet {
	var w api.Wallet
	c.Do(http.MethodPost, "/api/account/wallets", api.CreateWalletJSONRequestBody{Name: name, Type: typ, OpeningBalance: &opening}).
		Want(http.StatusCreated).JSON(&w)
	return w
}

// Category creates a category (a sub-category when parent is not nil).
func Category(c *apitest.Client, name string, typ api.EntryType, parent *int64) api.Category {
	var out api.Category
	c.Do(http.MethodPost, "/api/account/categories", api.CreateCategoryJSONRequestBody{Name: name, Type: typ, ParentID: parent}).
		Want(http.StatusCreated).JSON(&out)
	return out
}

// Entry creates an entry.
func Entry(c *apitest.Client, body api.EntryRequest) api.Entry {
	var out api.Entry
	c.Do(http.MethodPost, "/api/account/entries", body).Want(http.StatusCreated).JSON(&out)
	return out
}

// Expense is an expense request of amount on the date in the wallet.
func Expense(date types.Date, amount int64, walletID int64) api.EntryRequest {
	return api.EntryRequest{Date: date, Type: api.EntryTypeExpense, Amount: &amount, WalletID: &walletID}
}

// Income is an income request of amount on the date in the wallet.
func Income(date types.Date, amount int64, walletID int64) api.EntryRequest {
	return api.EntryRequest{Date: date, Type: api.EntryTypeIncome, Amount: &amount, WalletID: &walletID}
}
