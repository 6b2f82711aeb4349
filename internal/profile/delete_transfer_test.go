package profile_test

import (
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

func init() {
	memberFillers = append(memberFillers, memberFiller{order: 30, area: "transfer", fill: func(t *testing.T, env *apitest.Env, m *apitest.Member) {
		// transfer, and its entries with a fee entry in account_entry.
		m.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
			Date: lt.Date(2026, 11, 25), Amount: 300000, Fee: lt.Ptr[int64](500), Memo: lt.Ptr("Card bill"),
			FromWalletID: lt.Wallet(m.Client, "Transfer bank", api.WalletTypeBank, 1000000).ID,
			ToWalletID:   lt.Wallet(m.Client, "Transfer card", api.WalletTypeCard, 0).ID,
		}).Want(http.StatusCreated)
	}})
}
