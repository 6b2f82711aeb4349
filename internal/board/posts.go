package board

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/idempotency"
	"github.com/nestegg/nestegg/internal/points"
	"github.com/nestegg/nestegg/internal/problem"
)

// Limits of a post (DECISIONS.md section 6).
const (
	maxTitle      = 100
	maxBody       = 20000
	maxPostTags   = 10
	maxPostImages = 10
	// maxRecommenders is how many up-voters a post's detail shows.
	maxRecommenders  = 100
	pointsForWriting = 10
)

// postRow is a post with its author, whichever query read it.
type postRow struct {
	post         db.Post
	authorName   string
	authorAvatar string
}

// toPost maps a post for a viewer; myVote is the viewer's vote ("" for none).
func toPost(r postRow, v viewer, myVote string, now time.Time) api.Post {
	p := r.post
	out := api.Post{
		ID:           p.ID,
		Category:     api.BoardCategoryValue(p.Category),
		Title:        p.Title,
		Body:         p.Body,
		Tags:         p.Tags,
		ImageUrls:    p.ImageUrls,
		Notice:       p.Notice,
		Blocked:      p.BlockReason != nil,
		BlockReason:  shownReason(p.BlockReason, v),
		UpCount:      p.UpCount,
		DownCount:    p.DownCount,
		CommentCount: p.CommentCount,
		Hot:          isHot(p.CreatedAt, p.UpCount, now),
		Author:       v.author(p.MemberID, r.authorName, r.authorAvatar),
		CreatedAt:    p.CreatedAt,
		UpdatedAt:    p.UpdatedAt,
	}
	if myVote != "" {
		out.MyVote = (*api.VoteDirectionValue)(&myVote)
	}
	return out
}

// ListPosts answers one page of the post list.
func (h *BoardHandler) ListPosts(ctx context.Context, req api.ListPostsRequestObject) (api.ListPostsResponseObject, error) {
	var f postFilter
	if req.Params.Category != nil {
		c := string(*req.Params.Category)
		f.category = &c
	}
	if req.Params.Tag != nil {
		t := strings.TrimSpace(*req.Params.Tag)
		f.tag = &t
	}
	p := pagingOf(req.Params.Page, req.Params.Size)
	page, err := ListPosts(ctx, db.New(h.pool), h.viewerOf(ctx), f, p, h.now())
	if err != nil {
		return nil, err
	}
	return api.ListPosts200JSONResponse(page), nil
}

// recentTopRows is the constant inner LIMIT of ListRecentPostsTop: the
// rows of the whole board it can page through (queries/post.sql says why).
const recentTopRows = 100

// postFilter narrows the post list to a board and a tag (nil: any).
type postFilter struct{ category, tag *string }

// ListPosts answers a page of the list: the notices, then at most 3 hot
// posts, then the rest newest first. The page is cut from that one sequence,
// and the rest leaves the hot posts out, so no post shows twice across pages.
func ListPosts(ctx context.Context, q *db.Queries, v viewer, f postFilter, p paging, now time.Time) (api.PostPage, error) {
	var total int64
	var err error
	if f.tag == nil {
		total, err = q.CountVisiblePosts(ctx, f.category)
	} else {
		total, err = q.CountPosts(ctx, db.CountPostsParams{Category: f.category, Tag: f.tag})
	}
	if err != nil {
		return api.PostPage{}, fmt.Errorf("count posts: %w", err)
	}
	notices, err := q.CountNoticePosts(ctx, db.CountNoticePostsParams{Category: f.category, Tag: f.tag})
	if err != nil {
		return api.PostPage{}, fmt.Errorf("count notices: %w", err)
	}
	hotRows, err := q.ListHotPosts(ctx, db.ListHotPostsParams{
		Category: f.category, Tag: f.tag, HotSince: hotSince(now), Lim: maxHotPosts,
	})
	if err != nil {
		return api.PostPage{}, fmt.Errorf("list hot posts: %w", err)
	}

	var rows []postRow
	off, want := int64(p.offset()), int64(p.size)
	if off < notices {
		list, err := q.ListNoticePosts(ctx, db.ListNoticePostsParams{Category: f.category, Tag: f.tag, Lim: int32(want), Off: int32(off)})
		if err != nil {
			return api.PostPage{}, fmt.Errorf("list notices: %w", err)
		}
		for _, r := range list {
			rows = append(rows, postRow{r.Post, r.AuthorName, r.AuthorAvatar})
		}
	}
	hotIDs := make([]int64, len(hotRows))
	for i, r := range hotRows {
		hotIDs[i] = r.Post.ID
		if pos := notices + int64(i); pos >= off && int64(len(rows)) < want {
			rows = append(rows, postRow{r.Post, r.AuthorName, r.AuthorAvatar})
		}
	}
	if left := want - int64(len(rows)); left > 0 {
		restOff := max(0, off-notices-int64(len(hotRows)))
		rest, err := recentPosts(ctx, q, f, hotIDs, int32(left), int32(restOff))
		if err != nil {
			return api.PostPage{}, fmt.Errorf("list posts: %w", err)
		}
		rows = append(rows, rest...)
	}
	items, err := postsFor(ctx, q, v, rows, now)
	if err != nil {
		return api.PostPage{}, err
	}
	return api.PostPage{Items: items, Page: p.page, Size: p.size, Total: total}, nil
}

