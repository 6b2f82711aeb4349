package member

import (
	"context"
	"fmt"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/session"
)

// CreateLocalWithHash creates a LOCAL member whose password is already hashed
// (a password.Hash result; in.Password is not read). Hashing is the slow part
// of creating a member: the test harness creates hundreds of members with one
// password, so it hashes that password once and creates each member here.
func CreateLocalWithHash(ctx context.Context, q *db.Queries, in NewLocal, hash string) (db.Member, error) {
	email, err := NormalizeEmail("/email", in.Email)
	if err != nil {
		return db.Member{}, err
	}
	name, err := NormalizeName("/name", in.Name)
	if err != nil {
		return db.Member{}, err
	}
	role := in.Role
	if role == "" {
		role = session.RoleUser
	}
	m, err := q.CreateMember(ctx, db.CreateMemberParams{
		Email: &email, PasswordHash: &hash, Name: name, Role: role, Provider: ProviderLocal,
	})
	if database.IsUniqueViolation(err, "member_email_key") {
		return db.Member{}, ErrEmailTaken
	}
	if err != nil {
		return db.Member{}, fmt.Errorf("create member: %w", err)
	}
	return m, nil
}
