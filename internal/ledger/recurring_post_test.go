package ledger_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/ledger"
)

// seoulAt is a time on a day in the service time zone.
func seoulAt(y int, m time.Month, d, hour int) time.Time {
	return time.Date(y, m, d, hour, 0, 0, 0, apitest.Start.Location())
}

// runPostJob runs the posting job through the runner at the env's clock; the
// clock must have moved at least an hour since the last run.
func runPostJob(t *testing.T, env *apitest.Env) {
	t.Helper()
	if ran, err := env.App.Jobs.Run(context.Background(), ledger.RecurringPostJobName); err != nil || !ran {
		t.Fatalf("%s: ran=%v err=%v", env.Clock.Now().Format(time.DateTime), ran, err)
	}
}

// runDaily runs the job at 00:30 of every day from..to (in Seoul), both
// included.
func runDaily(t *testing.T, env *apitest.Env, from, to time.Time) {
	t.Helper()
	for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
		env.Clock.Set(time.Date(d.Year(), d.Month(), d.Day(), 0, 30, 0, 0, apitest.Start.Location()))
		runPostJob(t, env)
	}
}

// entriesOf lists the member's entries dated from..to as "date memo amount
// pending|confirmed", by date then memo.
func entriesOf(t *testing.T, m *apitest.Member, from, to string) []string {
	t.Helper()
	var out []string
	for page := 1; ; page++ {
		var p api.EntryPage
		q := url.Values{"from": {from}, "to": {to}, "size": {"100"}, "page": {fmt.Sprint(page)}}
		m.Do(http.MethodGet, "/api/account/entries?"+q.Encode(), nil).Want(http.StatusOK).JSON(&p)
		for _, e := range p.Items {
			state := "confirmed"
			if e.Pending {
				state = "pending"
			}
			out = append(out, fmt.Sprintf("%s %s %d %s", e.Date, e.Memo, e.Amount, state))
		}
		if len(p.Items) < 100 {
			break
		}
	}
	slices.Sort(out)
	return out
}

func wantLines(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got  %s\n want %s", what, strings.Join(got, "\n      "), strings.Join(want, "\n      "))
	}
}