// recentPosts reads the rest of the list (after the notices and hot posts).
// The whole board's first pages, the list members open most, come from
// ListRecentPostsTop, whose plan PostgreSQL keeps; the others from
// ListRecentPosts, planned for their filters each time.
func recentPosts(ctx context.Context, q *db.Queries, f postFilter, hotIDs []int64, lim, off int32) ([]postRow, error) {
	var rows []postRow
	if f.category == nil && f.tag == nil && int64(off)+int64(lim) <= recentTopRows {
		list, err := q.ListRecentPostsTop(ctx, db.ListRecentPostsTopParams{ExcludeIds: hotIDs, Lim: lim, Off: off})
		for _, r := range list {
			rows = append(rows, postRow{r.Post, r.AuthorName, r.AuthorAvatar})
		}
		return rows, err
	}
	list, err := q.ListRecentPosts(ctx, db.ListRecentPostsParams{
		Category: f.category, Tag: f.tag, ExcludeIds: hotIDs, Lim: lim, Off: off,
	})
	for _, r := range list {
		rows = append(rows, postRow{r.Post, r.AuthorName, r.AuthorAvatar})
	}
	return rows, err
}

// postsFor maps rows for a viewer, with their votes read in one query.
func postsFor(ctx context.Context, q *db.Queries, v viewer, rows []postRow, now time.Time) ([]api.Post, error) {
	votes := map[int64]string{}
	if v.memberID != 0 && len(rows) > 0 {
		ids := make([]int64, len(rows))
		for i, r := range rows {
			ids[i] = r.post.ID
		}
		list, err := q.ListMyPostVotes(ctx, db.ListMyPostVotesParams{MemberID: v.memberID, PostIds: ids})
		if err != nil {
			return nil, fmt.Errorf("votes of member %d: %w", v.memberID, err)
		}
		for _, vote := range list {
			votes[vote.PostID] = vote.Direction
		}
	}
	items := make([]api.Post, len(rows))
	for i, r := range rows {
		items[i] = toPost(r, v, votes[r.post.ID], now)
	}
	return items, nil
}

// ListMyPosts answers a page of the caller's own posts.
func (h *BoardHandler) ListMyPosts(ctx context.Context, req api.ListMyPostsRequestObject) (api.ListMyPostsResponseObject, error) {
	v := h.viewerOf(ctx)
	p := pagingOf(req.Params.Page, req.Params.Size)
	q := db.New(h.pool)
	total, err := q.CountMemberPosts(ctx, v.memberID)
	if err != nil {
		return nil, fmt.Errorf("count posts of member %d: %w", v.memberID, err)
	}
	list, err := q.ListMemberPosts(ctx, db.ListMemberPostsParams{MemberID: v.memberID, Lim: p.size, Off: p.offset()})
	if err != nil {
		return nil, fmt.Errorf("list posts of member %d: %w", v.memberID, err)
	}
	rows := make([]postRow, len(list))
	for i, r := range list {
		rows[i] = postRow{r.Post, r.AuthorName, r.AuthorAvatar}
	}
	items, err := postsFor(ctx, q, v, rows, h.now())
	if err != nil {
		return nil, err
	}
	return api.ListMyPosts200JSONResponse{Items: items, Page: p.page, Size: p.size, Total: total}, nil
}

// GetPost answers a post with its recommenders.
func (h *BoardHandler) GetPost(ctx context.Context, req api.GetPostRequestObject) (api.GetPostResponseObject, error) {
	post, err := GetPost(ctx, db.New(h.pool), h.viewerOf(ctx), req.ID, h.now())
	if err != nil {
		return nil, err
	}
	return api.GetPost200JSONResponse{Body: post}, nil
}

