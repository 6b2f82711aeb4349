// Package board is the community board: posts, comments, votes, reports,
// notices, images, tag groups and spam keywords, with their administrator
// operations. Points for board activity go through package points, inside the
// board's own transactions.
package board

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/idempotency"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/session"
)

// BoardHandler implements the board operations of the contract.
type BoardHandler struct {
	pool  *pgxpool.Pool
	clock clock.Clock
	// loc is the service time zone: the day of the points' daily caps.
	loc *time.Location
	// publicBaseURL prefixes the addresses of uploaded images.
	publicBaseURL string
	images        *ImageStore
	// keys store the answers of creates sent with an Idempotency-Key
	// (UseKeys).
	keys *idempotency.Store
}

// UseKeys sets the store of Idempotency-Keys the creates answer retries
// from.
func (h *BoardHandler) UseKeys(keys *idempotency.Store) { h.keys = keys }

// NewHandler returns the board handler.
func NewHandler(pool *pgxpool.Pool, c clock.Clock, loc *time.Location, publicBaseURL string, images *ImageStore) *BoardHandler {
	return &BoardHandler{pool: pool, clock: c, loc: loc, publicBaseURL: publicBaseURL, images: images}
}

// now is the current time in the service time zone.
func (h *BoardHandler) now() time.Time { return h.clock.Now().In(h.loc) }

// viewer is who reads the board: a member (0 for an anonymous reader) and
// whether they are an administrator (who sees blocked content), with the
// service's public address the answers' image addresses start with.
type viewer struct {
	memberID  int64
	admin     bool
	imageBase string
}

func (h *BoardHandler) viewerOf(ctx context.Context) viewer {
	v := viewer{imageBase: h.publicBaseURL}
	if p := session.PrincipalFrom(ctx); p != nil {
		v.memberID, v.admin = p.MemberID, p.IsAdmin()
	}
	return v
}

var (
	errPostNotFound     = problem.NotFound("post")
	errCommentNotFound  = problem.NotFound("comment")
	errImageNotFound    = problem.NotFound("image")
	errTagGroupNotFound = problem.NotFound("tag group")
)

// Block reasons, as stored and answered.
const (
	blockedByReports = "REPORTS"
	blockedAsSpam    = "SPAM"
)

// paging is a page request with the contract's defaults filled in.
type paging struct{ page, size int32 }

func pagingOf(page *api.Page, size *api.Size) paging {
	p := paging{page: 1, size: 20}
	if page != nil {
		p.page = *page
	}
	if size != nil {
		p.size = *size
	}
	return p
}

// offset fits in 32 bits: the contract caps page at 100,000 and size at 100.
func (p paging) offset() int32 { return (p.page - 1) * p.size }

// author is a member as the board shows them. A profile image comes from the
// queries as its path under imagePath and is answered as an absolute address:
// board answers never carry the image itself.
func (v viewer) author(id int64, name, avatar string) api.Author {
	if strings.HasPrefix(avatar, imagePath) {
		avatar = v.imageBase + avatar
	}
	a := api.Author{ID: id, Name: name}
	if avatar != "" {
		a.Avatar = &avatar
	}
	return a
}

// shownReason is the block reason a viewer may see: administrators only.
func shownReason(reason *string, v viewer) *api.BlockReasonValue {
	if !v.admin {
		return nil
	}
	return (*api.BlockReasonValue)(reason)
}
