package profile

import (
	"context"
	"encoding/base64"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/member"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// GetProfile answers the member's own view of their account, as it is now.
func (h *ProfileHandler) GetProfile(ctx context.Context, _ api.GetProfileRequestObject) (api.GetProfileResponseObject, error) {
	m, err := member.GetSelf(ctx, db.New(h.pool), session.PrincipalFrom(ctx).MemberID)
	if err != nil {
		return nil, err
	}
	return api.GetProfile200JSONResponse{Body: member.ToProfile(m)}, nil
}

// UpdateProfile changes the display name and, when sent, the day the
// member's ledger month begins, at the version If-Match names (none: any).
// Sessions reload the member on every request, so every session of the
// member shows it from its next one.
func (h *ProfileHandler) UpdateProfile(ctx context.Context, req api.UpdateProfileRequestObject) (api.UpdateProfileResponseObject, error) {
	id := session.PrincipalFrom(ctx).MemberID
	match := etag.Parse(req.Params.IfMatch)
	if d := req.Body.MonthStartDay; d != nil && (*d < 1 || *d > 28) {
		return nil, problem.Invalid("/monthStartDay", "must be 1 to 28")
	}
	out, err := database.InTxV(ctx, h.pool, func(q *db.Queries) (etag.Tagged[api.Profile], error) {
		// The member's row locked: its version is the one the writes meet.
		old, err := member.GetSelfForUpdate(ctx, q, id)
		if err != nil {
			return etag.Tagged[api.Profile]{}, err
		}
		if !match.Hits(old.Version) {
			tag, err := etag.Of(old.Version, member.ToProfile(old))
			if err != nil {
				return etag.Tagged[api.Profile]{}, err
			}
			return etag.Tagged[api.Profile]{}, etag.Failed(tag)
		}
		m, err := rename(ctx, q, id, req.Body.Name)
		if err == nil && req.Body.MonthStartDay != nil {
			m, err = member.SetMonthStartDay(ctx, q, db.SetMonthStartDayParams{ID: id, MonthStartDay: int16(*req.Body.MonthStartDay)})
			err = updated(err, id)
		}
		if err != nil {
			return etag.Tagged[api.Profile]{}, err
		}
		// m is the row the last UPDATE returned: its version the committed one.
		return etag.Answered(m.Version, member.ToProfile(m))
	})
	if err != nil {
		return nil, err
	}
	return api.UpdateProfile200JSONResponse{Body: out.Body, Headers: api.UpdateProfile200ResponseHeaders{ETag: etag.Ptr(out.ETag)}}, nil
}

// rename sets the member's display name (trimmed, 1 to 50 characters).
func rename(ctx context.Context, q *db.Queries, id int64, name string) (db.Member, error) {
	name, err := member.NormalizeName("/name", name)
	if err != nil {
		return db.Member{}, err
	}
	m, err := member.UpdateName(ctx, q, db.UpdateMemberNameParams{ID: id, Name: name})
	return m, updated(err, id)
}

// SetProfileImage sets the member's own avatar, or clears it with "".
func (h *ProfileHandler) SetProfileImage(ctx context.Context, req api.SetProfileImageRequestObject) (api.SetProfileImageResponseObject, error) {
	id := session.PrincipalFrom(ctx).MemberID
	m, err := database.InTxV(ctx, h.pool, func(q *db.Queries) (db.Member, error) {
		return h.setProfileImageTx(ctx, q, id, req.Body.ProfileImage)
	})
	if err != nil {
		return nil, err
	}
	return api.SetProfileImage200JSONResponse(member.ToProfile(m)), nil
}

// setProfileImageTx checks dataURL, stores its image without metadata as an
// image the service serves (the board shows its address) and keeps the
// stripped image as a data URL for the owner's profile; "" clears both. The
// image it replaces is left to the cleanup job, which deletes images no post
// or profile uses.
func (h *ProfileHandler) setProfileImageTx(ctx context.Context, q *db.Queries, id int64, dataURL string) (db.Member, error) {
	params := db.UpdateMemberProfileImageParams{ID: id}
	if dataURL != "" {
		subtype, data, err := checkProfileImage(dataURL)
		if err != nil {
			return db.Member{}, err
		}
		img, err := h.images.StoreTx(ctx, q, id, profileImageField, data)
		if err != nil {
			return db.Member{}, err
		}
		clean := "data:image/" + subtype + ";base64," + base64.StdEncoding.EncodeToString(img.Data)
		params.ProfileImage = &clean
		params.ProfileImageID = pgtype.UUID{Bytes: img.ID, Valid: true}
	}
	m, err := member.UpdateProfileImage(ctx, q, params)
	return m, updated(err, id)
}

// updated maps the error of an UPDATE … RETURNING of the member's own row.
func updated(err error, id int64) error { return member.Self(err, id) }