// GetPost reads a post as the viewer may see it, with its recommenders.
func GetPost(ctx context.Context, q *db.Queries, v viewer, id int64, now time.Time) (api.Post, error) {
	post, err := visiblePost(ctx, q, v, id, now)
	if err != nil {
		return api.Post{}, err
	}
	return withRecommenders(ctx, q, v, post)
}

// withRecommenders adds the post's recommenders, as its GET answers them.
func withRecommenders(ctx context.Context, q *db.Queries, v viewer, post api.Post) (api.Post, error) {
	voters, err := q.ListPostUpVoters(ctx, db.ListPostUpVotersParams{PostID: post.ID, Lim: maxRecommenders, Off: 0})
	if err != nil {
		return api.Post{}, fmt.Errorf("recommenders of post %d: %w", post.ID, err)
	}
	recommenders := make([]api.Author, len(voters))
	for i, r := range voters {
		recommenders[i] = v.author(r.ID, r.Name, r.Avatar)
	}
	post.Recommenders = &recommenders
	return post, nil
}

// visiblePost reads a post the viewer may see (a blocked one only for
// administrators), with the viewer's vote.
func visiblePost(ctx context.Context, q *db.Queries, v viewer, id int64, now time.Time) (api.Post, error) {
	row, err := q.GetPost(ctx, id)
	if err := database.NoRows(err, errPostNotFound, fmt.Sprintf("read post %d", id)); err != nil {
		return api.Post{}, err
	}
	if row.Post.BlockReason != nil && !v.admin {
		return api.Post{}, errPostNotFound
	}
	items, err := postsFor(ctx, q, v, []postRow{{row.Post, row.AuthorName, row.AuthorAvatar}}, now)
	if err != nil {
		return api.Post{}, err
	}
	return items[0], nil
}

// postInput is a validated post request.
type postInput struct {
	category, title, body string
	tags, imageURLs       []string
	imageIDs              []pgtype.UUID
	notice                bool
}

// postInputOf validates a post request; image addresses must be the
// author's uploads.
func (h *BoardHandler) postInputOf(ctx context.Context, q *db.Queries, authorID int64, b *api.PostRequest) (postInput, error) {
	var in postInput
	var err error
	in.category = string(b.Category)
	if !b.Category.Valid() {
		return in, problem.Invalid("/category", "must be community, saving or tips")
	}
	if in.title, err = requiredText("/title", b.Title, maxTitle, false); err != nil {
		return in, err
	}
	if in.body, err = requiredText("/body", b.Body, maxBody, true); err != nil {
		return in, err
	}
	in.tags = []string{}
	if b.Tags != nil {
		if in.tags, err = tagList("/tags", *b.Tags, maxPostTags); err != nil {
			return in, err
		}
	}
	in.imageURLs, in.imageIDs = []string{}, []pgtype.UUID{}
	if b.ImageUrls != nil {
		if in.imageURLs, in.imageIDs, err = h.ownImages(ctx, q, authorID, *b.ImageUrls); err != nil {
			return in, err
		}
	}
	in.notice = b.Notice != nil && *b.Notice
	return in, nil
}

// ownImages checks that every address is one this service answered for an
// image of the member, and answers them and their ids without repeats. The
// images stay locked against the cleanup job until the transaction ends.
func (h *BoardHandler) ownImages(ctx context.Context, q *db.Queries, memberID int64, urls []string) ([]string, []pgtype.UUID, error) {
	if len(urls) > maxPostImages {
		return nil, nil, problem.Invalid("/imageUrls", fmt.Sprintf("at most %d images", maxPostImages))
	}
	out := make([]string, 0, len(urls))
	ids := make([]pgtype.UUID, 0, len(urls))
	seen := map[uuid.UUID]bool{}
	for i, u := range urls {
		id, ok := h.imageIDOf(u)
		if !ok {
			return nil, nil, problem.Invalid(fmt.Sprintf("/imageUrls/%d", i), "must be an address answered by uploadBoardImage")
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, h.imageURL(id))
			ids = append(ids, pgtype.UUID{Bytes: id, Valid: true})
		}
	}
	if len(ids) == 0 {
		return out, ids, nil
	}
	found, err := q.LockMemberImages(ctx, db.LockMemberImagesParams{MemberID: memberID, Ids: ids})
	if err != nil {
		return nil, nil, fmt.Errorf("check images of member %d: %w", memberID, err)
	}
	if len(found) != len(ids) {
		return nil, nil, problem.Invalid("/imageUrls", "every image must be one you uploaded")
	}
	return out, ids, nil
}

