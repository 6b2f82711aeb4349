package ledger

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/problem"
)

// MaxTagsPerEntry is how many tags one entry or quick entry carries at most
// (a CSV import's row too).
const MaxTagsPerEntry = 20

// ErrTagNotFound answers a tag that is not the member's.
var ErrTagNotFound = problem.NotFound("tag")

var errTagTaken = problem.Conflict(problem.CodeConflict, "another tag has this name")

// TagName trims and checks a tag name as every tag operation does.
func TagName(field, s string) (string, error) { return cleanName(field, s, 30) }

// cleanTags checks the tag names of a request: nil stays nil (none sent),
// names are trimmed and repeated ones dropped. A FREE member sending any is
// refused, never silently ignored.
func cleanTags(names *[]string, premium bool) ([]string, error) {
	if names == nil {
		return nil, nil
	}
	if len(*names) > 0 && !premium {
		return nil, errPremiumTags
	}
	if len(*names) > MaxTagsPerEntry {
		return nil, problem.Invalid("/tags", fmt.Sprintf("at most %d tags", MaxTagsPerEntry))
	}
	out := make([]string, 0, len(*names))
	seen := map[string]bool{}
	for i, n := range *names {
		name, err := TagName(fmt.Sprintf("/tags/%d", i), n)
		if err != nil {
			return nil, err
		}
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out, nil
}

// EnsureTagsTx makes each name one of the member's tags (new ones placed
// last) and returns their ids.
func EnsureTagsTx(ctx context.Context, q *db.Queries, memberID int64, names []string) ([]int64, error) {
	if len(names) == 0 {
		return nil, nil
	}
	rows, err := q.EnsureTags(ctx, db.EnsureTagsParams{MemberID: memberID, Names: names})
	if err != nil {
		return nil, fmt.Errorf("ensure tags: %w", err)
	}
	if len(rows) != len(names) {
		// A tag deleted by a parallel request after the INSERT skipped
		// it (ensure_member_tags answers the tags made meanwhile, not
		// those deleted meanwhile); a second pass makes it again.
		if rows, err = q.EnsureTags(ctx, db.EnsureTagsParams{MemberID: memberID, Names: names}); err != nil {
			return nil, fmt.Errorf("ensure tags: %w", err)
		}
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	return ids, nil
}

func toAPITag(t db.AccountTag) api.Tag {
	return api.Tag{ID: t.ID, Name: t.Name, SortOrder: t.SortOrder}
}

// ListTags answers the member's tags in sort order.
func (h *LedgerHandler) ListTags(ctx context.Context, _ api.ListTagsRequestObject) (api.ListTagsResponseObject, error) {
	memberID := caller(ctx).MemberID
	rows, err := db.New(h.pool).ListTags(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("tags of member %d: %w", memberID, err)
	}
	items := make([]api.Tag, len(rows))
	for i, t := range rows {
		items[i] = toAPITag(t)
	}
	return api.ListTags200JSONResponse{Items: items}, nil
}

// CreateTag creates a tag, placed last.
func (h *LedgerHandler) CreateTag(ctx context.Context, req api.CreateTagRequestObject) (api.CreateTagResponseObject, error) {
	name, err := TagName("/name", req.Body.Name)
	if err != nil {
		return nil, err
	}
	memberID := caller(ctx).MemberID
	out, replayed, err := createOnce(ctx, h, "createTag", req.Params.IdempotencyKey, req, func(q *db.Queries) (etag.Tagged[api.Tag], error) {
		t, err := CreateTagTx(ctx, q, memberID, name)
		return etag.Versioned(t.Version, toAPITag(t)), err
	})
	if err != nil {
		return nil, err
	}
	return api.CreateTag201JSONResponse{Body: out.Body, Headers: api.CreateTag201ResponseHeaders{
		ETag: etag.Ptr(out.ETag), IdempotentReplayed: replayed,
	}}, nil
}

// CreateTagTx creates a tag; a name the member has is a 409.
func CreateTagTx(ctx context.Context, q *db.Queries, memberID int64, name string) (db.AccountTag, error) {
	t, err := q.CreateTag(ctx, db.CreateTagParams{MemberID: memberID, Name: name})
	if database.IsUniqueViolation(err, "account_tag_member_name_key") {
		return db.AccountTag{}, errTagTaken
	}
	if err != nil {
		return db.AccountTag{}, fmt.Errorf("create tag: %w", err)
	}
	return t, nil
}

// UpdateTag renames a tag; entries show the new name.
func (h *LedgerHandler) UpdateTag(ctx context.Context, req api.UpdateTagRequestObject) (api.UpdateTagResponseObject, error) {
	name, err := TagName("/name", req.Body.Name)
	if err != nil {
		return nil, err
	}
	memberID := caller(ctx).MemberID
	match := etag.Parse(req.Params.IfMatch)
	t, err := WriteTxV(ctx, h.pool, memberID, func(q *db.Queries) (db.AccountTag, error) {
		return q.UpdateTag(ctx, db.UpdateTagParams{MemberID: memberID, ID: req.ID, Name: name, IfVersions: match.Versions()})
	})
	if database.IsUniqueViolation(err, "account_tag_member_name_key") {
		return nil, errTagTaken
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, missed(match, ErrTagNotFound, func() (int64, error) {
			return db.New(h.pool).TagVersion(ctx, db.TagVersionParams{MemberID: memberID, ID: req.ID})
		})
	}
	if err != nil {
		return nil, fmt.Errorf("update tag %d: %w", req.ID, err)
	}
	return api.UpdateTag200JSONResponse{Body: toAPITag(t), Headers: api.UpdateTag200ResponseHeaders{ETag: etag.Ptr(etag.Version(t.Version))}}, nil
}

// DeleteTag deletes a tag and takes it off every entry.
func (h *LedgerHandler) DeleteTag(ctx context.Context, req api.DeleteTagRequestObject) (api.DeleteTagResponseObject, error) {
	memberID := caller(ctx).MemberID
	match := etag.Parse(req.Params.IfMatch)
	n, err := WriteTxV(ctx, h.pool, memberID, func(q *db.Queries) (int64, error) {
		return q.DeleteTag(ctx, db.DeleteTagParams{MemberID: memberID, ID: req.ID, IfVersions: match.Versions()})
	})
	if err != nil {
		return nil, fmt.Errorf("delete tag %d: %w", req.ID, err)
	}
	if n == 0 {
		return nil, missed(match, ErrTagNotFound, func() (int64, error) {
			return db.New(h.pool).TagVersion(ctx, db.TagVersionParams{MemberID: memberID, ID: req.ID})
		})
	}
	return api.DeleteTag204Response{}, nil
}

// ReorderTags puts the listed tags first, in the given order.
func (h *LedgerHandler) ReorderTags(ctx context.Context, req api.ReorderTagsRequestObject) (api.ReorderTagsResponseObject, error) {
	memberID := caller(ctx).MemberID
	if err := checkIDs(req.Body.Ids); err != nil {
		return nil, err
	}
	err := writeTx(ctx, h.pool, memberID, func(q *db.Queries) error {
		n, err := q.CountOwnedTags(ctx, db.CountOwnedTagsParams{MemberID: memberID, Ids: req.Body.Ids})
		if err != nil {
			return fmt.Errorf("count tags: %w", err)
		}
		if n != int64(len(req.Body.Ids)) {
			return ErrTagNotFound
		}
		return q.ReorderTags(ctx, db.ReorderTagsParams{MemberID: memberID, Ids: req.Body.Ids})
	})
	if err != nil {
		return nil, err
	}
	return api.ReorderTags204Response{}, nil
}
