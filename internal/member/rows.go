package member

import (
	"context"
	"fmt"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/ledger"
)

// The member table belongs to this area: other areas read and write its rows
// through these functions, inside their own transaction (q), never through
// the queries of queries/member.sql themselves.

// Count counts the members an administrator's search (nil for all) matches.
func Count(ctx context.Context, q *db.Queries, q_ *string) (int64, error) {
	return q.CountMembers(ctx, q_)
}

// SetRole sets a member's role.
func SetRole(ctx context.Context, q *db.Queries, arg db.SetMemberRoleParams) (db.Member, error) {
	return q.SetMemberRole(ctx, arg)
}

// SetPlanPermanent gives or takes a permanent PREMIUM plan.
func SetPlanPermanent(ctx context.Context, q *db.Queries, arg db.SetMemberPlanPermanentParams) (db.Member, error) {
	return q.SetMemberPlanPermanent(ctx, arg)
}

// SetStatus activates or suspends a member.
func SetStatus(ctx context.Context, q *db.Queries, arg db.SetMemberStatusParams) (db.Member, error) {
	return q.SetMemberStatus(ctx, arg)
}

// RevokeSessions moves the member's session epoch on, so every session of theirs ends.
func RevokeSessions(ctx context.Context, q *db.Queries, id int64) (int64, error) {
	return q.RevokeMemberSessions(ctx, id)
}

// UpdateEmailName changes a member's e-mail and name (administration).
func UpdateEmailName(ctx context.Context, q *db.Queries, arg db.UpdateMemberEmailNameParams) (db.Member, error) {
	return q.UpdateMemberEmailName(ctx, arg)
}

// ListForAdmin answers a page of the administration's member list with the total.
func ListForAdmin(ctx context.Context, q *db.Queries, arg db.ListAdminMembersParams) ([]db.ListAdminMembersRow, error) {
	return q.ListAdminMembers(ctx, arg)
}

// GetByEmail answers the member with the e-mail (lower-cased match).
func GetByEmail(ctx context.Context, q *db.Queries, email string) (db.Member, error) {
	return q.GetMemberByEmail(ctx, email)
}

// Create creates a member row as given.
func Create(ctx context.Context, q *db.Queries, arg db.CreateMemberParams) (db.Member, error) {
	return q.CreateMember(ctx, arg)
}

// GetByIdpA answers the member linked to the identity provider A subject.
func GetByIdpA(ctx context.Context, q *db.Queries, subject *string) (db.Member, error) {
	return q.GetMemberByIdpA(ctx, subject)
}

// LinkIdpA links a member to an identity provider A subject.
func LinkIdpA(ctx context.Context, q *db.Queries, arg db.LinkIdpAParams) (db.Member, error) {
	return q.LinkIdpA(ctx, arg)
}

// GetByIdpB answers the member linked to the identity provider B subject.
func GetByIdpB(ctx context.Context, q *db.Queries, subject *string) (db.Member, error) {
	return q.GetMemberByIdpB(ctx, subject)
}

// LinkIdpB links a member to an identity provider B subject.
func LinkIdpB(ctx context.Context, q *db.Queries, arg db.LinkIdpBParams) (db.Member, error) {
	return q.LinkIdpB(ctx, arg)
}

// GetCredentials answers what signing in with a password needs of the member with the e-mail.
func GetCredentials(ctx context.Context, q *db.Queries, email string) (db.GetMemberCredentialsRow, error) {
	return q.GetMemberCredentials(ctx, email)
}

// ReplacePassword replaces a member's password hash if it is still the one read.
func ReplacePassword(ctx context.Context, q *db.Queries, arg db.ReplaceMemberPasswordParams) (int64, error) {
	return q.ReplaceMemberPassword(ctx, arg)
}

// PasswordHash answers a member's password hash (nil without one).
func PasswordHash(ctx context.Context, q *db.Queries, id int64) (*string, error) {
	return q.GetMemberPasswordHash(ctx, id)
}

// SetMonthStartDay sets the day a member's ledger month begins.
func SetMonthStartDay(ctx context.Context, q *db.Queries, arg db.SetMonthStartDayParams) (db.Member, error) {
	return q.SetMonthStartDay(ctx, arg)
}

// UpdateName changes a member's display name.
func UpdateName(ctx context.Context, q *db.Queries, arg db.UpdateMemberNameParams) (db.Member, error) {
	return q.UpdateMemberName(ctx, arg)
}

// UpdateProfileImage sets or clears a member's profile image.
func UpdateProfileImage(ctx context.Context, q *db.Queries, arg db.UpdateMemberProfileImageParams) (db.Member, error) {
	return q.UpdateMemberProfileImage(ctx, arg)
}

// CreateBookLedgerTx creates the ledger owner of a household book
// (internal/book): a member row of kind BOOK that never signs in.
func CreateBookLedgerTx(ctx context.Context, q *db.Queries, monthStartDay int16) (int64, error) {
	id, err := q.CreateBookLedgerMember(ctx, monthStartDay)
	if err != nil {
		return 0, fmt.Errorf("create book ledger owner: %w", err)
	}
	return id, nil
}

// DeleteBookLedgerTx deletes a household book's ledger owner and, through
// the cascading foreign keys, the book and every record in it. As Delete,
// it takes the ledger's lock exclusively first (ledger/locks.go). No row
// (gone already) is no error.
func DeleteBookLedgerTx(ctx context.Context, q *db.Queries, id int64) error {
	if err := ledger.LockLedgerTx(ctx, q, id); err != nil {
		return err
	}
	if _, err := q.DeleteBookLedgerMember(ctx, id); err != nil {
		return fmt.Errorf("delete book ledger owner %d: %w", id, err)
	}
	return nil
}
