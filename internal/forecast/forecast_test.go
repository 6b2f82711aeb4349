package forecast_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/ledger"
)

// Today is apitest.Start's day: 2026-11-16 (Asia/Seoul). A 30-day forecast
// runs 2026-11-16 through 2026-12-15.

func forecastOf(t *testing.T, m *apitest.Member, query string) api.Forecast {
	t.Helper()
	var f api.Forecast
	m.Do(http.MethodGet, "/api/account/forecast"+query, nil).Want(http.StatusOK).JSON(&f)
	return f
}

func createWallet(t *testing.T, m *apitest.Member, body api.WalletRequest) api.Wallet {
	t.Helper()
	var w api.Wallet
	m.Do(http.MethodPost, "/api/account/wallets", body).Want(http.StatusCreated).JSON(&w)
	return w
}

func cycleCard(name string, statementDay, paymentDay int32, payFrom int64) api.WalletRequest {
	return api.WalletRequest{Name: name, Type: api.WalletTypeCard, StatementDay: &statementDay, PaymentDay: &paymentDay, PaymentWalletID: &payFrom}
}

func recurring(t *testing.T, m *apitest.Member, body api.RecurringRequest) api.Recurring {
	t.Helper()
	var r api.Recurring
	m.Do(http.MethodPost, "/api/account/recurrings", body).Want(http.StatusCreated).JSON(&r)
	return r
}

func pendingEntry(t *testing.T, env *apitest.Env, m *apitest.Member, walletID int64, typ string, amount int64, date string) int64 {
	t.Helper()
	var id int64
	if err := env.Pool.QueryRow(t.Context(), `INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, pending)
		VALUES ($1, $2, $3, $4, $5, true) RETURNING id`, m.ID, walletID, typ, amount, date).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// mv is a movement as the tests write it.
type mv struct {
	date     string
	walletID int64 // 0: none
	amount   int64
	source   api.ForecastSource
	sourceID int64
}

func movements(f api.Forecast) []mv {
	var out []mv
	for _, d := range f.Days {
		for _, m := range d.Movements {
			if m.Date.String() != d.Date.String() {
				panic(fmt.Sprintf("movement of %s listed on %s", m.Date, d.Date))
			}
			w := int64(0)
			if m.WalletID != nil {
				w = *m.WalletID
			}
			out = append(out, mv{m.Date.String(), w, m.Amount, m.Source, m.SourceID})
		}
	}
	return out
}

func wantMovements(t *testing.T, name string, f api.Forecast, want ...mv) {
	t.Helper()
	got := movements(f)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: movements\n got %v\nwant %v", name, got, want)
	}
}

func balanceOn(t *testing.T, f api.Forecast, date string) int64 {
	t.Helper()
	for _, d := range f.Days {
		if d.Date.String() == date {
			return d.Balance
		}
	}
	t.Fatalf("no day %s in %s..%s", date, f.From, f.To)
	return 0
}

