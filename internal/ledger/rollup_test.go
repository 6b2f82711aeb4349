package ledger_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/oapi-codegen/runtime/types"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/external/fx/fxtest"
)

// The rollup wallet_net (schema/00006_wallet_net.sql) is what the net-worth
// trend reads instead of every entry. These tests hold it equal to a
// recomputation from the entries after random histories written through
// the API, and the trend equal to the balances summed from the entries.

// recomputedRollupDiff answers the rows in which wallet_net with the deltas
// not folded into it yet and a recomputation from the member's entries
// differ (a row at 0 is no row).
const recomputedRollupDiff = `
WITH r AS (
    SELECT wallet_id, period, start, sum(net) AS net, sum(gross) AS gross FROM (
        SELECT wallet_id, period, start, net, gross FROM wallet_net WHERE member_id = $1
        UNION ALL
        SELECT d.wallet_id, p.period, p.start, d.net, d.gross FROM wallet_net_delta d
        CROSS JOIN LATERAL (VALUES ('total', '-infinity'::date),
            ('month', date_trunc('month', d.day::timestamp)::date),
            ('week', date_trunc('week', d.day::timestamp)::date)) AS p(period, start)
        WHERE d.member_id = $1
    ) AS u
    GROUP BY wallet_id, period, start
    HAVING sum(net) <> 0 OR sum(gross) <> 0
), c AS (
    SELECT e.wallet_id, p.period, p.start, sum(CASE WHEN e.type = 'income' THEN e.amount ELSE -e.amount END) AS net,
        sum(e.amount) AS gross
    FROM account_entry e
    CROSS JOIN LATERAL (VALUES ('total', '-infinity'::date),
        ('month', date_trunc('month', e.entry_date::timestamp)::date),
        ('week', date_trunc('week', e.entry_date::timestamp)::date)) AS p(period, start)
    WHERE e.member_id = $1 AND NOT e.pending AND e.wallet_id IS NOT NULL
    GROUP BY e.wallet_id, p.period, p.start
    HAVING sum(CASE WHEN e.type = 'income' THEN e.amount ELSE -e.amount END) <> 0 OR sum(e.amount) <> 0
)
SELECT 'rollup' AS side, wallet_id, period, start::text, net::text || ' gross ' || gross::text FROM (TABLE r EXCEPT TABLE c) AS x
UNION ALL
SELECT 'entries', wallet_id, period, start::text, net::text || ' gross ' || gross::text FROM (TABLE c EXCEPT TABLE r) AS y`

// balancesFromEntries is the trend's balances as they were computed before
// the rollup: each wallet's opening balance plus its confirmed entries up to
// the day.
const balancesFromEntries = `
SELECT d.day::text, w.id, (w.opening_balance + COALESCE(sum(CASE WHEN e.type = 'income' THEN e.amount ELSE -e.amount END), 0))::bigint
FROM unnest($2::date[]) AS d(day)
CROSS JOIN wallet w
LEFT JOIN account_entry e ON e.member_id = w.member_id AND e.wallet_id = w.id AND NOT e.pending AND e.entry_date <= d.day
WHERE w.member_id = $1
GROUP BY d.day, w.id`

type rollupHistory struct {
	t       *testing.T
	env     *apitest.Env
	m       *apitest.Member
	rng     *rand.Rand
	wallets []int64
	named   int
	log     []string
}

func (h *rollupHistory) do(format string, args ...any) {
	h.log = append(h.log, fmt.Sprintf(format, args...))
}

func (h *rollupHistory) ids(sql string) []int64 {
	h.t.Helper()
	rows, err := h.env.Pool.Query(context.Background(), sql, h.m.ID)
	if err != nil {
		h.t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		h.t.Fatal(err)
	}
	return ids
}

func (h *rollupHistory) pick(ids []int64) (int64, bool) {
	if len(ids) == 0 {
		return 0, false
	}
	return ids[h.rng.IntN(len(ids))], true
}

