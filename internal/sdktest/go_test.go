package sdktest_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"
	"testing"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/nestegg/nestegg/generated/apiclient"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
)

func bearer(token string) apiclient.RequestEditorFn {
	return func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+token)
		return nil
	}
}

func ptr[T any](v T) *T { return &v }

// TestGoMemberScenario drives the TypeScript scenario's steps (ts/scenario.ts)
// through the Go SDK generated from the contract (generated/apiclient), over
// the contract-checking transport of internal/apitest.
func TestGoMemberScenario(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, apitest.WithConfig(func(cfg *config.Config) { cfg.StoreTestMode = true }))
	api, err := apiclient.NewClientWithResponses(env.Server.URL, apiclient.WithHTTPClient(env.HTTPClient()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	today := openapi_types.Date{Time: apitest.Start}
	year, month := int32(apitest.Start.Year()), int32(apitest.Start.Month())

	signUp := func(email, name string) string {
		t.Helper()
		r, err := api.SignUpWithResponse(ctx, apiclient.SignUpJSONRequestBody{Email: openapi_types.Email(email), Password: "correct horse battery", Name: name})
		if err != nil || r.JSON201 == nil || r.JSON201.User.Name != name {
			t.Fatalf("sign up: %v %d %s", err, r.StatusCode(), r.Body)
		}
		return r.JSON201.Token
	}
	token := signUp("go-member@nestegg.test", "Go Member")
	me := bearer(token)

	cats, err := api.ImportDefaultCategoriesWithResponse(ctx, nil, me)
	if err != nil || cats.JSON200 == nil {
		t.Fatalf("import default categories: %v %s", err, cats.Body)
	}
	var expenseCat, incomeCat int64
	for _, c := range cats.JSON200.Items {
		switch {
		case c.Type == apiclient.EntryTypeValueExpense && expenseCat == 0:
			expenseCat = c.ID
		case c.Type == apiclient.EntryTypeValueIncome && incomeCat == 0:
			incomeCat = c.ID
		}
	}
	if expenseCat == 0 || incomeCat == 0 {
		t.Fatalf("default tree without income and expense categories: %s", cats.Body)
	}

	cash, err := api.CreateWalletWithResponse(ctx, &apiclient.CreateWalletParams{}, apiclient.CreateWalletJSONRequestBody{Name: "Cash", Type: apiclient.WalletTypeCash, OpeningBalance: ptr[int64](100000)}, me)
	if err != nil || cash.JSON201 == nil || cash.JSON201.Balance != 100000 {
		t.Fatalf("cash wallet: %v %s", err, cash.Body)
	}
	card, err := api.CreateWalletWithResponse(ctx, &apiclient.CreateWalletParams{}, apiclient.CreateWalletJSONRequestBody{Name: "Card", Type: apiclient.WalletTypeCard}, me)
	if err != nil || card.JSON201 == nil {
		t.Fatalf("card wallet: %v %s", err, card.Body)
	}
	cashID, cardID := cash.JSON201.ID, card.JSON201.ID

	salary, err := api.CreateEntryWithResponse(ctx, &apiclient.CreateEntryParams{}, apiclient.CreateEntryJSONRequestBody{
		Date: today, Type: apiclient.EntryTypeIncome, Amount: ptr[int64](3000000), WalletID: &cashID, CategoryID: &incomeCat, Memo: ptr("salary"),
	}, me)
	if err != nil || salary.JSON201 == nil || salary.JSON201.Type != "income" {
		t.Fatalf("income entry: %v %s", err, salary.Body)
	}
	lunch, err := api.CreateEntryWithResponse(ctx, &apiclient.CreateEntryParams{}, apiclient.CreateEntryJSONRequestBody{
		Date: today, Type: apiclient.EntryTypeExpense, Amount: ptr[int64](12000), WalletID: &cardID, CategoryID: &expenseCat, Memo: ptr("lunch"),
	}, me)
	if err != nil || lunch.JSON201 == nil || lunch.JSON201.Type != "expense" {
		t.Fatalf("expense entry: %v %s", err, lunch.Body)
	}

	list, err := api.ListEntriesWithResponse(ctx, &apiclient.ListEntriesParams{Year: &year, Month: &month}, me)
	if err != nil || list.JSON200 == nil || list.JSON200.Total != 2 || len(list.JSON200.Items) != 2 ||
		list.JSON200.Summary.Income != 3000000 || list.JSON200.Summary.Expense != 12000 {
		t.Fatalf("this month's list: %v %s", err, list.Body)
	}

	budgetReq := apiclient.CreateBudgetJSONRequestBody{CategoryID: expenseCat, Year: year, Month: month, Amount: 300000}
	gated, err := api.CreateBudgetWithResponse(ctx, &apiclient.CreateBudgetParams{}, budgetReq, me)
	if err != nil || gated.ApplicationProblemJSON403 == nil {
		t.Fatalf("budget as FREE: %v %d %s", err, gated.StatusCode(), gated.Body)
	}
	bought, err := api.VerifyStorePurchaseWithResponse(ctx, &apiclient.VerifyStorePurchaseParams{}, apiclient.VerifyStorePurchaseJSONRequestBody{ProductID: "premium_monthly", PurchaseToken: "test-go-1"}, me)
	if err != nil || bought.JSON200 == nil || bought.JSON200.Plan != apiclient.PlanValuePremium {
		t.Fatalf("test-mode purchase: %v %s", err, bought.Body)
	}
	budget, err := api.CreateBudgetWithResponse(ctx, &apiclient.CreateBudgetParams{}, budgetReq, me)
	if err != nil || budget.JSON201 == nil {
		t.Fatalf("budget: %v %s", err, budget.Body)
	}
	status, err := api.GetBudgetStatusWithResponse(ctx, &apiclient.GetBudgetStatusParams{Year: year, Month: month}, me)
	if err != nil || status.JSON200 == nil || status.JSON200.Budget != 300000 || status.JSON200.Spent != 12000 || status.JSON200.Remaining != 288000 {
		t.Fatalf("budget status: %v %s", err, status.Body)
	}
	stats, err := api.GetMonthlyStatsWithResponse(ctx, &apiclient.GetMonthlyStatsParams{Year: year, Month: month}, me)
	if err != nil || stats.JSON200 == nil || stats.JSON200.Income != 3000000 || stats.JSON200.Expense != 12000 || stats.JSON200.Net != 2988000 {
		t.Fatalf("monthly statistics: %v %s", err, stats.Body)
	}

	transfer, err := api.CreateTransferWithResponse(ctx, &apiclient.CreateTransferParams{}, apiclient.CreateTransferJSONRequestBody{
		Date: today, Amount: 12000, FromWalletID: cashID, ToWalletID: cardID, Memo: ptr("pay the card"),
	}, me)
	if err != nil || transfer.JSON201 == nil {
		t.Fatalf("transfer: %v %s", err, transfer.Body)
	}
	wallets, err := api.ListWalletsWithResponse(ctx, nil, me)
	if err != nil || wallets.JSON200 == nil {
		t.Fatalf("wallets: %v %s", err, wallets.Body)
	}
	balances := map[int64]int64{}
	for _, w := range wallets.JSON200.Items {
		balances[w.ID] = w.Balance
	}
	if balances[cashID] != 100000+3000000-12000 || balances[cardID] != 0 {
		t.Fatalf("balances after the transfer: %s", wallets.Body)
	}

	worth, err := api.GetNetWorthTrendWithResponse(ctx, nil, me)
	if err != nil || worth.JSON200 == nil || len(worth.JSON200.Points) == 0 {
		t.Fatalf("net worth: %v %s", err, worth.Body)
	}
	if last := worth.JSON200.Points[len(worth.JSON200.Points)-1]; last.Assets-last.Liabilities != 100000+3000000-12000 {
		t.Fatalf("net worth today: %s", worth.Body)
	}

	// ETags: a GET's ETag, If-None-Match answers 304 for the copy held, an
	// edit with If-Match of the version held works once, then that version is
	// stale and the edit answers 412 with the current ETag.
	read, err := api.GetEntryWithResponse(ctx, salary.JSON201.ID, &apiclient.GetEntryParams{}, me)
	if err != nil || read.JSON200 == nil || read.Headers200 == nil || read.Headers200.ETag == nil || *read.Headers200.ETag == "" {
		t.Fatalf("get the salary with its ETag: %v %d %s", err, read.StatusCode(), read.Body)
	}
	etag := *read.Headers200.ETag
	same, err := api.GetEntryWithResponse(ctx, salary.JSON201.ID, &apiclient.GetEntryParams{IfNoneMatch: &etag}, me)
	if err != nil || same.StatusCode() != http.StatusNotModified || len(same.Body) != 0 {
		t.Fatalf("If-None-Match of the ETag held: %v %d %s", err, same.StatusCode(), same.Body)
	}
	edit := apiclient.UpdateEntryJSONRequestBody{
		Date: today, Type: apiclient.EntryTypeIncome, Amount: ptr[int64](3000000), WalletID: &cashID, CategoryID: &incomeCat, Memo: ptr("salary (November)"),
	}
	edited, err := api.UpdateEntryWithResponse(ctx, salary.JSON201.ID, &apiclient.UpdateEntryParams{IfMatch: &etag}, edit, me)
	if err != nil || edited.JSON200 == nil || edited.Headers200 == nil || edited.Headers200.ETag == nil || *edited.Headers200.ETag == etag {
		t.Fatalf("edit with If-Match of the version held: %v %d %s", err, edited.StatusCode(), edited.Body)
	}
	edit.Memo = ptr("salary (stale)")
	stale, err := api.UpdateEntryWithResponse(ctx, salary.JSON201.ID, &apiclient.UpdateEntryParams{IfMatch: &etag}, edit, me)
	if err != nil || stale.ApplicationProblemJSON412 == nil || stale.ApplicationProblemJSON412.Code != "PRECONDITION_FAILED" ||
		stale.HTTPResponse.Header.Get("ETag") != *edited.Headers200.ETag {
		t.Fatalf("edit with a stale If-Match: %v %d %s", err, stale.StatusCode(), stale.Body)
	}
	changed, err := api.GetEntryWithResponse(ctx, salary.JSON201.ID, &apiclient.GetEntryParams{IfNoneMatch: &etag}, me)
	if err != nil || changed.JSON200 == nil || changed.JSON200.Memo != "salary (November)" {
		t.Fatalf("If-None-Match of an old ETag reads the record: %v %d %s", err, changed.StatusCode(), changed.Body)
	}

	// Idempotency-Key: a retry with the same key and body answers the first
	// answer again, marked Idempotent-Replayed, and creates nothing.
	coffee := apiclient.CreateEntryJSONRequestBody{
		Date: today, Type: apiclient.EntryTypeExpense, Amount: ptr[int64](4500), WalletID: &cashID, CategoryID: &expenseCat, Memo: ptr("coffee"),
	}
	key := "go-coffee-0b5c8c0e-6f5e-4a57"
	first, err := api.CreateEntryWithResponse(ctx, &apiclient.CreateEntryParams{IdempotencyKey: &key}, coffee, me)
	if err != nil || first.JSON201 == nil || (first.Headers201 != nil && first.Headers201.IdempotentReplayed != nil) {
		t.Fatalf("a keyed create: %v %d %s", err, first.StatusCode(), first.Body)
	}
	retry, err := api.CreateEntryWithResponse(ctx, &apiclient.CreateEntryParams{IdempotencyKey: &key}, coffee, me)
	if err != nil || retry.JSON201 == nil || retry.JSON201.ID != first.JSON201.ID || retry.Headers201 == nil ||
		retry.Headers201.IdempotentReplayed == nil || *retry.Headers201.IdempotentReplayed != "true" {
		t.Fatalf("the retry of a keyed create: %v %d %s", err, retry.StatusCode(), retry.Body)
	}
	if retry.Headers201.ETag == nil || first.Headers201 == nil || first.Headers201.ETag == nil || *retry.Headers201.ETag != *first.Headers201.ETag {
		t.Fatalf("the replay carries the first ETag: %+v %+v", first.Headers201, retry.Headers201)
	}
	coffees, err := api.ListEntriesWithResponse(ctx, &apiclient.ListEntriesParams{Year: &year, Month: &month, Q: ptr("coffee")}, me)
	if err != nil || coffees.JSON200 == nil || coffees.JSON200.Total != 1 {
		t.Fatalf("one coffee after the retry: %v %s", err, coffees.Body)
	}

	// A burst of one keyed create, as a client retrying on a flaky network:
	// one original; every other answer is its replay or, while the first
	// still runs, 409 IDEMPOTENCY_KEY_IN_FLIGHT with Retry-After, decoded as
	// the contract's Problem; one entry is made.
	tea := coffee
	tea.Memo = ptr("tea")
	burstKey := "go-tea-9f0e0d5d0a3e"
	burst := make([]*apiclient.CreateEntryResponse, 20)
	var wg sync.WaitGroup
	for i := range burst {
		wg.Go(func() {
			res, err := api.CreateEntryWithResponse(ctx, &apiclient.CreateEntryParams{IdempotencyKey: &burstKey}, tea, me)
			if err != nil {
				t.Errorf("burst create %d: %v", i, err)
				return
			}
			burst[i] = res
		})
	}
	wg.Wait()
	originals, replays, inFlight := 0, 0, 0
	for _, res := range burst {
		switch {
		case res == nil:
		case res.JSON201 != nil && (res.Headers201 == nil || res.Headers201.IdempotentReplayed == nil):
			originals++
		case res.JSON201 != nil:
			replays++
		case res.ApplicationProblemJSON409 != nil && res.ApplicationProblemJSON409.Code == apiclient.ProblemCodeIdempotencyKeyInFlight &&
			res.HTTPResponse.Header.Get("Retry-After") != "":
			inFlight++
		default:
			t.Errorf("a burst create answered %d %s", res.StatusCode(), res.Body)
		}
	}
	if originals != 1 {
		t.Fatalf("a burst of one keyed create: %d originals, %d replays, %d in flight", originals, replays, inFlight)
	}
	t.Logf("a burst of one keyed create: 1 original, %d replays, %d in flight", replays, inFlight)
	teas, err := api.ListEntriesWithResponse(ctx, &apiclient.ListEntriesParams{Year: &year, Month: &month, Q: ptr("tea")}, me)
	if err != nil || teas.JSON200 == nil || teas.JSON200.Total != 1 {
		t.Fatalf("one tea after the burst: %v %s", err, teas.Body)
	}

	// The changes feed, as an offline client syncs it: page with next until
	// hasMore is false, switch on the kind, and each record arrives as its own
	// type; a DELETE has no record.
	sync := func(since *string) (map[string]apiclient.ChangeOp, *apiclient.Wallet, *apiclient.Entry, string) {
		t.Helper()
		ops := map[string]apiclient.ChangeOp{}
		var wallet *apiclient.Wallet
		var entry *apiclient.Entry
		for pages := 1; ; pages++ {
			feed, err := api.ListChangesWithResponse(ctx, &apiclient.ListChangesParams{Since: since, Limit: ptr[int32](3)}, me)
			if err != nil || feed.JSON200 == nil {
				t.Fatalf("changes: %v %s", err, feed.Body)
			}
			if pages > 100 {
				t.Fatalf("the feed does not end: %s", feed.Body)
			}
			if len(feed.JSON200.Changes) > 3 {
				t.Fatalf("a page of more than its limit: %s", feed.Body)
			}
			for _, c := range feed.JSON200.Changes {
				v, err := c.ValueByDiscriminator()
				if err != nil {
					continue // a kind this client does not know yet: skip it
				}
				switch ch := v.(type) {
				case apiclient.WalletChange:
					ops["wallet "+ch.ID] = ch.Op
					if ch.Record != nil && ch.Record.ID == cashID {
						wallet = ch.Record
					}
				case apiclient.EntryChange:
					ops["entry "+ch.ID] = ch.Op
					if (ch.Op == apiclient.ChangeOpDelete) != (ch.Record == nil) {
						t.Fatalf("entry change %s: op %s with record %+v", ch.ID, ch.Op, ch.Record)
					}
					if ch.Record != nil && ch.Record.ID == salary.JSON201.ID {
						entry = ch.Record
					}
				case apiclient.TransferChange:
					ops["transfer "+ch.ID] = ch.Op
				}
			}
			next := feed.JSON200.Next
			since = &next
			if !feed.JSON200.HasMore {
				return ops, wallet, entry, next
			}
		}
	}
	ops, wallet, entry, next := sync(nil)
	if wallet == nil || wallet.Type != apiclient.WalletTypeValueCash || wallet.Balance != 100000+3000000-12000-4500-4500 { // salary, groceries, coffee, tea
		t.Fatalf("the cash wallet in the feed: %+v", wallet)
	}
	if entry == nil || entry.Type != apiclient.EntryTypeValueIncome || entry.Amount != 3000000 || entry.Memo != "salary (November)" {
		t.Fatalf("the salary in the feed: %+v", entry)
	}
	if ops[fmt.Sprint("transfer ", transfer.JSON201.ID)] != apiclient.ChangeOpUpsert || ops[fmt.Sprint("entry ", first.JSON201.ID)] != apiclient.ChangeOpUpsert {
		t.Fatalf("the transfer or the coffee is not in the feed: %v", ops)
	}
	gone, err := api.DeleteEntryWithResponse(ctx, lunch.JSON201.ID, &apiclient.DeleteEntryParams{}, me)
	if err != nil || gone.StatusCode() != http.StatusNoContent {
		t.Fatalf("delete the lunch: %v %s", err, gone.Body)
	}
	if ops, _, _, _ = sync(&next); ops[fmt.Sprint("entry ", lunch.JSON201.ID)] != apiclient.ChangeOpDelete {
		t.Fatalf("no tombstone of the lunch: %v", ops)
	}

	// Backup and restore (PREMIUM, bought above): the document a backup
	// answers restores the same ledger.
	backup, err := api.GetBackupWithResponse(ctx, nil, me)
	if err != nil || backup.JSON200 == nil || len(backup.JSON200.Wallets) != 2 || len(backup.JSON200.Transfers) != 1 {
		t.Fatalf("backup: %v %d %s", err, backup.StatusCode(), backup.Body)
	}
	restored, err := api.RestoreBackupWithResponse(ctx, nil, *backup.JSON200, me)
	if err != nil || restored.JSON200 == nil || restored.JSON200.Wallets != 2 || restored.JSON200.Transfers != 1 ||
		int(restored.JSON200.Entries) < len(backup.JSON200.Entries) || int(restored.JSON200.Categories) == 0 {
		t.Fatalf("restore: %v %d %s", err, restored.StatusCode(), restored.Body)
	}
	after, err := api.ListWalletsWithResponse(ctx, nil, me)
	if err != nil || after.JSON200 == nil {
		t.Fatalf("wallets after the restore: %v %s", err, after.Body)
	}
	byName := map[string]int64{}
	for _, w := range after.JSON200.Items {
		byName[w.Name] = w.Balance
	}
	if len(byName) != 2 || byName["Cash"] != 100000+3000000-12000-4500-4500 || byName["Card"] != 12000 {
		t.Fatalf("balances after the restore: %s", after.Body)
	}

	// An image for a post: multipart, the field "file", a PNG.
	var pngBytes, form bytes.Buffer
	pixel := image.NewRGBA(image.Rect(0, 0, 1, 1))
	pixel.Set(0, 0, color.RGBA{R: 0x2e, G: 0x8b, B: 0x57, A: 0xff})
	if err := png.Encode(&pngBytes, pixel); err != nil {
		t.Fatal(err)
	}
	mw := multipart.NewWriter(&form)
	part, err := mw.CreateFormFile("file", "pixel.png")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := part.Write(pngBytes.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	img, err := api.UploadBoardImageWithBodyWithResponse(ctx, &apiclient.UploadBoardImageParams{}, mw.FormDataContentType(), &form, me)
	if err != nil || img.JSON201 == nil || !strings.HasPrefix(img.JSON201.URL, "http") {
		t.Fatalf("image upload: %v %d %s", err, img.StatusCode(), img.Body)
	}

	post, err := api.CreatePostWithResponse(ctx, &apiclient.CreatePostParams{}, apiclient.CreatePostJSONRequestBody{
		Category: apiclient.BoardCategoryCommunity, Title: "Hello from the Go app", Body: "First budget done.",
	}, me)
	if err != nil || post.JSON201 == nil || post.JSON201.MyVote != nil || post.JSON201.UpCount != 0 {
		t.Fatalf("post: %v %s", err, post.Body)
	}
	friend := bearer(signUp("go-friend@nestegg.test", "Go Friend"))
	vote, err := api.VotePostWithResponse(ctx, post.JSON201.ID, apiclient.VotePostJSONRequestBody{Direction: apiclient.VoteDirectionUp}, friend)
	if err != nil || vote.JSON200 == nil || vote.JSON200.Up != 1 || vote.JSON200.MyVote == nil || *vote.JSON200.MyVote != "UP" {
		t.Fatalf("vote: %v %s", err, vote.Body)
	}
	points, err := api.GetPointsWithResponse(ctx, me)
	if err != nil || points.JSON200 == nil || points.JSON200.Points != 15 {
		t.Fatalf("points (10 for the post, 5 for its up-vote): %v %s", err, points.Body)
	}

	out, err := api.LogOutWithResponse(ctx, me)
	if err != nil || out.StatusCode() != http.StatusNoContent {
		t.Fatalf("logout: %v %s", err, out.Body)
	}
	dead, err := api.GetSessionWithResponse(ctx, me)
	if err != nil || dead.ApplicationProblemJSON401 == nil || dead.ApplicationProblemJSON401.Code != "UNAUTHENTICATED" {
		t.Fatalf("dead token: %v %d %s", err, dead.StatusCode(), dead.Body)
	}
}
