// Package book is household books (issue 44, DECISIONS section 10): ledgers
// several members keep, their members and roles, invitations, the book
// selector (X-Book-Id) and the monthly settlement. README.md tells the
// design.
//
// A book's records are the ledger of its ledger owner, a member row of kind
// BOOK: the selector makes a request act for that row, so the ledger, the
// transfers, budgets, statistics, the feed, backup and CSV work on a book
// unchanged.
package book

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/member"
	"github.com/nestegg/nestegg/internal/problem"
)

// Roles in a book.
const (
	RoleOwner  = "OWNER"
	RoleEditor = "EDITOR"
	RoleViewer = "VIEWER"
)

// InvitationTTL is how long an invitation code can be accepted.
const InvitationTTL = 7 * 24 * time.Hour

// FormerName is what the book's records call a member who is no longer in it.
const FormerName = "former member"

// ErrNotFound answers a book the caller is not a current member of, exactly
// as a missing one.
var ErrNotFound = problem.NotFound("book")

var (
	errNotMember     = problem.NotFound("book member")
	errInvitation    = problem.NotFound("invitation")
	errOwnerOnly     = problem.New(http.StatusForbidden, problem.CodeForbidden, "only an OWNER of the book may do this")
	errViewer        = problem.New(http.StatusForbidden, problem.CodeForbidden, "a VIEWER of the book reads only")
	errLastOwner     = problem.Conflict(problem.CodeConflict, "a book keeps at least one OWNER: make another member OWNER first")
	errAlreadyMember = problem.Conflict(problem.CodeConflict, "you are a member of this book already")
)

// Books keeps the household books.
type Books struct {
	pool        *pgxpool.Pool
	clock       clock.Clock
	memberLimit int // BOOK_MEMBER_LIMIT
	perMember   int // BOOKS_PER_MEMBER
}

// New returns the books area.
func New(pool *pgxpool.Pool, c clock.Clock, memberLimit, perMember int) *Books {
	return &Books{pool: pool, clock: c, memberLimit: memberLimit, perMember: perMember}
}

// Member is a current member of a book.
type Member struct {
	ID     int64
	Name   string
	Role   string
	Weight int32
}

// View is a book as one of its members sees it.
type View struct {
	ID            int64
	Name          string
	Role          string // the caller's
	MonthStartDay int
	Members       []Member
}