// TestForecastEachSourceAlone: every source of projected movements, each on
// a member of its own, with its dates, wallets and sourceIds; a member
// without any has a flat forecast of its wallets' balances.
func TestForecastEachSourceAlone(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)

	t.Run("none", func(t *testing.T) {
		m := env.NewMember()
		lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 500_000)
		lt.Wallet(m.Client, "Card", api.WalletTypeCard, -40_000) // not money held
		f := forecastOf(t, m, "")
		if f.From.String() != "2026-11-16" || f.To.String() != "2026-12-15" || len(f.Days) != 30 {
			t.Fatalf("window %s..%s, %d days", f.From, f.To, len(f.Days))
		}
		for _, d := range f.Days {
			if d.Balance != 500_000 || len(d.Movements) != 0 {
				t.Fatalf("day %+v", d)
			}
		}
		if f.Lowest.Date.String() != "2026-11-16" || f.Lowest.Balance != 500_000 || len(f.BelowZero) != 0 {
			t.Errorf("lowest %+v, below zero %+v", f.Lowest, f.BelowZero)
		}
	})

	t.Run("recurring", func(t *testing.T) {
		m := env.NewMember()
		bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 100_000)
		rent := recurring(t, m, api.RecurringRequest{Name: "Rent", Type: api.EntryTypeExpense, Amount: 60_000, WalletID: &bank.ID, Day: 20})
		pay := recurring(t, m, api.RecurringRequest{Name: "Side job", Type: api.EntryTypeIncome, Amount: 10_000, WalletID: &bank.ID, Day: 31, AutoPost: lt.Ptr(false)})
		f := forecastOf(t, m, "?days=92")
		wantMovements(t, "recurring", f,
			mv{"2026-11-20", bank.ID, -60_000, api.ForecastSourceRECURRING, rent.ID},
			mv{"2026-11-30", bank.ID, 10_000, api.ForecastSourceRECURRING, pay.ID},
			mv{"2026-12-20", bank.ID, -60_000, api.ForecastSourceRECURRING, rent.ID},
			mv{"2026-12-31", bank.ID, 10_000, api.ForecastSourceRECURRING, pay.ID},
			mv{"2027-01-20", bank.ID, -60_000, api.ForecastSourceRECURRING, rent.ID},
			mv{"2027-01-31", bank.ID, 10_000, api.ForecastSourceRECURRING, pay.ID},
		)
		if f.To.String() != "2027-02-15" {
			t.Errorf("92 days end %s", f.To)
		}
		// 100,000 − 60,000 + 10,000 − 60,000 = −10,000 on 12-20: the
		// bank goes below zero then.
		if len(f.BelowZero) != 1 || f.BelowZero[0].WalletID != bank.ID || f.BelowZero[0].Date.String() != "2026-12-20" || f.BelowZero[0].Balance != -10_000 {
			t.Errorf("below zero %+v", f.BelowZero)
		}
		if f.Lowest.Date.String() != "2027-01-20" || f.Lowest.Balance != -60_000 {
			t.Errorf("lowest %+v", f.Lowest)
		}
	})

	t.Run("card bill", func(t *testing.T) {
		m := env.NewMember()
		bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 1_000_000)
		card := createWallet(t, m, cycleCard("Card", 31, 14, bank.ID))
		lt.Entry(m.Client, lt.Expense(lt.Date(2026, 10, 20), 40_000, card.ID)) // October: due 11-14, past and unpaid
		lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 1), 30_000, card.ID))  // November: due 12-14
		big := lt.Expense(lt.Date(2026, 11, 2), 90_000, card.ID)
		big.InstallmentMonths = lt.Ptr[int32](3) // 30,000 in November, December, January
		lt.Entry(m.Client, big)
		f := forecastOf(t, m, "?days=60")
		wantMovements(t, "card bill", f,
			mv{"2026-11-16", bank.ID, -40_000, api.ForecastSourceCARDBILL, card.ID},
			mv{"2026-12-14", bank.ID, -60_000, api.ForecastSourceCARDBILL, card.ID},
			mv{"2027-01-14", bank.ID, -30_000, api.ForecastSourceCARDBILL, card.ID},
		)
		var next api.NextCardBills
		m.Do(http.MethodGet, "/api/account/card-bills/next", nil).Want(http.StatusOK).JSON(&next)
		if next.Total != 40_000 {
			t.Errorf("next bills %+v", next)
		}
		// The card's own balance is no money held: the total is the bank's.
		if balanceOn(t, f, "2027-01-14") != 1_000_000-130_000 {
			t.Errorf("balance on 01-14 %d", balanceOn(t, f, "2027-01-14"))
		}
		// A pending transfer into the card (a bill payment not confirmed)
		// counts once, as PENDING, and pays the October bill.
		var tr api.Transfer
		m.Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
			FromWalletID: bank.ID, ToWalletID: card.ID, Amount: 40_000, Date: lt.Date(2026, 11, 17),
		}).Want(http.StatusCreated).JSON(&tr)
		env.Exec(`UPDATE account_entry SET pending = true WHERE transfer_id = $1`, tr.ID)
		f = forecastOf(t, m, "?days=60")
		got := movements(f)
		if len(got) != 4 || got[0].source != api.ForecastSourcePENDING || got[1].source != api.ForecastSourcePENDING ||
			got[2] != (mv{"2026-12-14", bank.ID, -60_000, api.ForecastSourceCARDBILL, card.ID}) {
			t.Errorf("with a pending payment: %v", got)
		}
		if f.Days[len(f.Days)-1].Balance != 1_000_000-130_000 {
			t.Errorf("last day %d", f.Days[len(f.Days)-1].Balance)
		}
	})

	t.Run("loan", func(t *testing.T) {
		m := env.NewMember()
		lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 1_000_000)
		method := api.LoanMethodEqualPrincipal
		loan := createWallet(t, m, api.WalletRequest{Name: "Loan", Type: api.WalletTypeLoan, OpeningBalance: lt.Ptr[int64](-1_200_000),
			LoanAmount: lt.Ptr[int64](1_200_000), LoanRate: lt.Ptr("0"), LoanMethod: &method, LoanMonths: lt.Ptr[int32](12),
			LoanStart: lt.Ptr(lt.Date(2026, 6, 5))})
		f := forecastOf(t, m, "?days=60")
		wantMovements(t, "loan", f,
			mv{"2026-12-05", 0, -100_000, api.ForecastSourceLOAN, loan.ID},
			mv{"2027-01-05", 0, -100_000, api.ForecastSourceLOAN, loan.ID},
		)
		// The loan wallet's −1,200,000 is no money held.
		if f.Days[0].Balance != 1_000_000 || f.Days[len(f.Days)-1].Balance != 800_000 {
			t.Errorf("balances %d … %d", f.Days[0].Balance, f.Days[len(f.Days)-1].Balance)
		}
	})

	t.Run("expected income", func(t *testing.T) {
		m := env.NewMember(apitest.AsPremium())
		lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
		m.Do(http.MethodPut, "/api/auth/profile", api.UpdateProfileRequest{Name: "Payday", MonthStartDay: lt.Ptr[int32](25)}).Want(http.StatusOK)
		// Ledger month 2026-11 runs 11-25..12-24; 2026-12 from 12-25. Only
		// November has its own; December takes it; October's began before today.
		m.Do(http.MethodPut, "/api/account/budgets/income", api.BudgetIncomeRequest{Year: 2026, Month: 10, Amount: 1}).Want(http.StatusOK)
		m.Do(http.MethodPut, "/api/account/budgets/income", api.BudgetIncomeRequest{Year: 2026, Month: 11, Amount: 3_000_000}).Want(http.StatusOK)
		f := forecastOf(t, m, "?days=60")
		wantMovements(t, "expected income", f,
			mv{"2026-11-25", 0, 3_000_000, api.ForecastSourceEXPECTEDINCOME, 202611},
			mv{"2026-12-25", 0, 3_000_000, api.ForecastSourceEXPECTEDINCOME, 202612},
		)
		if balanceOn(t, f, "2026-12-25") != 6_000_000 {
			t.Errorf("balance %d", balanceOn(t, f, "2026-12-25"))
		}
	})

	t.Run("pending", func(t *testing.T) {
		m := env.NewMember()
		bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 10_000)
		old := pendingEntry(t, env, m, bank.ID, "expense", 3_000, "2026-11-10")
		soon := pendingEntry(t, env, m, bank.ID, "income", 5_000, "2026-11-20")
		pendingEntry(t, env, m, bank.ID, "expense", 99_000, "2027-03-01") // past the window
		f := forecastOf(t, m, "")
		wantMovements(t, "pending", f,
			mv{"2026-11-16", bank.ID, -3_000, api.ForecastSourcePENDING, old},
			mv{"2026-11-20", bank.ID, 5_000, api.ForecastSourcePENDING, soon},
		)
		if f.Days[0].Balance != 7_000 || f.Days[len(f.Days)-1].Balance != 12_000 {
			t.Errorf("balances %d … %d", f.Days[0].Balance, f.Days[len(f.Days)-1].Balance)
		}
	})

	t.Run("one-time budget", func(t *testing.T) {
		m := env.NewMember(apitest.AsPremium())
		bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 100_003)
		var ob api.OnetimeBudget
		m.Do(http.MethodPost, "/api/account/budgets/onetime", api.OnetimeBudgetRequest{
			Name: "Trip", Amount: 100_003, StartDate: lt.Date(2026, 11, 10), EndDate: lt.Date(2026, 11, 19),
		}).Want(http.StatusCreated).JSON(&ob)
		lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 12), 60_000, bank.ID))
		// 40,003 left over 11-16..11-19 (4 days): 10,000 each, 3 more first.
		f := forecastOf(t, m, "")
		wantMovements(t, "one-time budget", f,
			mv{"2026-11-16", 0, -10_003, api.ForecastSourceONETIMEBUDGET, ob.ID},
			mv{"2026-11-17", 0, -10_000, api.ForecastSourceONETIMEBUDGET, ob.ID},
			mv{"2026-11-18", 0, -10_000, api.ForecastSourceONETIMEBUDGET, ob.ID},
			mv{"2026-11-19", 0, -10_000, api.ForecastSourceONETIMEBUDGET, ob.ID},
		)
		if f.Days[len(f.Days)-1].Balance != 0 {
			t.Errorf("last day %d", f.Days[len(f.Days)-1].Balance)
		}
	})

	t.Run("posted recurring counts once", func(t *testing.T) {
		m := env.NewMember()
		bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 100_000)
		r := recurring(t, m, api.RecurringRequest{Name: "Gym", Type: api.EntryTypeExpense, Amount: 5_000, WalletID: &bank.ID, Day: 16})
		before := forecastOf(t, m, "")
		wantMovements(t, "before posting", before,
			mv{"2026-11-16", bank.ID, -5_000, api.ForecastSourceRECURRING, r.ID})
		// The job posts today's occurrence as a pending entry: it now
		// counts as PENDING and no more as RECURRING.
		if res, err := ledger.PostRecurrings(t.Context(), env.Pool, apitest.Start, apitest.Start.Location()); err != nil || res.Entries != 1 {
			t.Fatalf("posted %+v, %v", res, err)
		}
		after := forecastOf(t, m, "")
		got := movements(after)
		if len(got) != 1 || got[0].source != api.ForecastSourcePENDING || got[0].amount != -5_000 || got[0].date != "2026-11-16" {
			t.Errorf("after posting: %v", got)
		}
	})
}