// date is a day from about two and a half years back to a month ahead of
// the clock's day, so edits are backdated and some entries are ahead; a
// third within ten days of it, around the trend's last point.
func (h *rollupHistory) date() types.Date {
	today := calendar.Day(h.env.Clock.Now(), apitest.Start.Location())
	if h.rng.IntN(3) == 0 {
		return types.Date{Time: today.AddDate(0, 0, 10-h.rng.IntN(21))}
	}
	return types.Date{Time: today.AddDate(0, 0, 30-h.rng.IntN(930))}
}

func (h *rollupHistory) entryRequest() api.EntryRequest {
	amount := 1 + h.rng.Int64N(1_000_000)
	e := api.EntryRequest{Date: h.date(), Type: api.EntryTypeExpense, Amount: &amount}
	if h.rng.IntN(3) == 0 {
		e.Type = api.EntryTypeIncome
	}
	if h.rng.IntN(8) != 0 { // a few entries on no wallet
		w, _ := h.pick(h.wallets)
		e.WalletID = &w
	}
	return e
}

func (h *rollupHistory) newWallet() {
	h.named++
	types := []api.WalletType{api.WalletTypeBank, api.WalletTypeCard, api.WalletTypeCash, api.WalletTypeMinus}
	w := lt.Wallet(h.m.Client, fmt.Sprintf("W%d", h.named), types[h.rng.IntN(len(types))], h.rng.Int64N(2_000_000)-500_000)
	h.wallets = append(h.wallets, w.ID)
	h.do("new wallet %d", w.ID)
}

func (h *rollupHistory) refreshWallets() {
	h.wallets = h.ids(`SELECT id FROM wallet WHERE member_id = $1 ORDER BY id`)
}