// Create makes a book with actor as its OWNER.
func (b *Books) Create(ctx context.Context, actor int64, name string) (View, error) {
	name, err := member.NormalizeName("/name", name)
	if err != nil {
		return View{}, err
	}
	var id int64
	err = database.InTx(ctx, b.pool, func(q *db.Queries) error {
		if err := b.reserveBookTx(ctx, q, actor); err != nil {
			return err
		}
		ledgerID, err := member.CreateBookLedgerTx(ctx, q, 1)
		if err != nil {
			return err
		}
		bk, err := q.CreateBook(ctx, db.CreateBookParams{LedgerMemberID: ledgerID, Name: name, CreatedAt: b.clock.Now()})
		if err != nil {
			return fmt.Errorf("create book: %w", err)
		}
		id = bk.ID
		_, err = q.AddBookMember(ctx, db.AddBookMemberParams{BookID: id, MemberID: actor, Role: RoleOwner, JoinedAt: b.clock.Now()})
		if err != nil {
			return fmt.Errorf("add owner to book %d: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return View{}, err
	}
	return b.Get(ctx, actor, id)
}

// reserveBookTx holds the member's book count for the transaction and
// refuses one more book past BOOKS_PER_MEMBER.
func (b *Books) reserveBookTx(ctx context.Context, q *db.Queries, actor int64) error {
	if err := q.LockMemberBooks(ctx, actor); err != nil {
		return fmt.Errorf("lock books of member %d: %w", actor, err)
	}
	n, err := q.CountMemberBooks(ctx, actor)
	if err != nil {
		return fmt.Errorf("count books of member %d: %w", actor, err)
	}
	if n >= int64(b.perMember) {
		return problem.Conflict(problem.CodeConflict, fmt.Sprintf("a member is in at most %d household books", b.perMember))
	}
	return nil
}

// Get answers a book the actor is a current member of.
func (b *Books) Get(ctx context.Context, actor, id int64) (View, error) {
	q := db.New(b.pool)
	acc, err := q.GetBookAccess(ctx, db.GetBookAccessParams{BookID: id, MemberID: actor})
	if err := database.NoRows(err, ErrNotFound, fmt.Sprintf("book %d", id)); err != nil {
		return View{}, err
	}
	return viewTx(ctx, q, id, acc.Role)
}

func viewTx(ctx context.Context, q *db.Queries, id int64, role string) (View, error) {
	bk, err := q.GetBook(ctx, id)
	if err := database.NoRows(err, ErrNotFound, fmt.Sprintf("book %d", id)); err != nil {
		return View{}, err
	}
	rows, err := q.ListBookMembers(ctx, id)
	if err != nil {
		return View{}, fmt.Errorf("members of book %d: %w", id, err)
	}
	v := View{ID: bk.ID, Name: bk.Name, Role: role, MonthStartDay: int(bk.MonthStartDay), Members: make([]Member, len(rows))}
	for i, r := range rows {
		v.Members[i] = Member{ID: r.MemberID, Name: r.Name, Role: r.Role, Weight: r.Weight}
	}
	return v, nil
}

// List answers the actor's books, oldest first.
func (b *Books) List(ctx context.Context, actor int64) ([]View, error) {
	q := db.New(b.pool)
	books, err := q.ListMemberBooks(ctx, actor)
	if err != nil {
		return nil, fmt.Errorf("books of member %d: %w", actor, err)
	}
	out := make([]View, len(books))
	ids := make([]int64, len(books))
	at := map[int64]int{}
	for i, bk := range books {
		out[i] = View{ID: bk.ID, Name: bk.Name, Role: bk.Role, MonthStartDay: int(bk.MonthStartDay), Members: []Member{}}
		ids[i] = bk.ID
		at[bk.ID] = i
	}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := q.ListBooksMembers(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("members of books: %w", err)
	}
	for _, r := range rows {
		v := &out[at[r.BookID]]
		v.Members = append(v.Members, Member{ID: r.MemberID, Name: r.Name, Role: r.Role, Weight: r.Weight})
	}
	return out, nil
}

// lockAsTx locks the book (the order of every membership change: the book
// first) and answers the actor's current membership: 404 when the actor is
// not a current member, 403 when owner is asked and the actor is not one.
// Checked after the lock, so a role changed by a parallel request counts.
func lockAsTx(ctx context.Context, q *db.Queries, id, actor int64, owner bool) (db.LockBookRow, db.BookMember, error) {
	bk, err := q.LockBook(ctx, id)
	if err := database.NoRows(err, ErrNotFound, fmt.Sprintf("lock book %d", id)); err != nil {
		return bk, db.BookMember{}, err
	}
	me, err := q.GetBookMemberForUpdate(ctx, db.GetBookMemberForUpdateParams{BookID: id, MemberID: actor})
	if err := database.NoRows(err, ErrNotFound, fmt.Sprintf("member %d of book %d", actor, id)); err != nil {
		return bk, me, err
	}
	if owner && me.Role != RoleOwner {
		return bk, me, errOwnerOnly
	}
	return bk, me, nil
}

// Update renames the book and sets its month start day (OWNER).
func (b *Books) Update(ctx context.Context, actor, id int64, name string, monthStartDay int) (View, error) {
	name, err := member.NormalizeName("/name", name)
	if err != nil {
		return View{}, err
	}
	if monthStartDay < 1 || monthStartDay > 28 {
		return View{}, problem.Invalid("/monthStartDay", "must be 1 to 28")
	}
	var v View
	err = database.InTx(ctx, b.pool, func(q *db.Queries) error {
		bk, me, err := lockAsTx(ctx, q, id, actor, true)
		if err != nil {
			return err
		}
		if _, err := q.RenameBook(ctx, db.RenameBookParams{ID: id, Name: name}); err != nil {
			return fmt.Errorf("rename book %d: %w", id, err)
		}
		if _, err := member.SetMonthStartDay(ctx, q, db.SetMonthStartDayParams{ID: bk.LedgerMemberID, MonthStartDay: int16(monthStartDay)}); err != nil {
			return fmt.Errorf("month start day of book %d: %w", id, err)
		}
		v, err = viewTx(ctx, q, id, me.Role)
		return err
	})
	return v, err
}

// Delete deletes the book and every record in it (OWNER).
func (b *Books) Delete(ctx context.Context, actor, id int64) error {
	return database.InTx(ctx, b.pool, func(q *db.Queries) error {
		bk, _, err := lockAsTx(ctx, q, id, actor, true)
		if err != nil {
			return err
		}
		return member.DeleteBookLedgerTx(ctx, q, bk.LedgerMemberID)
	})
}

// Invitation is a new invitation code, shown once.
type Invitation struct {
	Code      string
	Role      string
	ExpiresAt time.Time
}

// codeAlphabet spells codes without padding: 10 random bytes are 16
// characters of base32 (80 bits).
var codeEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

func hashCode(code string) []byte {
	h := sha256.Sum256([]byte(strings.ToUpper(strings.TrimSpace(code))))
	return h[:]
}

// Invite makes a single-use invitation code (OWNER).
func (b *Books) Invite(ctx context.Context, actor, id int64, role string) (Invitation, error) {
	if role == "" {
		role = RoleEditor
	}
	var raw [10]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return Invitation{}, fmt.Errorf("invitation code: %w", err)
	}
	inv := Invitation{Code: codeEncoding.EncodeToString(raw[:]), Role: role}
	err := database.InTx(ctx, b.pool, func(q *db.Queries) error {
		if _, _, err := lockAsTx(ctx, q, id, actor, true); err != nil {
			return err
		}
		now := b.clock.Now()
		row, err := q.CreateBookInvitation(ctx, db.CreateBookInvitationParams{
			BookID: id, CodeHash: hashCode(inv.Code), Role: role, CreatedBy: actor, CreatedAt: now, ExpiresAt: now.Add(InvitationTTL),
		})
		if err != nil {
			return fmt.Errorf("invite to book %d: %w", id, err)
		}
		inv.ExpiresAt = row.ExpiresAt
		return nil
	})
	return inv, err
}

// Revoke revokes an unused invitation of the book (OWNER).
func (b *Books) Revoke(ctx context.Context, actor, id int64, code string) error {
	return database.InTx(ctx, b.pool, func(q *db.Queries) error {
		if _, _, err := lockAsTx(ctx, q, id, actor, true); err != nil {
			return err
		}
		n, err := q.RevokeBookInvitation(ctx, db.RevokeBookInvitationParams{BookID: id, CodeHash: hashCode(code), Now: b.clock.Now()})
		if err != nil {
			return fmt.Errorf("revoke invitation of book %d: %w", id, err)
		}
		if n == 0 {
			return errInvitation
		}
		return nil
	})
}

// Join accepts an invitation code for actor. Locks: the invitation row,
// then its book, then the actor's book count; two members accepting one
// code at once queue on the invitation's row and the second finds it used.
func (b *Books) Join(ctx context.Context, actor int64, code string) (View, error) {
	var v View
	err := database.InTx(ctx, b.pool, func(q *db.Queries) error {
		now := b.clock.Now()
		inv, err := q.GetBookInvitationForUpdate(ctx, db.GetBookInvitationForUpdateParams{CodeHash: hashCode(code), Now: now})
		if err := database.NoRows(err, errInvitation, "invitation"); err != nil {
			return err
		}
		if _, err := q.LockBook(ctx, inv.BookID); err != nil {
			return database.NoRows(err, errInvitation, fmt.Sprintf("lock book %d", inv.BookID))
		}
		if _, err := q.GetBookMemberForUpdate(ctx, db.GetBookMemberForUpdateParams{BookID: inv.BookID, MemberID: actor}); err == nil {
			return errAlreadyMember
		} else if !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("membership in book %d: %w", inv.BookID, err)
		}
		n, err := q.CountBookMembers(ctx, inv.BookID)
		if err != nil {
			return fmt.Errorf("count members of book %d: %w", inv.BookID, err)
		}
		if n >= int64(b.memberLimit) {
			return problem.Conflict(problem.CodeConflict, fmt.Sprintf("a household book has at most %d members", b.memberLimit))
		}
		if err := b.reserveBookTx(ctx, q, actor); err != nil {
			return err
		}
		if used, err := q.UseBookInvitation(ctx, db.UseBookInvitationParams{ID: inv.ID, Now: now, UsedBy: actor}); err != nil {
			return fmt.Errorf("use invitation: %w", err)
		} else if used == 0 {
			return errInvitation
		}
		if _, err := q.AddBookMember(ctx, db.AddBookMemberParams{BookID: inv.BookID, MemberID: actor, Role: inv.Role, JoinedAt: now}); err != nil {
			return fmt.Errorf("add member to book %d: %w", inv.BookID, err)
		}
		v, err = viewTx(ctx, q, inv.BookID, inv.Role)
		return err
	})
	return v, err
}

// SetMember changes a member's role and weight (OWNER). The last OWNER
// cannot be demoted.
func (b *Books) SetMember(ctx context.Context, actor, id, memberID int64, role string, weight int32) (View, error) {
	if weight < 1 || weight > 1000 {
		return View{}, problem.Invalid("/weight", "must be 1 to 1000")
	}
	var v View
	err := database.InTx(ctx, b.pool, func(q *db.Queries) error {
		_, me, err := lockAsTx(ctx, q, id, actor, true)
		if err != nil {
			return err
		}
		target, err := q.GetBookMemberForUpdate(ctx, db.GetBookMemberForUpdateParams{BookID: id, MemberID: memberID})
		if err := database.NoRows(err, errNotMember, fmt.Sprintf("member %d of book %d", memberID, id)); err != nil {
			return err
		}
		if target.Role == RoleOwner && role != RoleOwner {
			n, err := q.CountBookOwners(ctx, id)
			if err != nil {
				return fmt.Errorf("count owners of book %d: %w", id, err)
			}
			if n <= 1 {
				return errLastOwner
			}
		}
		if _, err := q.SetBookMemberRole(ctx, db.SetBookMemberRoleParams{BookID: id, MemberID: memberID, Role: role, Weight: weight}); err != nil {
			return fmt.Errorf("set role in book %d: %w", id, err)
		}
		myRole := me.Role
		if memberID == actor {
			myRole = role
		}
		v, err = viewTx(ctx, q, id, myRole)
		return err
	})
	return v, err
}

// Remove takes a member out of the book: an OWNER removes anyone, a member
// removes themselves (leaves). The last OWNER's leaving hands the book on
// (leaveTx).
func (b *Books) Remove(ctx context.Context, actor, id, memberID int64) error {
	return database.InTx(ctx, b.pool, func(q *db.Queries) error {
		bk, _, err := lockAsTx(ctx, q, id, actor, memberID != actor)
		if err != nil {
			return err
		}
		return leaveTx(ctx, q, id, bk.LedgerMemberID, memberID, b.clock.Now())
	})
}

// leaveTx marks memberID as having left the locked book, then makes sure
// it keeps an OWNER: the longest-standing EDITOR, else VIEWER, becomes one;
// a book nobody is left in is deleted with its records.
func leaveTx(ctx context.Context, q *db.Queries, id, ledgerID, memberID int64, now time.Time) error {
	n, err := q.LeaveBook(ctx, db.LeaveBookParams{BookID: id, MemberID: memberID, LeftAt: now})
	if err != nil {
		return fmt.Errorf("leave book %d: %w", id, err)
	}
	if n == 0 {
		return errNotMember
	}
	owners, err := q.CountBookOwners(ctx, id)
	if err != nil {
		return fmt.Errorf("count owners of book %d: %w", id, err)
	}
	if owners > 0 {
		return nil
	}
	next, err := q.NextBookOwner(ctx, id)
	if errors.Is(err, pgx.ErrNoRows) {
		return member.DeleteBookLedgerTx(ctx, q, ledgerID)
	}
	if err != nil {
		return fmt.Errorf("next owner of book %d: %w", id, err)
	}
	cur, err := q.GetBookMemberForUpdate(ctx, db.GetBookMemberForUpdateParams{BookID: id, MemberID: next})
	if err != nil {
		return fmt.Errorf("next owner of book %d: %w", id, err)
	}
	if _, err := q.SetBookMemberRole(ctx, db.SetBookMemberRoleParams{BookID: id, MemberID: next, Role: RoleOwner, Weight: cur.Weight}); err != nil {
		return fmt.Errorf("hand book %d over: %w", id, err)
	}
	return nil
}

// LeaveAllTx takes a member out of every book they are in, handing each on
// (leaveTx), inside the caller's transaction: account deletion runs it
// before the member's row goes. Books are locked in id order, before the
// member's own ledger lock (member.Delete).
func LeaveAllTx(ctx context.Context, q *db.Queries, memberID int64, now time.Time) error {
	ids, err := q.ListMemberBookIDs(ctx, memberID)
	if err != nil {
		return fmt.Errorf("books of member %d: %w", memberID, err)
	}
	for _, id := range ids {
		bk, err := q.LockBook(ctx, id)
		if errors.Is(err, pgx.ErrNoRows) {
			continue
		}
		if err != nil {
			return fmt.Errorf("lock book %d: %w", id, err)
		}
		if err := leaveTx(ctx, q, id, bk.LedgerMemberID, memberID, now); err != nil && !errors.Is(err, errNotMember) {
			return err
		}
	}
	return nil
}

// DeleteAccount deletes a member's account as member.DeleteWithSessions
// does, after taking them out of every book they are in (ownership handed
// on, a book left empty deleted with its records), in one transaction. The
// profile's and the administration's account deletion call it.
func DeleteAccount(ctx context.Context, pool *pgxpool.Pool, sessions member.SessionEnder, id int64) error {
	if err := sessions.EndMemberSessions(ctx, id, ""); err != nil {
		return err
	}
	return database.InTx(ctx, pool, func(q *db.Queries) error {
		if err := LeaveAllTx(ctx, q, id, time.Now()); err != nil {
			return err
		}
		return member.Delete(ctx, q, id)
	})
}
