package book_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	lt "github.com/nestegg/nestegg/internal/apitest/ledgertest"
	"github.com/nestegg/nestegg/internal/book"
)

// TestSettleProperties: for random books (payers, sharers, weights,
// former payers), shares sum to the total, balances sum to 0, the payments
// settle every balance to 0, at most one payment fewer than the members
// with a balance, each from a debtor to a creditor, and the remainder goes
// by weight then member id (a share is the exact share rounded down, or one won more).
func TestSettleProperties(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(44, 10))
	for round := 0; round < 2000; round++ {
		n := 1 + r.IntN(6)
		var sharers []book.Sharer
		paid := map[int64]int64{}
		for i := 0; i < n; i++ {
			id := int64(10 + r.IntN(40))
			dup := false
			for _, s := range sharers {
				dup = dup || s.ID == id
			}
			if dup {
				continue
			}
			sharers = append(sharers, book.Sharer{ID: id, Weight: int64(1 + r.IntN(4))})
			if r.IntN(3) > 0 {
				paid[id] = r.Int64N(1_000_000)
			}
		}
		if r.IntN(4) == 0 {
			paid[99] = r.Int64N(50_000) // a former member who paid
		}
		balances, payments, total, err := book.Settle(paid, sharers)
		if err != nil {
			t.Fatal(err)
		}
		var sumPaid, sumShare, sumBalance int64
		left := map[int64]int64{}
		withBalance := 0
		for _, b := range balances {
			sumPaid += b.Paid
			sumShare += b.Share
			sumBalance += b.Amount
			if b.Amount != b.Paid-b.Share {
				t.Fatalf("round %d: balance %+v", round, b)
			}
			if b.Amount != 0 {
				withBalance++
			}
			left[b.ID] = b.Amount
		}
		if sumPaid != total || sumShare != total || sumBalance != 0 {
			t.Fatalf("round %d: paid %d, shares %d, balances %d, total %d", round, sumPaid, sumShare, sumBalance, total)
		}
		if withBalance > 0 && len(payments) > withBalance-1 {
			t.Fatalf("round %d: %d payments for %d balances", round, len(payments), withBalance)
		}
		for _, p := range payments {
			if p.Amount <= 0 || left[p.From] >= 0 || left[p.To] <= 0 {
				t.Fatalf("round %d: payment %+v against balances %v", round, p, left)
			}
			left[p.From] += p.Amount
			left[p.To] -= p.Amount
		}
		for id, v := range left {
			if v != 0 {
				t.Fatalf("round %d: member %d left with %d", round, id, v)
			}
		}
		var weights int64
		for _, s := range sharers {
			weights += s.Weight
		}
		for _, b := range balances {
			var w int64
			for _, s := range sharers {
				if s.ID == b.ID {
					w = s.Weight
				}
			}
			exact := float64(total) * float64(w) / float64(weights)
			if d := float64(b.Share) - exact; d <= -1 || d > 1.000001 {
				t.Fatalf("round %d: member %d share %d, exact %.2f", round, b.ID, b.Share, exact)
			}
		}
	}
}