func recurringNamed(t *testing.T, m *apitest.Member, name string) api.Recurring {
	t.Helper()
	var list api.RecurringList
	m.Do(http.MethodGet, "/api/account/recurrings", nil).Want(http.StatusOK).JSON(&list)
	for _, r := range list.Items {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no recurring entry named %s", name)
	return api.Recurring{}
}

func createRecurring(t *testing.T, m *apitest.Member, body api.RecurringRequest) api.Recurring {
	t.Helper()
	var r api.Recurring
	m.Do(http.MethodPost, "/api/account/recurrings", body).Want(http.StatusCreated).JSON(&r)
	return r
}

func lastPosted(r api.Recurring) string {
	if r.LastPostedOn == nil {
		return "never"
	}
	return r.LastPostedOn.String()
}

// Month ends and a 31st in February: day by day from 16 November 2026 to 1
// March 2027, each occurrence posts once on its day, pending, and counts in
// no balance until the member confirms it through the API.
func TestRecurringPostsEachOccurrenceOnItsDay(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	bank := lt.Wallet(m.Client, "Bank", api.WalletTypeBank, 1_000_000)
	rentCat := lt.Category(m.Client, "Housing", api.EntryTypeExpense, nil)

	// The clock starts on 16 November 2026, 10:00 in Seoul.
	rent := createRecurring(t, m, api.RecurringRequest{Name: "Rent", Type: api.EntryTypeExpense, Amount: 650000, Day: 31,
		WalletID: &bank.ID, CategoryID: &rentCat.ID, Memo: lt.Ptr("monthly rent")})
	if !rent.AutoPost || rent.LastPostedOn != nil || rent.NextDate.String() != "2026-11-30" {
		t.Fatalf("new recurring entry: autoPost %v, lastPostedOn %s, nextDate %s", rent.AutoPost, lastPosted(rent), rent.NextDate)
	}
	// Created on its day: today's occurrence posts.
	createRecurring(t, m, api.RecurringRequest{Name: "Salary", Type: api.EntryTypeIncome, Amount: 3_000_000, Day: 16, WalletID: &bank.ID})
	// Its day has passed this month: it starts in December.
	createRecurring(t, m, api.RecurringRequest{Name: "Gym", Type: api.EntryTypeExpense, Amount: 50000, Day: 10})
	createRecurring(t, m, api.RecurringRequest{Name: "Leap", Type: api.EntryTypeExpense, Amount: 1, Day: 29})

	runPostJob(t, env)
	wantLines(t, "on 16 November", entriesOf(t, m, "2026-11-01", "2026-11-30"), "2026-11-16 Salary 3000000 pending")
	if s := recurringNamed(t, m, "Salary"); lastPosted(s) != "2026-11-16" || s.NextDate.String() != "2026-12-16" {
		t.Errorf("salary after posting: lastPostedOn %s, nextDate %s", lastPosted(s), s.NextDate)
	}

	runDaily(t, env, day(2026, 11, 17), day(2027, 3, 1))
	wantLines(t, "16 November 2026 to 1 March 2027", entriesOf(t, m, "2026-11-01", "2027-03-31"),
		"2026-11-16 Salary 3000000 pending", "2026-12-16 Salary 3000000 pending",
		"2027-01-16 Salary 3000000 pending", "2027-02-16 Salary 3000000 pending",
		"2026-11-30 monthly rent 650000 pending", "2026-12-31 monthly rent 650000 pending",
		"2027-01-31 monthly rent 650000 pending", "2027-02-28 monthly rent 650000 pending",
		"2026-12-10 Gym 50000 pending", "2027-01-10 Gym 50000 pending", "2027-02-10 Gym 50000 pending",
		"2026-11-29 Leap 1 pending", "2026-12-29 Leap 1 pending", "2027-01-29 Leap 1 pending", "2027-02-28 Leap 1 pending",
	)
	if r := recurringNamed(t, m, "Rent"); lastPosted(r) != "2027-02-28" || r.NextDate.String() != "2027-03-31" {
		t.Errorf("rent on 1 March: lastPostedOn %s, nextDate %s", lastPosted(r), r.NextDate)
	}

	// Pending entries count nowhere: the wallet holds its opening balance.
	var w api.Wallet
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", bank.ID), nil).Want(http.StatusOK).JSON(&w)
	if w.Balance != 1_000_000 {
		t.Fatalf("balance with only pending entries: %d", w.Balance)
	}
	var count api.PendingCount
	m.Do(http.MethodGet, "/api/account/entries/pending/count", nil).Want(http.StatusOK).JSON(&count)
	if count.Count != 15 {
		t.Fatalf("pending count %d, want 15", count.Count)
	}

	// The member confirms February's rent: it counts from then on.
	var feb api.EntryPage
	m.Do(http.MethodGet, "/api/account/entries?from=2027-02-28&to=2027-02-28&q=rent", nil).Want(http.StatusOK).JSON(&feb)
	if len(feb.Items) != 1 {
		t.Fatalf("February's rent: %d entries", len(feb.Items))
	}
	got := feb.Items[0]
	if got.WalletID == nil || *got.WalletID != bank.ID || got.CategoryID == nil || *got.CategoryID != rentCat.ID || got.Type != "expense" {
		t.Fatalf("posted entry: %+v", got)
	}
	var confirmed api.Entry
	m.Do(http.MethodPost, fmt.Sprintf("/api/account/entries/%d/confirm", got.ID), nil).Want(http.StatusOK).JSON(&confirmed)
	if confirmed.Pending {
		t.Fatal("still pending after confirmation")
	}
	m.Do(http.MethodGet, fmt.Sprintf("/api/account/wallets/%d", bank.ID), nil).Want(http.StatusOK).JSON(&w)
	if w.Balance != 1_000_000-650000 {
		t.Fatalf("balance after confirming the rent: %d", w.Balance)
	}

	// A confirmed or deleted occurrence does not come back.
	m.Do(http.MethodDelete, fmt.Sprintf("/api/account/entries/%d", feb.Items[0].ID), nil).Want(http.StatusNoContent)
	env.Clock.Set(seoulAt(2027, 3, 1, 12))
	runPostJob(t, env)
	if n := len(entriesOf(t, m, "2027-02-28", "2027-02-28")); n != 1 { // Leap's 28 February
		t.Fatalf("28 February after deleting the rent: %d entries, want 1", n)
	}
}

// A service down for a week catches up when it starts again: every missed
// occurrence once, each with its own date. After a long outage it goes back
// CatchUpMonths months at most.
func TestRecurringCatchesUpMissedRuns(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	for _, d := range []int32{17, 19, 22, 30} {
		createRecurring(t, m, api.RecurringRequest{Name: fmt.Sprintf("day %d", d), Type: api.EntryTypeExpense, Amount: int64(d), Day: d})
	}
	runPostJob(t, env)
	wantLines(t, "on 16 November", entriesOf(t, m, "2026-11-01", "2026-11-30"))

	// Down from 16 to 24 November: the first run after it posts each missed
	// day, once.
	env.Clock.Set(seoulAt(2026, 11, 24, 9))
	runPostJob(t, env)
	env.Clock.Set(seoulAt(2026, 11, 24, 11))
	runPostJob(t, env)
	wantLines(t, "after a missed week", entriesOf(t, m, "2026-11-01", "2026-11-30"),
		"2026-11-17 day 17 17 pending", "2026-11-19 day 19 19 pending", "2026-11-22 day 22 22 pending")

	// Down from 24 November 2026 to 20 June 2027: April, May and the days of
	// June that have come post; December to March are passed over.
	env.Clock.Set(seoulAt(2027, 6, 20, 9))
	runPostJob(t, env)
	wantLines(t, "after seven months down", entriesOf(t, m, "2026-11-25", "2027-06-30"),
		"2027-04-17 day 17 17 pending", "2027-04-19 day 19 19 pending", "2027-04-22 day 22 22 pending", "2027-04-30 day 30 30 pending",
		"2027-05-17 day 17 17 pending", "2027-05-19 day 19 19 pending", "2027-05-22 day 22 22 pending", "2027-05-30 day 30 30 pending",
		"2027-06-17 day 17 17 pending", "2027-06-19 day 19 19 pending")
	if r := recurringNamed(t, m, "day 22"); lastPosted(r) != "2027-05-22" || r.NextDate.String() != "2027-06-22" {
		t.Errorf("day 22 on 20 June: lastPostedOn %s, nextDate %s", lastPosted(r), r.NextDate)
	}
	runDaily(t, env, day(2027, 6, 21), day(2027, 6, 30))
	if got := entriesOf(t, m, "2027-06-01", "2027-06-30"); len(got) != 4 {
		t.Errorf("June: %v", got)
	}
}

// Two replicas run the job at the same moment: one runs it, and each
// occurrence posts once. Without the job's lock (several runs of the posting
// itself at once) the posting key still lets each month post once.
func TestRecurringPostsOnceAcrossReplicas(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	replica := env.NewReplica()
	members := []*apitest.Member{env.NewMember(), env.NewMember()}
	for i, m := range members {
		createRecurring(t, m, api.RecurringRequest{Name: "Rent", Type: api.EntryTypeExpense, Amount: int64(100 + i), Day: 20})
		createRecurring(t, m, api.RecurringRequest{Name: "Phone", Type: api.EntryTypeExpense, Amount: int64(200 + i), Day: 31})
	}

	env.Clock.Set(seoulAt(2026, 11, 30, 1))
	runners := []*apitest.Env{env, replica}
	type outcome struct {
		ran bool
		err error
	}
	outs := apitest.TogetherV(len(runners), func(i int) outcome {
		ran, err := runners[i].App.Jobs.Run(context.Background(), ledger.RecurringPostJobName)
		return outcome{ran, err}
	})
	ran := 0
	for _, o := range outs {
		if o.err != nil {
			t.Fatal(o.err)
		}
		if o.ran {
			ran++
		}
	}
	if ran != 1 {
		t.Fatalf("%d replicas ran the job, want 1", ran)
	}
	for i, m := range members {
		wantLines(t, fmt.Sprintf("member %d in November", i), entriesOf(t, m, "2026-11-01", "2026-11-30"),
			fmt.Sprintf("2026-11-20 Rent %d pending", 100+i), fmt.Sprintf("2026-11-30 Phone %d pending", 200+i))
	}

	// Three months later, eight postings at once, bypassing the job's lock.
	now := seoulAt(2027, 2, 28, 1)
	results := apitest.TogetherV(8, func(int) outcome {
		res, err := ledger.PostRecurrings(context.Background(), env.Pool, now, apitest.Start.Location())
		if err == nil && res.Failed > 0 {
			err = fmt.Errorf("%d recurring entries failed to post", res.Failed)
		}
		return outcome{err: err}
	})
	for _, o := range results {
		if o.err != nil {
			t.Fatal(o.err)
		}
	}
	for i, m := range members {
		wantLines(t, fmt.Sprintf("member %d, December to February", i), entriesOf(t, m, "2026-12-01", "2027-02-28"),
			fmt.Sprintf("2026-12-20 Rent %d pending", 100+i), fmt.Sprintf("2026-12-31 Phone %d pending", 200+i),
			fmt.Sprintf("2027-01-20 Rent %d pending", 100+i), fmt.Sprintf("2027-01-31 Phone %d pending", 200+i),
			fmt.Sprintf("2027-02-20 Rent %d pending", 100+i), fmt.Sprintf("2027-02-28 Phone %d pending", 200+i))
	}
}

// A recurring entry deleted mid-month posts nothing more; the pending entry
// it posted stays.
func TestRecurringDeletedMidMonth(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	early := createRecurring(t, m, api.RecurringRequest{Name: "Early", Type: api.EntryTypeExpense, Amount: 10, Day: 16})
	late := createRecurring(t, m, api.RecurringRequest{Name: "Late", Type: api.EntryTypeExpense, Amount: 20, Day: 25})
	runPostJob(t, env)

	env.Clock.Set(seoulAt(2026, 11, 20, 12))
	for _, r := range []api.Recurring{early, late} {
		m.Do(http.MethodDelete, fmt.Sprintf("/api/account/recurrings/%d", r.ID), nil).Want(http.StatusNoContent)
	}
	runDaily(t, env, day(2026, 11, 21), day(2026, 12, 31))
	wantLines(t, "after the deletion", entriesOf(t, m, "2026-11-01", "2026-12-31"), "2026-11-16 Early 10 pending")
}

// Editing the day never posts a month twice nor skips one: a posted month is
// done, an unposted one posts on the day in force.
func TestRecurringDayEdits(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	env.Clock.Set(seoulAt(2026, 12, 1, 9))
	later := createRecurring(t, m, api.RecurringRequest{Name: "Later", Type: api.EntryTypeExpense, Amount: 1, Day: 5})
	earlier := createRecurring(t, m, api.RecurringRequest{Name: "Earlier", Type: api.EntryTypeExpense, Amount: 2, Day: 20})
	runDaily(t, env, day(2026, 12, 2), day(2026, 12, 10))
	wantLines(t, "by 10 December", entriesOf(t, m, "2026-12-01", "2026-12-31"), "2026-12-05 Later 1 pending")

	// On 10 December: Later moves to the 20th after December posted on the
	// 5th; Earlier moves to the 5th, already past, before December posted.
	env.Clock.Set(seoulAt(2026, 12, 10, 12))
	var got api.Recurring
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/recurrings/%d", later.ID),
		api.RecurringRequest{Name: "Later", Type: api.EntryTypeExpense, Amount: 1, Day: 20}).Want(http.StatusOK).JSON(&got)
	if got.NextDate.String() != "2027-01-20" || lastPosted(got) != "2026-12-05" || !got.AutoPost {
		t.Errorf("Later moved to the 20th: nextDate %s, lastPostedOn %s, autoPost %v", got.NextDate, lastPosted(got), got.AutoPost)
	}
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/recurrings/%d", earlier.ID),
		api.RecurringRequest{Name: "Earlier", Type: api.EntryTypeExpense, Amount: 2, Day: 5}).Want(http.StatusOK)
	runDaily(t, env, day(2026, 12, 11), day(2027, 1, 31))
	wantLines(t, "December and January", entriesOf(t, m, "2026-12-01", "2027-01-31"),
		"2026-12-05 Later 1 pending", "2026-12-05 Earlier 2 pending",
		"2027-01-20 Later 1 pending", "2027-01-05 Earlier 2 pending")
}

