package ledger

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/problem"
)

// ErrCategoryNotFound answers a category that is not the member's.
var ErrCategoryNotFound = problem.NotFound("category")

func errHierarchy(detail string) error {
	return problem.New(http.StatusBadRequest, problem.CodeCategoryHierarchy, detail)
}

// node is what the two-level rules look at, for members' and default
// categories alike.
type node struct {
	ID       int64
	ParentID *int64
	Type     string
}

// checkPlacement applies the two-level rules to category id (0 for a new
// one) of type typ placed under parent (nil: top level); hasChildren is
// whether it has sub-categories now.
func checkPlacement(id int64, typ string, parent *node, hasChildren bool) error {
	if parent == nil {
		return nil
	}
	switch {
	case parent.ID == id:
		return errHierarchy("a category cannot be its own parent")
	case parent.ParentID != nil:
		return errHierarchy("a sub-category cannot have sub-categories: only two levels")
	case hasChildren:
		return errHierarchy("a category with sub-categories cannot become a sub-category")
	case parent.Type != typ:
		return errHierarchy("a sub-category has its parent's type")
	}
	return nil
}

// CategoryInput is a checked category request.
type CategoryInput struct {
	Name, Type string
	ParentID   *int64
}

// CategoryInputFrom checks a category request (the hierarchy is checked
// where it is stored).
func CategoryInputFrom(in api.CategoryRequest) (CategoryInput, error) {
	name, err := cleanName("/name", in.Name, 50)
	if err != nil {
		return CategoryInput{}, err
	}
	typ, err := cleanType("/type", string(in.Type))
	if err != nil {
		return CategoryInput{}, err
	}
	return CategoryInput{Name: name, Type: typ, ParentID: in.ParentID}, nil
}

// ListCategories answers the member's category tree.
func (h *LedgerHandler) ListCategories(ctx context.Context, _ api.ListCategoriesRequestObject) (api.ListCategoriesResponseObject, error) {
	tree, err := categoryTree(ctx, db.New(h.pool), caller(ctx).MemberID)
	if err != nil {
		return nil, err
	}
	return api.ListCategories200JSONResponse{Items: tree}, nil
}

func categoryTree(ctx context.Context, q *db.Queries, memberID int64) ([]api.Category, error) {
	rows, err := q.ListCategories(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("categories of member %d: %w", memberID, err)
	}
	return buildTree(rows), nil
}

// buildTree nests sub-categories under their parents, both in sort order.
func buildTree(rows []db.AccountCategory) []api.Category {
	top := []api.Category{}
	index := map[int64]int{}
	for _, r := range rows {
		if r.ParentID == nil {
			index[r.ID] = len(top)
			top = append(top, toAPICategory(r, nil))
		}
	}
	for _, r := range rows {
		if r.ParentID != nil {
			if i, ok := index[*r.ParentID]; ok {
				top[i].Children = append(top[i].Children, toAPISubCategory(r))
			}
		}
	}
	return top
}

func toAPICategory(c db.AccountCategory, children []db.AccountCategory) api.Category {
	out := api.Category{ID: c.ID, Name: c.Name, Type: api.EntryTypeValue(c.Type), ParentID: c.ParentID, SortOrder: c.SortOrder, Children: []api.SubCategory{}}
	for _, ch := range children {
		out.Children = append(out.Children, toAPISubCategory(ch))
	}
	return out
}

func toAPISubCategory(c db.AccountCategory) api.SubCategory {
	return api.SubCategory{ID: c.ID, Name: c.Name, Type: api.EntryTypeValue(c.Type), ParentID: c.ParentID, SortOrder: c.SortOrder}
}

// ownCategory loads a category a request names (nil for none).
func ownCategory(ctx context.Context, q *db.Queries, memberID int64, id *int64) (*db.AccountCategory, error) {
	if id == nil {
		return nil, nil
	}
	c, err := q.GetCategory(ctx, db.GetCategoryParams{MemberID: memberID, ID: *id})
	if err := database.NoRows(err, ErrCategoryNotFound, fmt.Sprintf("category %d", *id)); err != nil {
		return nil, err
	}
	return &c, nil
}

func asNode(c *db.AccountCategory) *node {
	if c == nil {
		return nil
	}
	return &node{ID: c.ID, ParentID: c.ParentID, Type: c.Type}
}