// setPostImagesTx records which images a post shows (what keeps them from
// the cleanup job).
func setPostImagesTx(ctx context.Context, q *db.Queries, postID int64, ids []pgtype.UUID) error {
	if err := q.DeletePostImages(ctx, postID); err != nil {
		return fmt.Errorf("clear images of post %d: %w", postID, err)
	}
	if err := q.AddPostImages(ctx, db.AddPostImagesParams{PostID: postID, ImageIds: ids}); err != nil {
		return fmt.Errorf("record images of post %d: %w", postID, err)
	}
	return nil
}

// CreatePost writes a post.
func (h *BoardHandler) CreatePost(ctx context.Context, req api.CreatePostRequestObject) (api.CreatePostResponseObject, error) {
	v := h.viewerOf(ctx)
	now := h.now()
	out, replayed, err := idempotency.Create(ctx, h.keys, "createPost", req.Params.IdempotencyKey, req, func(q *db.Queries) (etag.Tagged[api.Post], error) {
		in, err := h.postInputOf(ctx, q, v.memberID, req.Body)
		if err != nil {
			return etag.Tagged[api.Post]{}, err
		}
		id, err := createPostTx(ctx, q, v, in, now)
		if err != nil {
			return etag.Tagged[api.Post]{}, err
		}
		return readPostTagged(ctx, q, v, id, now)
	})
	if err != nil {
		return nil, err
	}
	return api.CreatePost201JSONResponse{Body: out.Body, Headers: api.CreatePost201ResponseHeaders{
		ETag: etag.Ptr(out.ETag), IdempotentReplayed: replayed,
	}}, nil
}

