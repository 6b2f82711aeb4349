package backup_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
)

// TestBackupCarriesCardCycles: a card's statement cycle survives the
// member's own backup and restore, even when the card comes before the
// wallet it is paid from; a document whose cycle names no wallet, a CARD,
// or sits on a BANK is refused naming the field, and changes nothing.
func TestBackupCarriesCardCycles(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	statementDay, paymentDay := int32(31), int32(14)
	var card api.Wallet
	m.Do(http.MethodPost, "/api/account/wallets", api.WalletRequest{
		Name: "Card", Type: api.WalletTypeCard, StatementDay: &statementDay, PaymentDay: &paymentDay, PaymentWalletID: &bank.ID,
	}).Want(http.StatusCreated).JSON(&card)
	m.Do(http.MethodPut, "/api/account/wallets/reorder", api.ReorderRequest{Ids: []int64{card.ID, bank.ID}}).Want(http.StatusNoContent)

	doc := backupOf(t, m)
	if len(doc.Wallets) != 2 || doc.Wallets[0].Cycle == nil || doc.Wallets[1].Cycle != nil {
		t.Fatalf("backup wallets %+v", doc.Wallets)
	}
	if c := *doc.Wallets[0].Cycle; c.StatementDay != 31 || c.PaymentDay != 14 || c.PaymentWallet != "Bank" {
		t.Fatalf("backup cycle %+v", c)
	}
	restore(t, m, doc)
	var list api.WalletList
	m.Do(http.MethodGet, "/api/account/wallets", nil).Want(http.StatusOK).JSON(&list)
	if len(list.Items) != 2 || list.Items[0].Name != "Card" || list.Items[1].Name != "Bank" {
		t.Fatalf("restored wallets %+v", list.Items)
	}
	got := list.Items[0]
	if got.StatementDay == nil || *got.StatementDay != 31 || got.PaymentDay == nil || *got.PaymentDay != 14 ||
		got.PaymentWalletID == nil || *got.PaymentWalletID != list.Items[1].ID {
		t.Fatalf("restored card %+v", got)
	}
	mustEqual(t, "backup after restore", doc, backupOf(t, m))

	for name, tc := range map[string]struct {
		edit  func(d *api.Backup)
		field string
	}{
		"a cycle naming no wallet": {func(d *api.Backup) { d.Wallets[0].Cycle.PaymentWallet = "Nowhere" }, "/wallets/0/cycle/paymentWallet"},
		"a cycle paid from itself": {func(d *api.Backup) { d.Wallets[0].Cycle.PaymentWallet = "Card" }, "/wallets/0/cycle/paymentWallet"},
		"a cycle paid from a CARD": {func(d *api.Backup) {
			d.Wallets = append(d.Wallets, api.BackupWallet{Name: "Other card", Type: api.WalletTypeValue(api.WalletTypeCard)})
			d.Wallets[0].Cycle.PaymentWallet = "Other card"
		}, "/wallets/0/cycle/paymentWallet"},
		"a cycle on a BANK": {func(d *api.Backup) {
			d.Wallets[1].Cycle = &api.BackupCardCycle{StatementDay: 1, PaymentDay: 2, PaymentWallet: "Card"}
			d.Wallets[0].Cycle = nil
		}, "/wallets/1/cycle/statementDay"},
	} {
		bad := backupOf(t, m)
		tc.edit(&bad)
		p := m.Do(http.MethodPost, "/api/account/restore", bad).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		if len(p.Errors) == 0 || p.Errors[0].Field != tc.field {
			t.Errorf("%s: names %+v, want %s", name, p.Errors, tc.field)
		}
		mustEqual(t, fmt.Sprintf("backup after %s", name), doc, backupOf(t, m))
	}
}
