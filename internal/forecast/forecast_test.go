package forecast_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/oapi-codegen/runtime/types"

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

// TestForecastEverySourceTogether: one member with every source; the last
// day's balance is today's total of the money held plus every movement that
// moves it, and each source answers its own movements.
func TestForecastEverySourceTogether(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	other := env.NewMember(apitest.AsPremium())
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 2_000_000)
	cash := lt.Wallet(m.Client, "Cash", api.WalletTypeCash, 50_000)
	card := createWallet(t, m, cycleCard("Card", 15, 25, bank.ID))
	method := api.LoanMethodEqualPrincipal
	createWallet(t, m, api.WalletRequest{Name: "Loan", Type: api.WalletTypeLoan, LoanAmount: lt.Ptr[int64](600_000), LoanRate: lt.Ptr("3.5"),
		LoanMethod: &method, LoanMonths: lt.Ptr[int32](24), LoanStart: lt.Ptr(lt.Date(2026, 1, 10))})
	lt.Entry(m.Client, lt.Expense(lt.Date(2026, 11, 3), 45_000, card.ID))
	inst := lt.Expense(lt.Date(2026, 11, 4), 100_000, card.ID)
	inst.InstallmentMonths = lt.Ptr[int32](6)
	lt.Entry(m.Client, inst)
	recurring(t, m, api.RecurringRequest{Name: "Rent", Type: api.EntryTypeExpense, Amount: 700_000, WalletID: &bank.ID, Day: 25})
	recurring(t, m, api.RecurringRequest{Name: "Phone", Type: api.EntryTypeExpense, Amount: 55_000, WalletID: &card.ID, Day: 5})
	pendingEntry(t, env, m, cash.ID, "expense", 12_000, "2026-11-18")
	m.Do(http.MethodPut, "/api/account/budgets/income", api.BudgetIncomeRequest{Year: 2026, Month: 12, Amount: 3_500_000}).Want(http.StatusOK)
	m.Do(http.MethodPost, "/api/account/budgets/onetime", api.OnetimeBudgetRequest{
		Name: "Holidays", Amount: 300_000, StartDate: lt.Date(2026, 12, 20), EndDate: lt.Date(2027, 1, 3),
	}).Want(http.StatusCreated)
	// Another member's data is none of this forecast's.
	ob := lt.Wallet(other.Client, "Theirs", api.WalletTypeBank, 9_999)
	recurring(t, other, api.RecurringRequest{Name: "Theirs", Type: api.EntryTypeExpense, Amount: 1, WalletID: &ob.ID, Day: 20})

	f := forecastOf(t, m, "?days=92")
	sources := map[api.ForecastSource]int{}
	var sum int64
	for _, mv := range movements(f) {
		sources[mv.source]++
		if mv.walletID == ob.ID {
			t.Errorf("another member's movement %v", mv)
		}
		if mv.walletID != card.ID { // a card's movements move no money held
			sum += mv.amount
		}
	}
	for _, s := range []api.ForecastSource{api.ForecastSourceRECURRING, api.ForecastSourceCARDBILL, api.ForecastSourceLOAN,
		api.ForecastSourceEXPECTEDINCOME, api.ForecastSourcePENDING, api.ForecastSourceONETIMEBUDGET} {
		if sources[s] == 0 {
			t.Errorf("no %s movement in %v", s, sources)
		}
	}
	if last := f.Days[len(f.Days)-1].Balance; last != 2_050_000+sum {
		t.Errorf("last day %d, today's 2,050,000 plus every movement %d", last, 2_050_000+sum)
	}
	// The other member's forecast holds only their own.
	of := forecastOf(t, other, "")
	for _, mv := range movements(of) {
		if mv.walletID != ob.ID {
			t.Errorf("other member sees %v", mv)
		}
	}
	if of.Days[0].Balance != 9_999 {
		t.Errorf("other member's day 1 %d", of.Days[0].Balance)
	}
}