// createPostTx stores a post, blocked when it contains a spam keyword, and
// awards the author's points for writing it otherwise; it answers the
// post's id.
func createPostTx(ctx context.Context, q *db.Queries, v viewer, in postInput, now time.Time) (int64, error) {
	spam, err := spamReasonTx(ctx, q, in.title, in.body)
	if err != nil {
		return 0, err
	}
	id, err := q.CreatePost(ctx, db.CreatePostParams{
		MemberID: v.memberID, Category: in.category, Title: in.title, Body: in.body,
		Tags: in.tags, ImageUrls: in.imageURLs, Notice: in.notice && v.admin, BlockReason: spam, Now: now,
	})
	if err != nil {
		return 0, fmt.Errorf("create post: %w", err)
	}
	if err := setPostImagesTx(ctx, q, id, in.imageIDs); err != nil {
		return 0, err
	}
	if spam == nil {
		if _, err := points.AwardTx(ctx, q, v.memberID, pointsForWriting, points.ReasonPostWritten, points.WriteCap, now); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// readPost reads a post whatever its state (for its author's own answer:
// they see their post as stored even when it was blocked as spam), as its
// GET answers it, and its version.
func readPost(ctx context.Context, q *db.Queries, v viewer, id int64, now time.Time) (api.Post, int64, error) {
	row, err := q.GetPost(ctx, id)
	if err := database.NoRows(err, errPostNotFound, fmt.Sprintf("read post %d", id)); err != nil {
		return api.Post{}, 0, err
	}
	items, err := postsFor(ctx, q, v, []postRow{{row.Post, row.AuthorName, row.AuthorAvatar}}, now)
	if err != nil {
		return api.Post{}, 0, err
	}
	post, err := withRecommenders(ctx, q, v, items[0])
	return post, row.Post.Version, err
}

// readPostTagged is readPost with the post's ETag, of its version as the
// write's transaction leaves it (read after the write).
func readPostTagged(ctx context.Context, q *db.Queries, v viewer, id int64, now time.Time) (etag.Tagged[api.Post], error) {
	post, version, err := readPost(ctx, q, v, id, now)
	if err != nil {
		return etag.Tagged[api.Post]{}, err
	}
	return etag.Answered(version, post)
}

// UpdatePost edits the caller's post, at the version If-Match names (none:
// any).
func (h *BoardHandler) UpdatePost(ctx context.Context, req api.UpdatePostRequestObject) (api.UpdatePostResponseObject, error) {
	v := h.viewerOf(ctx)
	now := h.now()
	match := etag.Parse(req.Params.IfMatch)
	out, err := database.InTxV(ctx, h.pool, func(q *db.Queries) (etag.Tagged[api.Post], error) {
		p, err := lockPost(ctx, q, v, req.ID)
		if err != nil {
			return etag.Tagged[api.Post]{}, err
		}
		if p.MemberID != v.memberID {
			return etag.Tagged[api.Post]{}, errPostNotFound
		}
		// The post is locked: its version is the one the UPDATE meets.
		if !match.Hits(p.Version) {
			return etag.Tagged[api.Post]{}, postFailed(ctx, q, v, p, now)
		}
		in, err := h.postInputOf(ctx, q, v.memberID, req.Body)
		if err != nil {
			return etag.Tagged[api.Post]{}, err
		}
		reason, err := reasonAfterEdit(ctx, q, p.BlockReason, in.title, in.body)
		if err != nil {
			return etag.Tagged[api.Post]{}, err
		}
		n, err := q.UpdatePost(ctx, db.UpdatePostParams{
			ID: p.ID, Category: in.category, Title: in.title, Body: in.body,
			Tags: in.tags, ImageUrls: in.imageURLs, BlockReason: reason, Now: now,
			IfVersions: match.Versions(),
		})
		if err != nil {
			return etag.Tagged[api.Post]{}, fmt.Errorf("update post %d: %w", p.ID, err)
		}
		if n == 0 {
			return etag.Tagged[api.Post]{}, postFailed(ctx, q, v, p, now)
		}
		if err := setPostImagesTx(ctx, q, p.ID, in.imageIDs); err != nil {
			return etag.Tagged[api.Post]{}, err
		}
		return readPostTagged(ctx, q, v, p.ID, now)
	})
	if err != nil {
		return nil, err
	}
	return api.UpdatePost200JSONResponse{Body: out.Body, Headers: api.UpdatePost200ResponseHeaders{ETag: etag.Ptr(out.ETag)}}, nil
}

// reasonAfterEdit re-checks edited content: a spam keyword blocks it as spam;
// without one, a block as spam is lifted; a block by reports stays.
func reasonAfterEdit(ctx context.Context, q *db.Queries, current *string, texts ...string) (*string, error) {
	if current != nil && *current == blockedByReports {
		return current, nil
	}
	return spamReasonTx(ctx, q, texts...)
}

// lockPost locks a post the viewer may see (a blocked one only for
// administrators) until the transaction ends.
func lockPost(ctx context.Context, q *db.Queries, v viewer, id int64) (db.Post, error) {
	p, err := q.GetPostForUpdate(ctx, id)
	if err := database.NoRows(err, errPostNotFound, fmt.Sprintf("lock post %d", id)); err != nil {
		return db.Post{}, err
	}
	if p.BlockReason != nil && !v.admin {
		return db.Post{}, errPostNotFound
	}
	return p, nil
}

// DeletePost deletes a post (its author's, or any for administrators), at
// the version If-Match names (none: any).
func (h *BoardHandler) DeletePost(ctx context.Context, req api.DeletePostRequestObject) (api.DeletePostResponseObject, error) {
	v := h.viewerOf(ctx)
	match := etag.Parse(req.Params.IfMatch)
	err := database.InTx(ctx, h.pool, func(q *db.Queries) error {
		p, err := lockPost(ctx, q, v, req.ID)
		if err != nil {
			return err
		}
		if p.MemberID != v.memberID && !v.admin {
			return errPostNotFound
		}
		if !match.Hits(p.Version) {
			return postFailed(ctx, q, v, p, h.now())
		}
		n, err := q.DeletePost(ctx, db.DeletePostParams{ID: p.ID, IfVersions: match.Versions()})
		if err != nil {
			return fmt.Errorf("delete post %d: %w", p.ID, err)
		}
		if n == 0 {
			return postFailed(ctx, q, v, p, h.now())
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return api.DeletePost204Response{}, nil
}

// ListPostRecommenders answers a page of a post's up-voters.
func (h *BoardHandler) ListPostRecommenders(ctx context.Context, req api.ListPostRecommendersRequestObject) (api.ListPostRecommendersResponseObject, error) {
	v := h.viewerOf(ctx)
	p := pagingOf(req.Params.Page, req.Params.Size)
	q := db.New(h.pool)
	post, err := visiblePost(ctx, q, v, req.ID, h.now())
	if err != nil {
		return nil, err
	}
	voters, err := q.ListPostUpVoters(ctx, db.ListPostUpVotersParams{PostID: req.ID, Lim: p.size, Off: p.offset()})
	if err != nil {
		return nil, fmt.Errorf("recommenders of post %d: %w", req.ID, err)
	}
	items := make([]api.Author, len(voters))
	for i, r := range voters {
		items[i] = v.author(r.ID, r.Name, r.Avatar)
	}
	return api.ListPostRecommenders200JSONResponse{Items: items, Page: p.page, Size: p.size, Total: int64(post.UpCount)}, nil
}
