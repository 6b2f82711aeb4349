package ledger

import (
	"context"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// formerName is what answers call a member who is no longer in the book
// (DECISIONS section 10, book details).
const formerName = "former member"

// Attribution says who a request's records name (createdBy, paidBy): in a
// personal ledger always its owner; in a household book (internal/book)
// the members recorded on each entry and transfer. A NULL column means the
// ledger's own: the owner, or in a book its longest-standing OWNER (records
// written by no member: the recurring job, an import, a restore).
type Attribution struct {
	p      *session.Principal
	roster map[int64]session.RosterMember
}

// AttributionOf reads the attribution of the request in ctx: nothing to
// read in a personal ledger, the book's roster (once a request) in a book.
func AttributionOf(ctx context.Context) (Attribution, error) {
	p := session.PrincipalFrom(ctx)
	a := Attribution{p: p}
	if p == nil || p.Book == nil || p.Book.Roster == nil {
		return a, nil
	}
	roster, err := p.Book.Roster(ctx)
	if err != nil {
		return a, err
	}
	a.roster = roster
	return a, nil
}

// inBook reports whether the request acts in a household book.
func (a Attribution) inBook() bool { return a.p != nil && a.p.Book != nil }

// Default is the member a NULL attribution stands for (0 when none).
func (a Attribution) Default() int64 {
	switch {
	case a.p == nil:
		return 0
	case a.inBook():
		return a.roster[0].ID
	}
	return a.p.MemberID
}

// Ref answers who id names (nil: Default).
func (a Attribution) Ref(id *int64) api.MemberRef {
	who := a.Default()
	if id != nil {
		who = *id
	}
	if !a.inBook() {
		if a.p != nil && who == a.p.MemberID {
			return api.MemberRef{MemberID: who, Name: a.p.Name}
		}
		return api.MemberRef{MemberID: who, Name: formerName, Former: true}
	}
	m, ok := a.roster[who]
	if !ok || m.Former {
		return api.MemberRef{MemberID: who, Name: formerName, Former: true}
	}
	return api.MemberRef{MemberID: who, Name: m.Name}
}

// Write answers the attribution columns of a record the request writes:
// NULL in a personal ledger (its owner), the acting member and the payer
// in a book. paidBy must name a current member of the book (in a personal
// ledger, its owner): another id is 400 naming field.
func (a Attribution) Write(field string, paidBy *int64) (createdBy, paid *int64, err error) {
	if err := a.CheckPaidBy(field, paidBy); err != nil {
		return nil, nil, err
	}
	if !a.inBook() {
		return nil, nil, nil
	}
	actor := a.p.Book.ActorID
	if paidBy == nil {
		paidBy = &actor
	}
	return &actor, paidBy, nil
}

// CheckPaidBy refuses a payer who is not a current member of the book.
func (a Attribution) CheckPaidBy(field string, paidBy *int64) error {
	if paidBy == nil {
		return nil
	}
	if !a.inBook() {
		if a.p == nil || *paidBy != a.p.MemberID {
			return problem.Invalid(field, "must be your own member id in your personal ledger")
		}
		return nil
	}
	if m, ok := a.roster[*paidBy]; !ok || m.Former {
		return problem.Invalid(field, "must be the id of a current member of the book")
	}
	return nil
}

// PaidByUpdate is the paid_by an update writes: nil (unchanged) when the
// request names no payer or in a personal ledger, where it is the owner.
func (a Attribution) PaidByUpdate(paidBy *int64) *int64 {
	if !a.inBook() {
		return nil
	}
	return paidBy
}

// Entry maps an entry to the wire with its attribution.
func (a Attribution) Entry(e Entry) api.Entry {
	out := ToAPIEntry(e)
	out.CreatedBy = a.Ref(e.CreatedBy)
	out.PaidBy = a.Ref(e.PaidBy)
	return out
}

// AttributedEntry is Entry for one answer of another area (a card
// notification's entry).
func AttributedEntry(ctx context.Context, e Entry) (api.Entry, error) {
	a, err := AttributionOf(ctx)
	if err != nil {
		return api.Entry{}, err
	}
	return a.Entry(e), nil
}
