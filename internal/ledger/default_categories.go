package ledger

import (
	"context"
	"fmt"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/problem"
)

// ErrDefaultCategoryNotFound answers a default category that does not exist.
var ErrDefaultCategoryNotFound = problem.NotFound("default category")

// The shared default categories have the shape of a member's, so they are
// shown and checked the same way.
func asMemberCategory(d db.DefaultCategory) db.AccountCategory {
	return db.AccountCategory{ID: d.ID, ParentID: d.ParentID, Name: d.Name, Type: d.Type, SortOrder: d.SortOrder}
}

func defaultTree(ctx context.Context, q *db.Queries) ([]db.AccountCategory, error) {
	rows, err := q.ListDefaultCategories(ctx)
	if err != nil {
		return nil, fmt.Errorf("default categories: %w", err)
	}
	out := make([]db.AccountCategory, len(rows))
	for i, r := range rows {
		out[i] = asMemberCategory(r)
	}
	return out, nil
}

func getDefault(ctx context.Context, q *db.Queries, id *int64) (*db.DefaultCategory, error) {
	if id == nil {
		return nil, nil
	}
	d, err := q.GetDefaultCategory(ctx, *id)
	if err := database.NoRows(err, ErrDefaultCategoryNotFound, fmt.Sprintf("default category %d", *id)); err != nil {
		return nil, err
	}
	return &d, nil
}

func defaultNode(d *db.DefaultCategory) *node {
	if d == nil {
		return nil
	}
	return &node{ID: d.ID, ParentID: d.ParentID, Type: d.Type}
}

// defaultWithChildren answers a default category as the wire shows it.
func defaultWithChildren(ctx context.Context, q *db.Queries, d db.DefaultCategory) (api.Category, error) {
	all, err := defaultTree(ctx, q)
	if err != nil {
		return api.Category{}, err
	}
	var children []db.AccountCategory
	for _, c := range all {
		if c.ParentID != nil && *c.ParentID == d.ID {
			children = append(children, c)
		}
	}
	return toAPICategory(asMemberCategory(d), children), nil
}

// ListDefaultCategories answers the default category tree.
func (h *LedgerHandler) ListDefaultCategories(ctx context.Context, _ api.ListDefaultCategoriesRequestObject) (api.ListDefaultCategoriesResponseObject, error) {
	rows, err := defaultTree(ctx, db.New(h.pool))
	if err != nil {
		return nil, err
	}
	return api.ListDefaultCategories200JSONResponse{Items: buildTree(rows)}, nil
}

// GetDefaultCategory answers one default category with its sub-categories.
func (h *LedgerHandler) GetDefaultCategory(ctx context.Context, req api.GetDefaultCategoryRequestObject) (api.GetDefaultCategoryResponseObject, error) {
	q := db.New(h.pool)
	d, err := getDefault(ctx, q, &req.ID)
	if err != nil {
		return nil, err
	}
	out, err := defaultWithChildren(ctx, q, *d)
	if err != nil {
		return nil, err
	}
	return api.GetDefaultCategory200JSONResponse(out), nil
}

// CreateDefaultCategory creates a default category, placed last.
func (h *LedgerHandler) CreateDefaultCategory(ctx context.Context, req api.CreateDefaultCategoryRequestObject) (api.CreateDefaultCategoryResponseObject, error) {
	in, err := CategoryInputFrom(*req.Body)
	if err != nil {
		return nil, err
	}
	d, err := database.InTxV(ctx, h.pool, func(q *db.Queries) (db.DefaultCategory, error) {
		if err := q.LockDefaultCategories(ctx); err != nil {
			return db.DefaultCategory{}, fmt.Errorf("lock default categories: %w", err)
		}
		parent, err := getDefault(ctx, q, in.ParentID)
		if err != nil {
			return db.DefaultCategory{}, err
		}
		if err := checkPlacement(0, in.Type, defaultNode(parent), false); err != nil {
			return db.DefaultCategory{}, err
		}
		d, err := q.CreateDefaultCategory(ctx, db.CreateDefaultCategoryParams{ParentID: in.ParentID, Name: in.Name, Type: in.Type})
		if err != nil {
			return db.DefaultCategory{}, fmt.Errorf("create default category: %w", err)
		}
		return d, nil
	})
	if err != nil {
		return nil, err
	}
	return api.CreateDefaultCategory201JSONResponse(toAPICategory(asMemberCategory(d), nil)), nil
}