// TestForecastBadInput: days outside 1 to 92 or not a number is a 400
// problem naming days.
func TestForecastBadInput(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	for _, q := range []string{"?days=0", "?days=93", "?days=-1", "?days=abc", "?days=1.5", "?days=99999999999"} {
		p := m.Raw().Do(http.MethodGet, "/api/account/forecast"+q, nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		named := false
		for _, e := range p.Errors {
			named = named || e.Field == "days"
		}
		if !named {
			t.Errorf("%s names %+v", q, p.Errors)
		}
	}
	if f := forecastOf(t, m, "?days=1"); len(f.Days) != 1 || f.From != f.To {
		t.Errorf("one day: %+v", f)
	}
	if f := forecastOf(t, m, "?days=92"); len(f.Days) != 92 {
		t.Errorf("92 days: %d", len(f.Days))
	}
	env.Client().Do(http.MethodGet, "/api/account/forecast", nil).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
}

// TestBudgetPaceThroughTheAPI, with month start day 5: ledger month 2026-11
// runs 11-05..12-04; on 11-16, 12 days elapsed (11-05..11-16) and 18 left
// (11-17..12-04). Food: 24,000 spent (a sub-category's 6,000 included) →
// 2,000 a day, 36,000 ahead, plus a 10,000 recurring expense on 12-01 =
// 70,000; its budget of 50,000 is passed on 11-30 (24,000 + 2,000 × 14 =
// 52,000; 11-29 makes 50,000, not past it). Travel: 80,000 spent, over its
// 60,000 since 11-08. Books: not passed (null).
func TestBudgetPaceThroughTheAPI(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	m.Do(http.MethodPut, "/api/auth/profile", api.UpdateProfileRequest{Name: "Payday", MonthStartDay: lt.Ptr[int32](5)}).Want(http.StatusOK)
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	food := lt.Category(m.Client, "Food", api.EntryTypeExpense, nil)
	snacks := lt.Category(m.Client, "Snacks", api.EntryTypeExpense, &food.ID)
	travel := lt.Category(m.Client, "Travel", api.EntryTypeExpense, nil)
	books := lt.Category(m.Client, "Books", api.EntryTypeExpense, nil)
	spend := func(date types.Date, amount, category int64) {
		e := lt.Expense(date, amount, bank.ID)
		e.CategoryID = &category
		lt.Entry(m.Client, e)
	}
	spend(lt.Date(2026, 11, 4), 99_000, food.ID) // the month before
	spend(lt.Date(2026, 11, 6), 18_000, food.ID)
	spend(lt.Date(2026, 11, 7), 6_000, snacks.ID)
	spend(lt.Date(2026, 11, 8), 80_000, travel.ID)
	spend(lt.Date(2026, 11, 9), 1_200, books.ID)
	recurring(t, m, api.RecurringRequest{Name: "Delivery", Type: api.EntryTypeExpense, Amount: 10_000, WalletID: &bank.ID, CategoryID: &food.ID, Day: 1})
	for _, b := range []struct {
		category, amount int64
	}{{food.ID, 50_000}, {travel.ID, 60_000}, {books.ID, 30_000}} {
		m.Do(http.MethodPost, "/api/account/budgets", api.BudgetRequest{CategoryID: b.category, Year: 2026, Month: 11, Amount: b.amount}).Want(http.StatusCreated)
	}
	var pace api.BudgetPace
	m.Do(http.MethodGet, "/api/account/budgets/pace?year=2026&month=11", nil).Want(http.StatusOK).JSON(&pace)
	byCategory := map[int64]api.BudgetPaceItem{}
	for _, it := range pace.Items {
		byCategory[it.CategoryID] = it
	}
	over := func(it api.BudgetPaceItem) string {
		if it.OverOn == nil {
			return "null"
		}
		return it.OverOn.String()
	}
	if it := byCategory[food.ID]; it.Budget != 50_000 || it.Spent != 24_000 || it.Projected != 70_000 || over(it) != "2026-11-30" {
		t.Errorf("food %+v over %s", it, over(it))
	}
	if it := byCategory[travel.ID]; it.Spent != 80_000 || it.Projected != 80_000+80_000*18/12 || over(it) != "2026-11-08" {
		t.Errorf("travel %+v over %s", it, over(it))
	}
	if it := byCategory[books.ID]; it.Spent != 1_200 || it.Projected != 1_200+1_200*18/12 || over(it) != "null" {
		t.Errorf("books %+v over %s", it, over(it))
	}
	if len(pace.Items) != 3 {
		t.Errorf("items %+v", pace.Items)
	}

	// A month without budgets answers no items; bad months are 400s naming
	// their parameter; a FREE member gets the budgets' 403.
	m.Do(http.MethodGet, "/api/account/budgets/pace?year=2027&month=3", nil).Want(http.StatusOK).JSON(&pace)
	if len(pace.Items) != 0 {
		t.Errorf("no budgets: %+v", pace.Items)
	}
	for _, q := range []struct{ query, field string }{
		{"year=2026&month=0", "month"}, {"year=2026&month=13", "month"}, {"year=1899&month=1", "year"},
		{"year=abc&month=1", "year"}, {"year=2026", "month"}, {"month=1", "year"},
	} {
		p := m.Raw().Do(http.MethodGet, "/api/account/budgets/pace?"+q.query, nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		named := false
		for _, e := range p.Errors {
			named = named || e.Field == q.field
		}
		if !named {
			t.Errorf("%s names %+v, want %s", q.query, p.Errors, q.field)
		}
	}
	free := env.NewMember()
	free.Do(http.MethodGet, "/api/account/budgets/status?year=2026&month=11", nil).WantProblem(http.StatusForbidden, "PREMIUM_REQUIRED")
	free.Do(http.MethodGet, "/api/account/budgets/pace?year=2026&month=11", nil).WantProblem(http.StatusForbidden, "PREMIUM_REQUIRED")
}
