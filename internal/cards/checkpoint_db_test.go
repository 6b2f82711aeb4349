package cards_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/cards"
)

// Property (issue 45's speed): over a random card history written straight
// to the database (so every write path's triggers, the changes feed among
// them, see it) and random writes after it (purchases, refunds and
// installments added, edited, deleted, backdated before the checkpoints or
// dated after them; payments added and deleted; a pending purchase
// confirmed; a cycle edited as the ledger edits it; days passing), what the
// bills, the payment-day job and the forecast compute from the cards'
// checkpoints (recording them as they go) is after every write the
// statements the whole history gives after the checkpoint it started from,
// and every statement up to that checkpoint is paid. The rounds use the
// checkpoints and drop them, both (a test that never reads from one, or
// never finds one stale, would prove nothing).
func TestPropertyCheckpointFollowsTheLedger(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	ctx := t.Context()
	q := db.New(env.Pool)
	rng := rand.New(rand.NewPCG(45, 11))
	var bank int64
	if err := env.Pool.QueryRow(ctx, `INSERT INTO wallet (member_id, name, type, opening_balance, sort_order)
		VALUES ($1, 'Bank', 'BANK', 100000000, 1) RETURNING id`, m.ID).Scan(&bank); err != nil {
		t.Fatal(err)
	}
	var cardIDs []int64
	for i, days := range [][2]int{{15, 25}, {31, 14}} {
		var id int64
		if err := env.Pool.QueryRow(ctx, `INSERT INTO wallet (member_id, name, type, statement_day, payment_day, payment_wallet_id, sort_order)
			VALUES ($1, $2, 'CARD', $3, $4, $5, $6) RETURNING id`, m.ID, fmt.Sprint("Card ", i), days[0], days[1], bank, 2+i).Scan(&id); err != nil {
			t.Fatal(err)
		}
		cardIDs = append(cardIDs, id)
	}
	today := time.Date(2026, 6, 10, 0, 0, 0, 0, time.UTC)
	first := today.AddDate(-1, 0, 0)
	purchase := func(date time.Time, pending bool) {
		card := cardIDs[rng.IntN(len(cardIDs))]
		amount, typ := 1000+rng.Int64N(90_000), "expense"
		var months *int
		switch rng.IntN(5) {
		case 0:
			typ, amount = "income", 100+rng.Int64N(20_000) // a refund
		case 1, 2:
			n := 2 + rng.IntN(11)
			months = &n
		}
		env.Exec(`INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, installment_months, pending)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, m.ID, card, typ, amount, date, months, pending)
	}
	payment := func(date time.Time, amount int64) {
		card := cardIDs[rng.IntN(len(cardIDs))]
		env.Exec(`WITH t AS (INSERT INTO transfer (member_id, transfer_date, amount) VALUES ($1, $3, $4) RETURNING id)
			INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, transfer_id)
			SELECT $1, w, typ, $4, $3, t.id FROM t, (VALUES ($2::bigint, 'income'), ($5::bigint, 'expense')) s (w, typ)`,
			m.ID, card, date, amount, bank)
	}
	randomDay := func(from time.Time, days int) time.Time { return from.AddDate(0, 0, rng.IntN(days)) }
	for range 60 {
		purchase(randomDay(first, 365), false)
	}
	for d := first.AddDate(0, 0, 20); d.Before(today); d = d.AddDate(0, 1, 0) {
		payment(d, 250_000+rng.Int64N(100_000))
		payment(d.AddDate(0, 0, 3), 250_000+rng.Int64N(100_000))
	}
	someEntry := func(cond string) (int64, bool) {
		var id int64
		err := env.Pool.QueryRow(ctx, `SELECT e.id FROM account_entry e JOIN wallet w ON w.member_id = e.member_id AND w.id = e.wallet_id
			WHERE e.member_id = $1 AND w.type = 'CARD' AND `+cond+` ORDER BY random() LIMIT 1`, m.ID).Scan(&id)
		return id, err == nil
	}
	used, dropped := 0, 0
	var last []cards.TestCard
	for round := range 70 {
		op := "none"
		switch k := rng.IntN(13); k {
		case 0, 1:
			op = "purchase"
			purchase(randomDay(today.AddDate(0, 0, -200), 230), false)
		case 2:
			op = "edit"
			if id, ok := someEntry("e.transfer_id IS NULL"); ok {
				env.Exec(`UPDATE account_entry SET amount = amount + $2, entry_date = entry_date + $3::int WHERE id = $1`,
					id, rng.Int64N(5000), rng.IntN(61)-30)
			}
		case 3:
			op = "delete"
			if id, ok := someEntry("e.transfer_id IS NULL"); ok {
				env.Exec(`DELETE FROM account_entry WHERE id = $1`, id)
			}
		case 4:
			op = "payment"
			payment(randomDay(today.AddDate(0, 0, -60), 70), 100_000+rng.Int64N(400_000))
		case 5:
			op = "delete payment"
			if id, ok := someEntry("e.transfer_id IS NOT NULL"); ok {
				env.Exec(`DELETE FROM transfer WHERE id = (SELECT transfer_id FROM account_entry WHERE id = $1)`, id)
			}
		case 6:
			op = "pending purchase confirmed"
			purchase(randomDay(today.AddDate(0, 0, -90), 90), true)
			if id, ok := someEntry("e.pending"); ok {
				env.Exec(`UPDATE account_entry SET pending = false WHERE id = $1`, id)
			}
		case 7:
			op = "cycle edit"
			card := cardIDs[rng.IntN(len(cardIDs))]
			if err := cards.KeepPaidStatementsTx(ctx, q, m.ID, card, false, today); err != nil {
				t.Fatal(err)
			}
			env.Exec(`UPDATE wallet SET statement_day = $2, payment_day = $3 WHERE id = $1`, card, 1+rng.IntN(31), 1+rng.IntN(31))
		case 8:
			op = "days pass"
			today = today.AddDate(0, 0, 1+rng.IntN(40))
		case 9:
			// A restore: the ledger changes under a new epoch of the feed,
			// and the feed keeps no note of what changed (only the epoch
			// tells a checkpoint it no longer holds).
			op = "restore"
			if id, ok := someEntry("e.transfer_id IS NULL"); ok {
				tx, err := env.Pool.Begin(ctx)
				if err != nil {
					t.Fatal(err)
				}
				for _, sql := range []string{
					`DELETE FROM account_entry WHERE id = $2 AND member_id = $1`,
					`DELETE FROM ledger_change_pending WHERE member_id = $1 AND $2::bigint IS NOT NULL`,
					`INSERT INTO ledger_change_epoch (member_id, epoch) VALUES ($1, 2)
						ON CONFLICT (member_id) DO UPDATE SET epoch = ledger_change_epoch.epoch + 1 WHERE $2::bigint IS NOT NULL`,
				} {
					if _, err := tx.Exec(ctx, sql, m.ID, id); err != nil {
						t.Fatal(err)
					}
				}
				if err := tx.Commit(ctx); err != nil {
					t.Fatal(err)
				}
			}
		case 10:
			// The tombstone prune: a deletion whose tombstone the feed no
			// longer holds, past the pruned position.
			op = "prune"
			if id, ok := someEntry("e.transfer_id IS NULL"); ok {
				env.Exec(`DELETE FROM account_entry WHERE id = $1`, id)
				// The deletion's note reaches the feed (a feed read's fold),
				// then its tombstone goes.
				env.Exec(`SELECT ledger_change_fold($1, true)`, m.ID)
				env.Exec(`WITH gone AS (DELETE FROM ledger_change WHERE member_id = $1 AND deleted RETURNING seq)
					INSERT INTO ledger_change_epoch (member_id, pruned_seq) SELECT $1, max(seq) FROM gone HAVING max(seq) IS NOT NULL
					ON CONFLICT (member_id) DO UPDATE SET pruned_seq = excluded.pruned_seq`, m.ID)
			}
		}
		fast, err := cards.UnpaidForTest(ctx, q, m.ID, today)
		if err != nil {
			t.Fatal(err)
		}
		whole, err := cards.WholeForTest(ctx, q, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(fast) != len(whole) {
			t.Fatalf("round %d (%s): %d cards, the whole history %d", round, op, len(fast), len(whole))
		}
		for i, f := range fast {
			if !f.From.Closing.IsZero() {
				used++
			} else if last != nil && !last[i].From.Closing.IsZero() {
				dropped++
			}
			var want []cards.Statement
			for _, s := range whole[i].Statements {
				switch {
				case s.Closing.After(f.From.Closing):
					want = append(want, s)
				case !s.Paid || !s.Closing.Before(today):
					t.Fatalf("round %d (%s): card %d's statement %s is up to its checkpoint %s but not paid and closed",
						round, op, f.WalletID, s.Closing.Format(time.DateOnly), f.From.Closing.Format(time.DateOnly))
				}
			}
			if len(f.Statements) != len(want) || (len(want) > 0 && !reflect.DeepEqual(f.Statements, want)) {
				t.Fatalf("round %d (%s): card %d after %s:\n got %+v\nwant %+v", round, op, f.WalletID,
					f.From.Closing.Format(time.DateOnly), f.Statements, want)
			}
		}
		last = fast
	}
	if used < 40 || dropped < 3 {
		t.Fatalf("checkpoints used %d times and dropped %d: the rounds do not exercise them", used, dropped)
	}
	t.Logf("checkpoints used %d times, dropped %d", used, dropped)
}