// UpdateDefaultCategory renames, retypes or moves a default category.
func (h *LedgerHandler) UpdateDefaultCategory(ctx context.Context, req api.UpdateDefaultCategoryRequestObject) (api.UpdateDefaultCategoryResponseObject, error) {
	in, err := CategoryInputFrom(*req.Body)
	if err != nil {
		return nil, err
	}
	out, err := database.InTxV(ctx, h.pool, func(q *db.Queries) (api.Category, error) {
		if err := q.LockDefaultCategories(ctx); err != nil {
			return api.Category{}, fmt.Errorf("lock default categories: %w", err)
		}
		if _, err := getDefault(ctx, q, &req.ID); err != nil {
			return api.Category{}, err
		}
		parent, err := getDefault(ctx, q, in.ParentID)
		if err != nil {
			return api.Category{}, err
		}
		hasChildren, err := q.DefaultCategoryHasChildren(ctx, &req.ID)
		if err != nil {
			return api.Category{}, fmt.Errorf("children of default category %d: %w", req.ID, err)
		}
		if err := checkPlacement(req.ID, in.Type, defaultNode(parent), hasChildren); err != nil {
			return api.Category{}, err
		}
		d, err := q.UpdateDefaultCategory(ctx, db.UpdateDefaultCategoryParams{ID: req.ID, ParentID: in.ParentID, Name: in.Name, Type: in.Type})
		if err != nil {
			return api.Category{}, fmt.Errorf("update default category %d: %w", req.ID, err)
		}
		if err := q.SetChildDefaultCategoriesType(ctx, db.SetChildDefaultCategoriesTypeParams{ParentID: &req.ID, Type: in.Type}); err != nil {
			return api.Category{}, fmt.Errorf("retype children of default category %d: %w", req.ID, err)
		}
		return defaultWithChildren(ctx, q, d)
	})
	if err != nil {
		return nil, err
	}
	return api.UpdateDefaultCategory200JSONResponse(out), nil
}

// DeleteDefaultCategory deletes a default category without sub-categories.
func (h *LedgerHandler) DeleteDefaultCategory(ctx context.Context, req api.DeleteDefaultCategoryRequestObject) (api.DeleteDefaultCategoryResponseObject, error) {
	err := database.InTx(ctx, h.pool, func(q *db.Queries) error {
		if err := q.LockDefaultCategories(ctx); err != nil {
			return fmt.Errorf("lock default categories: %w", err)
		}
		if _, err := getDefault(ctx, q, &req.ID); err != nil {
			return err
		}
		hasChildren, err := q.DefaultCategoryHasChildren(ctx, &req.ID)
		if err != nil {
			return fmt.Errorf("children of default category %d: %w", req.ID, err)
		}
		if hasChildren {
			return errHierarchy("a category with sub-categories cannot be deleted")
		}
		_, err = q.DeleteDefaultCategory(ctx, req.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return api.DeleteDefaultCategory204Response{}, nil
}

// ReorderDefaultCategories puts the listed default categories first.
func (h *LedgerHandler) ReorderDefaultCategories(ctx context.Context, req api.ReorderDefaultCategoriesRequestObject) (api.ReorderDefaultCategoriesResponseObject, error) {
	if err := checkIDs(req.Body.Ids); err != nil {
		return nil, err
	}
	err := database.InTx(ctx, h.pool, func(q *db.Queries) error {
		n, err := q.CountDefaultCategories(ctx, req.Body.Ids)
		if err != nil {
			return fmt.Errorf("count default categories: %w", err)
		}
		if n != int64(len(req.Body.Ids)) {
			return ErrDefaultCategoryNotFound
		}
		return q.ReorderDefaultCategories(ctx, req.Body.Ids)
	})
	if err != nil {
		return nil, err
	}
	return api.ReorderDefaultCategories204Response{}, nil
}
