package book

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// Header is the book selector every /api/account ledger operation takes.
const Header = "X-Book-Id"

// Access is what an operation allows in a book.
type Access struct {
	// Write: a VIEWER is refused (403).
	Write bool
	// OwnerOnly: anyone but an OWNER is refused (403): backup and restore.
	OwnerOnly bool
}

// Select makes p act in the book raw names (the X-Book-Id header's value):
// it answers the principal the request continues with, whose MemberID is
// the book's ledger owner, whose plan is PREMIUM when an OWNER of the book
// has PREMIUM, and whose month start day is the book's. A book the caller
// is not a current member of is 404, as another member's record; a VIEWER's
// write, and a backup or restore by anyone but an OWNER, is 403. One
// statement.
func (b *Books) Select(ctx context.Context, p *session.Principal, raw string, a Access) (*session.Principal, error) {
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id < 1 {
		return nil, problem.Invalid(Header, "must be the id of a household book (a positive integer)")
	}
	acc, err := db.New(b.pool).GetBookAccess(ctx, db.GetBookAccessParams{BookID: id, MemberID: p.MemberID})
	if err := database.NoRows(err, ErrNotFound, fmt.Sprintf("book %d", id)); err != nil {
		return nil, err
	}
	if err := a.allows(acc.Role); err != nil {
		return nil, err
	}
	in := *p
	in.MemberID = acc.LedgerMemberID
	in.Role = session.RoleUser
	in.Plan = session.PlanFree
	if acc.OwnerPremium {
		in.Plan = session.PlanPremium
	}
	in.PlanExpiresAt = nil
	in.MonthStartDay = int(acc.MonthStartDay)
	in.Book = &session.BookScope{
		ID: id, Role: acc.Role, ActorID: p.MemberID, ActorName: p.Name,
		Roster: b.roster(acc.LedgerMemberID),
		Hold:   hold(id, p.MemberID, a),
	}
	return &in, nil
}

// allows refuses what role may not do.
func (a Access) allows(role string) error {
	switch {
	case a.OwnerOnly && role != RoleOwner:
		return errOwnerOnly
	case a.Write && role == RoleViewer:
		return errViewer
	}
	return nil
}

// hold is a request's BookScope.Hold: Select checks the membership when the
// request enters the book; a write holds it to its commit (a share lock on
// the actor's book_member row, which a removal or role change updates) and
// checks it again there, so no write commits after its writer was removed
// or demoted: it waits for them and then answers as they left the row.
// Lock order (database.LockOrder): before the ledger lock, as membership
// changes lock book_member rows before a book's deletion takes that lock.
func hold(bookID, actor int64, a Access) func(ctx context.Context, q *db.Queries) error {
	return func(ctx context.Context, q *db.Queries) error {
		role, err := q.HoldBookMember(ctx, db.HoldBookMemberParams{BookID: bookID, MemberID: actor})
		if err := database.NoRows(err, ErrNotFound, fmt.Sprintf("hold member %d of book %d", actor, bookID)); err != nil {
			return err
		}
		return a.allows(role)
	}
}

// roster reads, once a request and only when asked, everyone who is or was
// in the book with ledger owner ledgerID.
func (b *Books) roster(ledgerID int64) func(ctx context.Context) (map[int64]session.RosterMember, error) {
	var (
		once sync.Once
		out  map[int64]session.RosterMember
		err  error
	)
	return func(ctx context.Context) (map[int64]session.RosterMember, error) {
		once.Do(func() {
			var rows []db.ListBookRosterByLedgerRow
			rows, err = db.New(b.pool).ListBookRosterByLedger(ctx, ledgerID)
			if err != nil {
				err = fmt.Errorf("roster of book ledger %d: %w", ledgerID, err)
				return
			}
			out = make(map[int64]session.RosterMember, len(rows))
			for _, r := range rows {
				m := session.RosterMember{ID: r.MemberID, Name: r.Name, Former: r.LeftBook}
				out[r.MemberID] = m
				if _, ok := out[0]; !ok && !r.LeftBook && r.Role == RoleOwner {
					out[0] = m
				}
			}
		})
		return out, err
	}
}