// categoryWithChildren answers a category as the wire shows it.
func categoryWithChildren(ctx context.Context, q *db.Queries, memberID int64, c db.AccountCategory) (api.Category, error) {
	if c.ParentID != nil {
		return toAPICategory(c, nil), nil
	}
	rows, err := q.ListCategories(ctx, memberID)
	if err != nil {
		return api.Category{}, fmt.Errorf("categories of member %d: %w", memberID, err)
	}
	var children []db.AccountCategory
	for _, r := range rows {
		if r.ParentID != nil && *r.ParentID == c.ID {
			children = append(children, r)
		}
	}
	return toAPICategory(c, children), nil
}

// CreateCategory creates a category, placed last.
func (h *LedgerHandler) CreateCategory(ctx context.Context, req api.CreateCategoryRequestObject) (api.CreateCategoryResponseObject, error) {
	memberID := caller(ctx).MemberID
	in, err := CategoryInputFrom(*req.Body)
	if err != nil {
		return nil, err
	}
	out, replayed, err := createOnce(ctx, h, "createCategory", req.Params.IdempotencyKey, req, func(q *db.Queries) (etag.Tagged[api.Category], error) {
		c, err := CreateCategoryTx(ctx, q, memberID, in)
		return etag.Versioned(c.Version, toAPICategory(c, nil)), err
	})
	if err != nil {
		return nil, err
	}
	return api.CreateCategory201JSONResponse{Body: out.Body, Headers: api.CreateCategory201ResponseHeaders{
		ETag: etag.Ptr(out.ETag), IdempotentReplayed: replayed,
	}}, nil
}

// CreateCategoryTx creates a category after the hierarchy checks.
func CreateCategoryTx(ctx context.Context, q *db.Queries, memberID int64, in CategoryInput) (db.AccountCategory, error) {
	parent, err := ownCategory(ctx, q, memberID, in.ParentID)
	if err != nil {
		return db.AccountCategory{}, err
	}
	if err := checkPlacement(0, in.Type, asNode(parent), false); err != nil {
		return db.AccountCategory{}, err
	}
	c, err := q.CreateCategory(ctx, db.CreateCategoryParams{MemberID: memberID, ParentID: in.ParentID, Name: in.Name, Type: in.Type})
	if err != nil {
		return db.AccountCategory{}, refGone(err, "create category")
	}
	return c, nil
}

// UpdateCategory renames, retypes or moves a category.
func (h *LedgerHandler) UpdateCategory(ctx context.Context, req api.UpdateCategoryRequestObject) (api.UpdateCategoryResponseObject, error) {
	memberID := caller(ctx).MemberID
	in, err := CategoryInputFrom(*req.Body)
	if err != nil {
		return nil, err
	}
	match := etag.Parse(req.Params.IfMatch)
	out, err := WriteTxV(ctx, h.pool, memberID, func(q *db.Queries) (etag.Tagged[api.Category], error) {
		old, err := ownCategory(ctx, q, memberID, &req.ID)
		if err != nil {
			return etag.Tagged[api.Category]{}, err
		}
		if old.Type != in.Type {
			if err := typeMayChange(ctx, q, memberID, req.ID); err != nil {
				return etag.Tagged[api.Category]{}, err
			}
		}
		parent, err := ownCategory(ctx, q, memberID, in.ParentID)
		if err != nil {
			return etag.Tagged[api.Category]{}, err
		}
		hasChildren, err := q.CategoryHasChildren(ctx, db.CategoryHasChildrenParams{MemberID: memberID, ID: &req.ID})
		if err != nil {
			return etag.Tagged[api.Category]{}, fmt.Errorf("children of category %d: %w", req.ID, err)
		}
		if err := checkPlacement(req.ID, in.Type, asNode(parent), hasChildren); err != nil {
			return etag.Tagged[api.Category]{}, err
		}
		c, err := q.UpdateCategory(ctx, db.UpdateCategoryParams{
			MemberID: memberID, ID: req.ID, ParentID: in.ParentID, Name: in.Name, Type: in.Type, IfVersions: match.Versions(),
		})
		if errors.Is(err, pgx.ErrNoRows) {
			return etag.Tagged[api.Category]{}, errMissed
		}
		if err != nil {
			return etag.Tagged[api.Category]{}, refGone(err, fmt.Sprintf("update category %d", req.ID))
		}
		if err := q.SetChildCategoriesType(ctx, db.SetChildCategoriesTypeParams{MemberID: memberID, ParentID: &req.ID, Type: in.Type}); err != nil {
			return etag.Tagged[api.Category]{}, fmt.Errorf("retype children of category %d: %w", req.ID, err)
		}
		body, err := categoryWithChildren(ctx, q, memberID, c)
		return etag.Versioned(c.Version, body), err
	})
	if errors.Is(err, errMissed) {
		return nil, missed(match, ErrCategoryNotFound, func() (int64, error) {
			return db.New(h.pool).CategoryVersion(ctx, db.CategoryVersionParams{MemberID: memberID, ID: req.ID})
		})
	}
	if err != nil {
		return nil, err
	}
	return api.UpdateCategory200JSONResponse{Body: out.Body, Headers: api.UpdateCategory200ResponseHeaders{ETag: etag.Ptr(out.ETag)}}, nil
}