func TestSettleRemainderAndOrder(t *testing.T) {
	t.Parallel()
	// 100 won over weights 1, 2, 2: 20, 40, 40; 101 won: the extra won to
	// the larger weights, lower id first.
	balances, _, _, err := book.Settle(map[int64]int64{1: 101}, []book.Sharer{{ID: 1, Weight: 1}, {ID: 3, Weight: 2}, {ID: 2, Weight: 2}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]int64{1: 20, 2: 41, 3: 40}
	for _, b := range balances {
		if b.Share != want[b.ID] {
			t.Fatalf("shares %+v, want %v", balances, want)
		}
	}
	// Largest debtor pays largest creditor; ties by lower id.
	_, pays, _, err := book.Settle(map[int64]int64{1: 90, 2: 90}, []book.Sharer{{ID: 1, Weight: 1}, {ID: 2, Weight: 1}, {ID: 3, Weight: 1}, {ID: 4, Weight: 1}, {ID: 5, Weight: 1}, {ID: 6, Weight: 1}})
	if err != nil {
		t.Fatal(err)
	}
	wantPays := []book.Payment{{From: 3, To: 1, Amount: 30}, {From: 4, To: 2, Amount: 30}, {From: 5, To: 1, Amount: 30}, {From: 6, To: 2, Amount: 30}}
	if fmt.Sprint(pays) != fmt.Sprint(wantPays) {
		t.Fatalf("payments %v, want %v", pays, wantPays)
	}
}

func TestSettlementOfABook(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	h := newHousehold(t, env)
	id := h.book.ID
	day := lt.Date(2026, 11, 10)
	lt.Entry(in(h.owner, id), api.EntryRequest{Date: day, Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](90000)})
	lt.Entry(in(h.editor, id), api.EntryRequest{Date: day, Type: api.EntryTypeExpense, Amount: lt.Ptr[int64](30000)})
	lt.Entry(in(h.editor, id), api.EntryRequest{Date: day, Type: api.EntryTypeIncome, Amount: lt.Ptr[int64](5000)})
	// A transfer counts for nobody.
	in(h.editor, id).Do(http.MethodPost, "/api/account/transfers", api.TransferRequest{
		Date: day, Amount: 777, FromWalletID: lt.Wallet(in(h.editor, id), "A", api.WalletTypeBank, 0).ID,
		ToWalletID: lt.Wallet(in(h.editor, id), "B", api.WalletTypeCash, 0).ID,
	}).Want(http.StatusCreated)

	path := fmt.Sprintf("/api/books/%d/settlement?year=2026&month=11", id)
	var s api.Settlement
	h.viewer.Do(http.MethodGet, path, nil).Want(http.StatusOK).JSON(&s)
	if s.Total != 120000 || s.Settled || len(s.Members) != 2 || len(s.Payments) != 1 {
		t.Fatalf("settlement %+v", s)
	}
	if p := s.Payments[0]; p.FromMemberID != h.editor.ID || p.ToMemberID != h.owner.ID || p.Amount != 30000 {
		t.Fatalf("payment %+v", p)
	}
	h.editor.Do(http.MethodPut, path, nil).WantProblem(http.StatusForbidden, "FORBIDDEN")
	env.NewMember().Do(http.MethodGet, path, nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	h.owner.Do(http.MethodPut, path, nil).Want(http.StatusOK).JSON(&s)
	if !s.Settled || s.SettledBy == nil || *s.SettledBy != h.owner.ID || s.SettledAt == nil {
		t.Fatalf("settled %+v", s)
	}
	h.owner.Do(http.MethodDelete, path, nil).Want(http.StatusOK).JSON(&s)
	if s.Settled || s.SettledBy != nil {
		t.Fatalf("unsettled %+v", s)
	}
	// Weights: the editor takes 2 of 3.
	h.owner.Do(http.MethodPut, fmt.Sprintf("/api/books/%d/members/%d", id, h.editor.ID), api.BookMemberRequest{Role: api.BookRoleEDITOR, Weight: 2}).Want(http.StatusOK)
	h.owner.Do(http.MethodGet, path, nil).Want(http.StatusOK).JSON(&s)
	for _, m := range s.Members {
		if (m.MemberID == h.editor.ID && m.Share != 80000) || (m.MemberID == h.owner.ID && m.Share != 40000) {
			t.Fatalf("weighted shares %+v", s.Members)
		}
	}
	// The editor leaves: they paid, so they stay with share 0, as a former member.
	h.editor.Do(http.MethodDelete, fmt.Sprintf("/api/books/%d/members/%d", id, h.editor.ID), nil).Want(http.StatusNoContent)
	h.owner.Do(http.MethodGet, path, nil).Want(http.StatusOK).JSON(&s)
	for _, m := range s.Members {
		if m.MemberID == h.editor.ID && (!m.Former || m.Share != 0 || m.Paid != 30000 || m.Name != book.FormerName) {
			t.Fatalf("former member %+v", m)
		}
	}
}
