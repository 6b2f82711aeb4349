package profile_test

import (
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

func init() {
	memberFillers = append(memberFillers, memberFiller{order: 35, area: "cards", fill: func(t *testing.T, env *apitest.Env, m *apitest.Member) {
		// A cycle card through the API; then the job's claim of one of its
		// bills (card_bill_payment), a past cycle (card_cycle_past) and a
		// checkpoint (card_checkpoint), as the payment-day job, a cycle edit
		// and a forecast leave them.
		bank := lt.Wallet(m.Client, "Card payer", api.WalletTypeBank, 0)
		statementDay, paymentDay := int32(15), int32(25)
		var card api.Wallet
		m.Do(http.MethodPost, "/api/account/wallets", api.WalletRequest{
			Name: "Cycle card", Type: api.WalletTypeCard, StatementDay: &statementDay, PaymentDay: &paymentDay, PaymentWalletID: &bank.ID,
		}).Want(http.StatusCreated).JSON(&card)
		env.Exec(`INSERT INTO card_bill_payment (member_id, wallet_id, closing_date) VALUES ($1, $2, DATE '2026-10-15')`, m.ID, card.ID)
		env.Exec(`INSERT INTO card_cycle_past (member_id, wallet_id, until_date, statement_day, payment_day) VALUES ($1, $2, DATE '2026-09-15', 10, 20)`, m.ID, card.ID)
		env.Exec(`INSERT INTO card_checkpoint (member_id, wallet_id, closing_date, consumed, carry_closings, carry_amounts, schedule, seq, snapshot, epoch) VALUES ($1, $2, DATE '2026-09-15', 0, '{}', '{}', '15/25', 0, pg_current_snapshot(), 1)`, m.ID, card.ID)
	}})
}