// typeMayChange refuses a type change of a category that entries, budgets,
// recurring or quick entries use, directly or through a sub-category (whose
// type follows): they would be left under a category of the other type, and
// the member's own backup would then fail to restore. The 409 names what
// uses it.
func typeMayChange(ctx context.Context, q *db.Queries, memberID, id int64) error {
	u, err := q.CategoryUses(ctx, db.CategoryUsesParams{MemberID: memberID, ID: id})
	if err != nil {
		return fmt.Errorf("uses of category %d: %w", id, err)
	}
	var uses []string
	for _, n := range []struct {
		count int64
		what  string
	}{{u.Entries, "entries"}, {int64(u.Budgets), "budgets"}, {u.Recurrings, "recurring entries"}, {u.QuickEntries, "quick entries"}} {
		if n.count > 0 {
			uses = append(uses, fmt.Sprintf("%d %s", n.count, n.what))
		}
	}
	if len(uses) == 0 {
		return nil
	}
	return problem.Conflict(problem.CodeConflict, fmt.Sprintf(
		"the type cannot change while %s use this category or its sub-categories", strings.Join(uses, ", ")))
}

// DeleteCategory deletes a category without sub-categories; entries using it
// move to moveTo or refuse the deletion.
func (h *LedgerHandler) DeleteCategory(ctx context.Context, req api.DeleteCategoryRequestObject) (api.DeleteCategoryResponseObject, error) {
	memberID := caller(ctx).MemberID
	match := etag.Parse(req.Params.IfMatch)
	err := writeTx(ctx, h.pool, memberID, func(q *db.Queries) error {
		c, err := ownCategory(ctx, q, memberID, &req.ID)
		if err != nil {
			return err
		}
		hasChildren, err := q.CategoryHasChildren(ctx, db.CategoryHasChildrenParams{MemberID: memberID, ID: &req.ID})
		if err != nil {
			return fmt.Errorf("children of category %d: %w", req.ID, err)
		}
		if hasChildren {
			return errHierarchy("a category with sub-categories cannot be deleted")
		}
		if req.Params.MoveTo != nil {
			if *req.Params.MoveTo == req.ID {
				return problem.Invalid("moveTo", "must be another category")
			}
			to, err := ownCategory(ctx, q, memberID, req.Params.MoveTo)
			if err != nil {
				return err
			}
			if to.Type != c.Type {
				return problem.Invalid("moveTo", "must be a category of the same type")
			}
			if err := q.MoveCategoryEntries(ctx, db.MoveCategoryEntriesParams{MemberID: memberID, CategoryID: &req.ID, ToCategoryID: req.Params.MoveTo}); err != nil {
				return refGone(err, fmt.Sprintf("move entries of category %d", req.ID))
			}
		} else {
			used, err := q.CategoryInUse(ctx, db.CategoryInUseParams{MemberID: memberID, CategoryID: &req.ID})
			if err != nil {
				return fmt.Errorf("category %d in use: %w", req.ID, err)
			}
			if used {
				return problem.Conflict(problem.CodeConflict, "entries use this category: name a moveTo category for them")
			}
		}
		if err := q.MoveCategoryTemplates(ctx, db.MoveCategoryTemplatesParams{MemberID: memberID, CategoryID: &req.ID, ToCategoryID: req.Params.MoveTo}); err != nil {
			return refGone(err, fmt.Sprintf("move templates of category %d", req.ID))
		}
		n, err := q.DeleteCategory(ctx, db.DeleteCategoryParams{MemberID: memberID, ID: req.ID, IfVersions: match.Versions()})
		if err == nil && n == 0 {
			return errMissed
		}
		return inUse(err, "the category")
	})
	if errors.Is(err, errMissed) {
		return nil, missed(match, ErrCategoryNotFound, func() (int64, error) {
			return db.New(h.pool).CategoryVersion(ctx, db.CategoryVersionParams{MemberID: memberID, ID: req.ID})
		})
	}
	if err != nil {
		return nil, err
	}
	return api.DeleteCategory204Response{}, nil
}