// autoPost off posts nothing; an update without the field keeps it; turned
// on again it posts from the next occurrence on or after that day, not the
// months it was off.
func TestRecurringAutoPostOff(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	off := createRecurring(t, m, api.RecurringRequest{Name: "Manual", Type: api.EntryTypeExpense, Amount: 7, Day: 16, AutoPost: lt.Ptr(false)})
	if off.AutoPost {
		t.Fatal("autoPost false came back true")
	}
	runDaily(t, env, day(2026, 11, 17), day(2026, 12, 20))
	var got api.Recurring
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/recurrings/%d", off.ID),
		api.RecurringRequest{Name: "Manual", Type: api.EntryTypeExpense, Amount: 8, Day: 16}).Want(http.StatusOK).JSON(&got)
	if got.AutoPost || got.LastPostedOn != nil {
		t.Fatalf("an update without autoPost: autoPost %v, lastPostedOn %s", got.AutoPost, lastPosted(got))
	}
	runDaily(t, env, day(2026, 12, 21), day(2027, 1, 10))
	wantLines(t, "while off", entriesOf(t, m, "2026-11-01", "2027-01-31"))

	// On 10 January it is turned on: December, while it was off, is not
	// posted; January posts on the 16th.
	env.Clock.Set(seoulAt(2027, 1, 10, 12))
	m.Do(http.MethodPut, fmt.Sprintf("/api/account/recurrings/%d", off.ID),
		api.RecurringRequest{Name: "Manual", Type: api.EntryTypeExpense, Amount: 8, Day: 16, AutoPost: lt.Ptr(true)}).Want(http.StatusOK).JSON(&got)
	if !got.AutoPost || got.NextDate.String() != "2027-01-16" {
		t.Fatalf("turned on: autoPost %v, nextDate %s", got.AutoPost, got.NextDate)
	}
	runDaily(t, env, day(2027, 1, 11), day(2027, 2, 16))
	wantLines(t, "after turning it on", entriesOf(t, m, "2026-11-01", "2027-02-28"),
		"2027-01-16 Manual 8 pending", "2027-02-16 Manual 8 pending")
}

// A run is bounded: one whose context ends first posts nothing it cannot
// finish, says it is unfinished, and the next run goes on.
func TestRecurringPostRunStopsAtItsDeadline(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	createRecurring(t, m, api.RecurringRequest{Name: "Rent", Type: api.EntryTypeExpense, Amount: 5, Day: 16})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := ledger.PostRecurrings(ctx, env.Pool, apitest.Start, apitest.Start.Location())
	if err != nil || !res.Unfinished || res.Entries != 0 {
		t.Fatalf("run with its context ended: %+v, %v", res, err)
	}
	wantLines(t, "after the cut-short run", entriesOf(t, m, "2026-11-01", "2026-11-30"))
	res, err = ledger.PostRecurrings(context.Background(), env.Pool, apitest.Start, apitest.Start.Location())
	if err != nil || res.Unfinished || res.Entries != 1 {
		t.Fatalf("next run: %+v, %v", res, err)
	}
	wantLines(t, "after the next run", entriesOf(t, m, "2026-11-01", "2026-11-30"), "2026-11-16 Rent 5 pending")
}