// step writes one random change through the API (pending entries and
// entries awaiting their rate are stored as card notifications store them),
// sometimes while another connection holds the member's rollup lock, as a
// parallel write of the member does: the change is then left as deltas.
func (h *rollupHistory) step() {
	h.t.Helper()
	if h.rng.IntN(6) == 0 {
		ctx := context.Background()
		conn, err := h.env.Pool.Acquire(ctx)
		if err != nil {
			h.t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(hashtextextended('wallet_net:' || $1::bigint, 0))`, h.m.ID); err != nil {
			h.t.Fatal(err)
		}
		h.do("(rollup lock held elsewhere)")
		defer func() {
			_, _ = conn.Exec(ctx, `SELECT pg_advisory_unlock_all()`)
			conn.Release()
		}()
	}
	m := h.m
	plain := `SELECT id FROM account_entry WHERE member_id = $1 AND transfer_id IS NULL ORDER BY id`
	switch k := h.rng.IntN(100); {
	case k < 30:
		e := lt.Entry(m.Client, h.entryRequest())
		h.do("create entry %d", e.ID)
	case k < 45:
		if id, ok := h.pick(h.ids(plain)); ok {
			m.Do(http.MethodPut, fmt.Sprintf("/api/account/entries/%d", id), h.entryRequest()).Want(http.StatusOK)
			h.do("edit entry %d", id)
		}
	case k < 53:
		if id, ok := h.pick(h.ids(plain)); ok {
			m.Do(http.MethodDelete, fmt.Sprintf("/api/account/entries/%d", id), nil).Want(http.StatusNoContent)
			h.do("delete entry %d", id)
		}
	case k < 60:
		w, _ := h.pick(h.wallets)
		h.env.Exec(`INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, pending) VALUES ($1, $2, 'expense', $3, $4, true)`,
			m.ID, w, 1+h.rng.Int64N(100_000), h.date().Time)
		h.env.Exec(`INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, pending, currency, original_amount)
			VALUES ($1, $2, 'expense', 0, $3, true, 'USD', $4)`, m.ID, w, h.date().Time, fmt.Sprintf("%d.25", 1+h.rng.IntN(300)))
		h.do("pending entries on wallet %d", w)
	case k < 70:
		if id, ok := h.pick(h.ids(`SELECT id FROM account_entry WHERE member_id = $1 AND pending ORDER BY id`)); ok {
			m.Do(http.MethodPost, fmt.Sprintf("/api/account/entries/%d/confirm", id), nil).Want(http.StatusOK)
			h.do("confirm entry %d", id)
		}
	case k < 80:
		if len(h.wallets) < 2 {
			h.newWallet()
			return
		}
		from := h.rng.IntN(len(h.wallets))
		to := (from + 1 + h.rng.IntN(len(h.wallets)-1)) % len(h.wallets)
		req := api.TransferRequest{Date: h.date(), Amount: 1 + h.rng.Int64N(500_000), FromWalletID: h.wallets[from], ToWalletID: h.wallets[to]}
		if h.rng.IntN(2) == 0 {
			req.Fee = lt.Ptr(1 + h.rng.Int64N(2_000))
		}
		if id, ok := h.pick(h.ids(`SELECT id FROM transfer WHERE member_id = $1 ORDER BY id`)); ok && h.rng.IntN(2) == 0 {
			if h.rng.IntN(3) == 0 {
				m.Do(http.MethodDelete, fmt.Sprintf("/api/account/transfers/%d", id), nil).Want(http.StatusNoContent)
				h.do("delete transfer %d", id)
			} else {
				m.Do(http.MethodPut, fmt.Sprintf("/api/account/transfers/%d", id), req).Want(http.StatusOK)
				h.do("edit transfer %d", id)
			}
			return
		}
		m.Do(http.MethodPost, "/api/account/transfers", req).Want(http.StatusCreated)
		h.do("transfer %d -> %d", req.FromWalletID, req.ToWalletID)
	case k < 86:
		h.newWallet()
	case k < 92:
		if len(h.wallets) < 3 {
			h.newWallet()
			return
		}
		i := h.rng.IntN(len(h.wallets))
		gone, to := h.wallets[i], h.wallets[(i+1)%len(h.wallets)]
		m.Do(http.MethodDelete, fmt.Sprintf("/api/account/wallets/%d?moveTo=%d", gone, to), nil).Want(http.StatusNoContent)
		h.refreshWallets()
		h.do("delete wallet %d moving to %d", gone, to)
	case k < 95:
		var doc api.Backup
		m.Do(http.MethodGet, "/api/account/backup", nil).Want(http.StatusOK).JSON(&doc)
		m.Do(http.MethodPost, "/api/account/restore", doc).Want(http.StatusOK)
		h.refreshWallets()
		h.do("backup and restore")
	default:
		days := 1 + h.rng.IntN(20)
		h.env.Clock.Advance(time.Duration(days) * 24 * time.Hour)
		h.do("clock +%d days", days)
	}
}

// check holds the rollup to the entries and the trend to the balances
// summed from the entries, by months and by weeks.
func (h *rollupHistory) check(when string) {
	h.t.Helper()
	ctx := context.Background()
	rows, err := h.env.Pool.Query(ctx, recomputedRollupDiff, h.m.ID)
	if err != nil {
		h.t.Fatal(err)
	}
	diff, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (string, error) {
		var side, period, start, net string
		var wallet int64
		err := r.Scan(&side, &wallet, &period, &start, &net)
		return fmt.Sprintf("%s has wallet %d %s %s net %s", side, wallet, period, start, net), err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	if len(diff) > 0 {
		h.t.Fatalf("%s: the rollup differs from the entries after\n  %s\n:\n  %s", when, strings.Join(h.log, "\n  "), strings.Join(diff, "\n  "))
	}
	for _, q := range []string{"unit=MONTH&months=36", "unit=WEEK&weeks=60", "unit=MONTH&months=1"} {
		var trend api.NetWorthTrend
		h.m.Do(http.MethodGet, "/api/account/networth/trend?"+q, nil).Want(http.StatusOK).JSON(&trend)
		days := make([]time.Time, len(trend.Points))
		for i, p := range trend.Points {
			days[i] = p.Date.Time
		}
		rows, err := h.env.Pool.Query(ctx, balancesFromEntries, h.m.ID, days)
		if err != nil {
			h.t.Fatal(err)
		}
		type sums struct{ assets, liabilities int64 }
		want := map[string]*sums{}
		for _, d := range days {
			want[d.Format(time.DateOnly)] = &sums{}
		}
		var day string
		var wallet, balance int64
		_, err = pgx.ForEachRow(rows, []any{&day, &wallet, &balance}, func() error {
			if balance >= 0 {
				want[day].assets += balance
			} else {
				want[day].liabilities -= balance
			}
			return nil
		})
		if err != nil {
			h.t.Fatal(err)
		}
		for _, p := range trend.Points {
			w := want[p.Date.Time.Format(time.DateOnly)]
			if p.Assets != w.assets || p.Liabilities != w.liabilities {
				h.t.Fatalf("%s: %s point %s is %d/%d, the entries give %d/%d, after\n  %s", when, q,
					p.Date.Time.Format(time.DateOnly), p.Assets, p.Liabilities, w.assets, w.liabilities, strings.Join(h.log, "\n  "))
			}
		}
	}
}

// rollupSeed is NESTEGG_ROLLUP_SEED when set (to replay a failure), else the
// time; a failing test prints it.
func rollupSeed(t *testing.T) uint64 {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("NESTEGG_ROLLUP_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("NESTEGG_ROLLUP_SEED: %v", err)
		}
		seed = v
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("replay with NESTEGG_ROLLUP_SEED=%d", seed)
		}
	})
	return seed
}

// TestRollupEqualsEntriesAfterRandomHistories: entries created, edited
// (backdated, moved between wallets, income to expense), deleted;
// notifications stored pending and awaiting their rate, then confirmed;
// transfers with and without fees created, edited, deleted; wallets deleted
// with moveTo; the ledger restored from its backup; the clock moved on.
// After every few steps the rollup equals a recomputation from the entries
// and the trend the balances summed from the entries.
func TestRollupEqualsEntriesAfterRandomHistories(t *testing.T) {
	t.Parallel()
	seed := rollupSeed(t)
	fake := fxtest.New(t)
	env := apitest.New(t, apitest.WithConfig(func(cfg *config.Config) { cfg.FXAPIURL = fake.URL }))
	for run := range 3 {
		h := &rollupHistory{t: t, env: env, m: env.NewMember(apitest.AsPremium()), rng: rand.New(rand.NewPCG(seed, uint64(run)))}
		for range 3 {
			h.newWallet()
		}
		for i := range 60 {
			h.step()
			if i%6 == 5 {
				h.check(fmt.Sprintf("run %d step %d", run, i))
			}
		}
		h.check(fmt.Sprintf("run %d end", run))
		// A write leaves fewer deltas than the fold's threshold.
		lt.Entry(h.m.Client, lt.Income(lt.Date(2026, 11, 1), 1, h.wallets[0]))
		h.do("create entry")
		h.wantFewDeltas(fmt.Sprintf("run %d after a last write", run))
		h.check(fmt.Sprintf("run %d after a last write", run))
	}
}

// wantFewDeltas: after a write that found no other folding, the member has
// fewer deltas than wallet_net_fold_at() (a write that finds that many folds
// them all).
func (h *rollupHistory) wantFewDeltas(when string) {
	h.t.Helper()
	var n, at int
	if err := h.env.Pool.QueryRow(context.Background(), `SELECT count(*), wallet_net_fold_at() FROM wallet_net_delta WHERE member_id = $1`, h.m.ID).Scan(&n, &at); err != nil {
		h.t.Fatal(err)
	}
	if n >= at {
		h.t.Fatalf("%s: %d deltas of member %d not folded (a write folds %d)", when, n, h.m.ID, at)
	}
}

// TestRollupUnderConcurrentWrites: transfers both ways between two wallets
// and entries on both, sent together, all succeed and leave the rollup
// (with the deltas of the writes that found another folding) equal to the
// entries; a write after them leaves fewer deltas than the fold's
// threshold; the member's deletion takes
// their rollup with it.
func TestRollupUnderConcurrentWrites(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	a := lt.Wallet(m.Client, "A", api.WalletTypeBank, 0)
	b := lt.Wallet(m.Client, "B", api.WalletTypeBank, 0)
	var mu sync.Mutex
	var statuses []int
	apitest.Together(8, func(i int) {
		from, to := a.ID, b.ID
		if i%2 == 1 {
			from, to = to, from
		}
		var got []int
		for k := range 3 {
			date := lt.Date(2026, time.Month(1+(i+k)%11), 1+i)
			got = append(got, m.Raw().Do(http.MethodPost, "/api/account/transfers",
				api.TransferRequest{Date: date, Amount: int64(1000 * (i + 1)), FromWalletID: from, ToWalletID: to, Fee: lt.Ptr[int64](10)}).Status)
			got = append(got, m.Raw().Do(http.MethodPost, "/api/account/entries", lt.Income(date, 7, to)).Status)
		}
		mu.Lock()
		statuses = append(statuses, got...)
		mu.Unlock()
	})
	for _, s := range statuses {
		if s != http.StatusCreated {
			t.Fatalf("statuses %v", statuses)
		}
	}
	h := &rollupHistory{t: t, env: env, m: m}
	h.check("concurrent writes")
	lt.Entry(m.Client, lt.Income(lt.Date(2026, 11, 1), 1, a.ID))
	h.wantFewDeltas("concurrent writes and one more")
	h.check("concurrent writes and one more")

	m.Do(http.MethodDelete, "/api/auth/me", nil).Want(http.StatusNoContent)
	var left int
	if err := env.Pool.QueryRow(context.Background(), `SELECT count(*) + (SELECT count(*) FROM wallet_net_delta WHERE member_id = $1) FROM wallet_net WHERE member_id = $1`, m.ID).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Fatalf("%d rollup rows outlive the member", left)
	}
}

// TestFoldSkipsTheDeltasItFoldedBefore holds a member's write to reading the
// deltas there are, not every delta it ever folded. wallet_net_delta is a
// queue: a burst of one member's parallel writes appends thousands of rows
// that the next fold deletes, and until VACUUM comes (minutes, or never where
// autovacuum is off) their index entries stay. A bitmap scan of the
// member's entries visited every dead row on every write (each create of a
// 30 s burst 2.5 ms slower than the last's start); a plain index scan marks
// them dead once, and later folds pass them by. Counted in heap blocks read,
// from PostgreSQL's statistics, for the write after the one that folded.
func TestFoldSkipsTheDeltasItFoldedBefore(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	w := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 0)
	ctx := context.Background()
	conn, err := env.Pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := conn.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	// Deltas as a burst leaves them (net 0, so the balances stay as they
	// are), then two writes: the first folds them.
	exec(`INSERT INTO wallet_net_delta (member_id, wallet_id, day, net)
SELECT $1, $2, DATE '2026-11-16', 0 FROM generate_series(1, 20000)`, m.ID, w.ID)
	write := func() {
		exec(`INSERT INTO account_entry (member_id, wallet_id, type, amount, entry_date, memo) VALUES ($1, $2, 'income', 1, DATE '2026-11-16', '')`, m.ID, w.ID)
	}
	write()
	write()
	// Statistics reach the views when a backend flushes them; this one is
	// made to at once.
	blocks := func() int64 {
		t.Helper()
		exec(`SELECT pg_stat_force_next_flush()`)
		exec(`SELECT pg_stat_clear_snapshot()`)
		var n int64
		if err := conn.QueryRow(ctx, `SELECT coalesce(heap_blks_hit, 0) + coalesce(heap_blks_read, 0) FROM pg_statio_user_tables WHERE relname = 'wallet_net_delta'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	var pages int64
	if err := conn.QueryRow(ctx, `SELECT pg_relation_size('wallet_net_delta') / current_setting('block_size')::int`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	// A scan marks a deleted row's entry only once no transaction can see
	// the row any more; a transaction of another test's database can hold
	// that back for a while (PostgreSQL does not always work out that it
	// cannot see this database's rows), so the writes go on, each in a
	// transaction of its own, until one passes the entries by or 30 s are
	// up. A bitmap scan never marks them: before the fix, every write read
	// every block.
	var read []int64
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		before := blocks()
		write()
		read = append(read, blocks()-before)
		if read[len(read)-1] <= 5 || time.Now().After(deadline) {
			break
		}
	}
	t.Logf("writes after the fold of 20,000 deltas read %v of the queue's %d heap blocks", read, pages)
	if last := read[len(read)-1]; last > 5 {
		t.Fatalf("writes read %v heap blocks of wallet_net_delta (%d in all) for no delta: the folded ones again", read, pages)
	}
	h := &rollupHistory{t: t, env: env, m: m}
	h.wantFewDeltas("the fold")
	h.check("the fold")
}