// ReorderCategories puts the listed categories first, in the given order.
func (h *LedgerHandler) ReorderCategories(ctx context.Context, req api.ReorderCategoriesRequestObject) (api.ReorderCategoriesResponseObject, error) {
	memberID := caller(ctx).MemberID
	if err := checkIDs(req.Body.Ids); err != nil {
		return nil, err
	}
	err := writeTx(ctx, h.pool, memberID, func(q *db.Queries) error {
		n, err := q.CountOwnedCategories(ctx, db.CountOwnedCategoriesParams{MemberID: memberID, Ids: req.Body.Ids})
		if err != nil {
			return fmt.Errorf("count categories: %w", err)
		}
		if n != int64(len(req.Body.Ids)) {
			return ErrCategoryNotFound
		}
		return q.ReorderCategories(ctx, db.ReorderCategoriesParams{MemberID: memberID, Ids: req.Body.Ids})
	})
	if err != nil {
		return nil, err
	}
	return api.ReorderCategories204Response{}, nil
}

// ImportDefaultCategories copies the default categories to the member.
func (h *LedgerHandler) ImportDefaultCategories(ctx context.Context, _ api.ImportDefaultCategoriesRequestObject) (api.ImportDefaultCategoriesResponseObject, error) {
	memberID := caller(ctx).MemberID
	tree, err := WriteTxV(ctx, h.pool, memberID, func(q *db.Queries) ([]api.Category, error) {
		if err := importDefaultsTx(ctx, q, memberID); err != nil {
			return nil, err
		}
		return categoryTree(ctx, q, memberID)
	})
	if err != nil {
		return nil, err
	}
	return api.ImportDefaultCategories200JSONResponse{Items: tree}, nil
}

// importDefaultsTx copies the default categories, both levels, skipping a
// name (of the same type) the member already has at that place. The
// member's reservation lock makes two imports at once add nothing twice.
func importDefaultsTx(ctx context.Context, q *db.Queries, memberID int64) error {
	if err := LockReservationsTx(ctx, q, memberID); err != nil {
		return err
	}
	defaults, err := q.ListDefaultCategories(ctx)
	if err != nil {
		return fmt.Errorf("default categories: %w", err)
	}
	mine, err := q.ListCategories(ctx, memberID)
	if err != nil {
		return fmt.Errorf("categories of member %d: %w", memberID, err)
	}
	type key struct {
		parent     int64 // 0 for top level
		name, kind string
	}
	have := map[key]int64{}
	for _, c := range mine {
		var parent int64
		if c.ParentID != nil {
			parent = *c.ParentID
		}
		have[key{parent, c.Name, c.Type}] = c.ID
	}
	copied := map[int64]int64{} // default id → the member's category id
	for _, level := range []bool{true, false} {
		for _, d := range defaults {
			if (d.ParentID == nil) != level {
				continue
			}
			var parent *int64
			var parentKey int64
			if d.ParentID != nil {
				id, ok := copied[*d.ParentID]
				if !ok {
					continue
				}
				parent, parentKey = &id, id
			}
			k := key{parentKey, d.Name, d.Type}
			if id, ok := have[k]; ok {
				copied[d.ID] = id
				continue
			}
			c, err := q.CreateCategory(ctx, db.CreateCategoryParams{MemberID: memberID, ParentID: parent, Name: d.Name, Type: d.Type})
			if err != nil {
				return fmt.Errorf("copy default category %d: %w", d.ID, err)
			}
			have[k] = c.ID
			copied[d.ID] = c.ID
		}
	}
	return nil
}
