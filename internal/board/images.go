package board

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"strings"
	"time"

	"github.com/gabriel-vasile/mimetype"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/clock"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/etag"
	"github.com/nestegg/nestegg/internal/idempotency"
	"github.com/nestegg/nestegg/internal/imagemeta"
	"github.com/nestegg/nestegg/internal/jobs"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/throttle"
)

// maxImageBytes is the largest image accepted; the contract's
// x-max-body-bytes holds the whole request to it already.
const maxImageBytes = 5 << 20

// imageCacheControl: an image never changes once stored.
const imageCacheControl = "public, max-age=31536000, immutable"

const imagePath = "/api/images/"

// imageURL is the absolute address of an image.
func (h *BoardHandler) imageURL(id uuid.UUID) string {
	return h.publicBaseURL + imagePath + id.String()
}

// imageIDOf reads the image id out of an address imageURL made.
func (h *BoardHandler) imageIDOf(u string) (uuid.UUID, bool) {
	rest, ok := strings.CutPrefix(u, h.publicBaseURL+imagePath)
	if !ok {
		return uuid.UUID{}, false
	}
	id, err := uuid.Parse(rest)
	return id, err == nil && id.String() == rest
}

// UploadBoardImage stores an image from the multipart field "file". A
// retry under its Idempotency-Key is the same request when it sends the
// same image bytes: the multipart body is fingerprinted by the image it
// holds (its SHA-256), not its encoding (a new boundary), and answers the
// first image's address.
func (h *BoardHandler) UploadBoardImage(ctx context.Context, req api.UploadBoardImageRequestObject) (api.UploadBoardImageResponseObject, error) {
	data, err := readImagePart(req.Body)
	if err != nil {
		return nil, err
	}
	memberID := h.viewerOf(ctx).memberID
	sum := sha256.Sum256(data)
	asked := struct {
		File string `json:"file"`
	}{File: hex.EncodeToString(sum[:])}
	out, replayed, err := idempotency.Create(ctx, h.keys, "uploadBoardImage", req.Params.IdempotencyKey, asked, func(q *db.Queries) (etag.Tagged[api.ImageURL], error) {
		img, err := h.images.StoreTx(ctx, q, memberID, "/file", data)
		if err != nil {
			return etag.Tagged[api.ImageURL]{}, err
		}
		return etag.Tagged[api.ImageURL]{Body: api.ImageURL{URL: h.imageURL(img.ID)}}, nil
	})
	if err != nil {
		return nil, err
	}
	return api.UploadBoardImage201JSONResponse{Body: out.Body, Headers: api.UploadBoardImage201ResponseHeaders{IdempotentReplayed: replayed}}, nil
}

// readImagePart reads the first "file" part of the form.
func readImagePart(r *multipart.Reader) ([]byte, error) {
	for {
		part, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, problem.Invalid("/file", "the form has no file field")
		}
		if err != nil {
			return nil, problem.Invalid("body", "the multipart form could not be read")
		}
		if part.FormName() != "file" {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(part, maxImageBytes+1))
		if err != nil {
			return nil, problem.Invalid("/file", "the file could not be read")
		}
		if len(data) > maxImageBytes {
			return nil, problem.New(http.StatusRequestEntityTooLarge, problem.CodePayloadTooLarge, "an image is at most 5 MB")
		}
		return data, nil
	}
}

// ImageStore stores the images members upload, board images and profile
// images alike (both are public), at most a number a day per member.
type ImageStore struct {
	clock clock.Clock
	// loc is the service time zone: the day of the daily limit.
	loc    *time.Location
	limits ImageLimits
}

// ImageLimits bound what members upload.
type ImageLimits struct {
	// Daily is how many images one member may upload a day.
	Daily int
	// MaxPixels and MaxFrames bound what an image's headers declare: width ×
	// height (of the canvas or any frame) and frames. A decoder, here or in
	// a reader's browser, allocates what the headers declare, however small
	// the file.
	MaxPixels int64
	MaxFrames int
}

// NewImageStore returns a store that holds uploads to limits.
func NewImageStore(c clock.Clock, loc *time.Location, limits ImageLimits) *ImageStore {
	return &ImageStore{clock: c, loc: loc, limits: limits}
}

// imageTypes are the media types accepted, as decided from the bytes.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// imageType answers the accepted type data is, or "": a more specific type
// (an animated PNG, image/vnd.mozilla.apng) counts as its parent (image/png),
// which is how it is stored and served.
func imageType(data []byte) string {
	for mt := mimetype.Detect(data); mt != nil; mt = mt.Parent() {
		if imageTypes[mt.String()] {
			return mt.String()
		}
	}
	return ""
}

// StoreTx checks that data is a PNG, JPEG, GIF or WebP image within the
// store's limits, removes its metadata, counts it against the member's day
// and stores it, in the caller's transaction (so a failed write gives the
// upload back). field is where the request carries the image, for errors.
func (s *ImageStore) StoreTx(ctx context.Context, q *db.Queries, memberID int64, field string, data []byte) (StoredImage, error) {
	if len(data) == 0 {
		return StoredImage{}, problem.Invalid(field, "the file is empty")
	}
	mt := imageType(data)
	if mt == "" {
		return StoredImage{}, problem.New(http.StatusUnsupportedMediaType, problem.CodeUnsupportedMediaType,
			"the file must be a PNG, JPEG, GIF or WebP image")
	}
	// Images are public: no position, camera or comment may go with them.
	data, info, err := imagemeta.Strip(mt, data)
	if err != nil {
		return StoredImage{}, problem.Invalid(field, "the image is malformed")
	}
	if err := s.checkBounds(field, info); err != nil {
		return StoredImage{}, err
	}
	now := s.clock.Now().In(s.loc)
	if err := s.reserveTx(ctx, q, memberID, now); err != nil {
		return StoredImage{}, err
	}
	sum := sha256.Sum256(data)
	id, err := q.CreateBoardImage(ctx, db.CreateBoardImageParams{
		MemberID: memberID, ContentType: mt, Data: data, Sha256: hex.EncodeToString(sum[:]), Now: now,
	})
	if err != nil {
		return StoredImage{}, fmt.Errorf("store image of member %d: %w", memberID, err)
	}
	return StoredImage{ID: uuid.UUID(id.Bytes), Data: data}, nil
}

// checkBounds refuses an image whose headers declare more pixels or frames
// than the limits.
func (s *ImageStore) checkBounds(field string, info imagemeta.Info) error {
	if info.Pixels() > s.limits.MaxPixels {
		return problem.Invalid(field, fmt.Sprintf("the image is %d×%d pixels; at most %d are accepted",
			info.Width, info.Height, s.limits.MaxPixels))
	}
	if info.Frames > s.limits.MaxFrames {
		return problem.Invalid(field, fmt.Sprintf("the image has %d frames; at most %d are accepted",
			info.Frames, s.limits.MaxFrames))
	}
	return nil
}

// StoredImage is an image as stored: its id and its bytes without metadata.
type StoredImage struct {
	ID   uuid.UUID
	Data []byte
}

// reserveTx counts one upload against the member's day, or answers 429 with
// the time left until the next day when the day is used up.
func (s *ImageStore) reserveTx(ctx context.Context, q *db.Queries, memberID int64, now time.Time) error {
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, s.loc)
	_, err := q.ReserveImageUpload(ctx, db.ReserveImageUploadParams{
		MemberID: memberID, Day: day, DailyLimit: int32(s.limits.Daily),
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return throttle.Limited(day.AddDate(0, 0, 1).Sub(now),
			fmt.Sprintf("at most %d images a day", s.limits.Daily))
	}
	if err != nil {
		return fmt.Errorf("reserve an upload of member %d: %w", memberID, err)
	}
	return nil
}

// GetBoardImage serves an image, or 304 when the client's copy is current.
func (h *BoardHandler) GetBoardImage(ctx context.Context, req api.GetBoardImageRequestObject) (api.GetBoardImageResponseObject, error) {
	q := db.New(h.pool)
	id := pgtype.UUID{Bytes: req.ID, Valid: true}
	cacheControl := imageCacheControl
	if inm := req.Params.IfNoneMatch; inm != nil {
		tag, err := q.GetBoardImageTag(ctx, id)
		if err := database.NoRows(err, errImageNotFound, "read image tag"); err != nil {
			return nil, err
		}
		etag := `"` + tag.Sha256 + `"`
		if tag.MetaStripped && etagMatches(*inm, etag) {
			return api.GetBoardImage304Response{Headers: api.GetBoardImage304ResponseHeaders{CacheControl: &cacheControl, ETag: &etag}}, nil
		}
	}
	img, err := q.GetBoardImage(ctx, id)
	if err := database.NoRows(err, errImageNotFound, "read image"); err != nil {
		return nil, err
	}
	if !img.MetaStripped {
		// Stored before every metadata container was stripped: served
		// stripped until the image-cleanup job rewrites it, never as stored.
		data, _, err := imagemeta.Strip(img.ContentType, img.Data)
		if err != nil {
			slog.WarnContext(ctx, "an old image cannot be stripped of its metadata: not served", "image_id", req.ID, "error", err)
			return nil, errImageNotFound
		}
		sum := sha256.Sum256(data)
		img.Data, img.Sha256 = data, hex.EncodeToString(sum[:])
	}
	etag := `"` + img.Sha256 + `"`
	nosniff := "nosniff"
	headers := api.GetBoardImage200ResponseHeaders{CacheControl: &cacheControl, ETag: &etag, XContentTypeOptions: &nosniff}
	body, n := bytes.NewReader(img.Data), int64(len(img.Data))
	switch img.ContentType {
	case "image/png":
		return api.GetBoardImage200ImagePngResponse{Body: body, Headers: headers, ContentLength: n}, nil
	case "image/jpeg":
		return api.GetBoardImage200ImageJpegResponse{Body: body, Headers: headers, ContentLength: n}, nil
	case "image/gif":
		return api.GetBoardImage200ImageGifResponse{Body: body, Headers: headers, ContentLength: n}, nil
	default:
		return api.GetBoardImage200ImageWebpResponse{Body: body, Headers: headers, ContentLength: n}, nil
	}
}

// etagMatches applies If-None-Match (RFC 9110 13.1.2: weak comparison, a
// list of tags, or "*").
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

// unusedImageAge is how long an image may go unused after its upload: time
// for the member to finish the post or the profile it was uploaded for.
const unusedImageAge = 24 * time.Hour

// ImageCleanupJob deletes, hourly, images uploaded over a day ago that no
// post and no profile uses, and the upload counters of past days.
func ImageCleanupJob(pool *pgxpool.Pool, loc *time.Location) jobs.Job {
	return jobs.Job{
		Name:  "image-cleanup",
		Every: time.Hour,
		Run: func(ctx context.Context, now time.Time) error {
			q := db.New(pool)
			n, err := q.DeleteUnusedImages(ctx, now.Add(-unusedImageAge))
			if err != nil {
				return fmt.Errorf("delete unused images: %w", err)
			}
			if n > 0 {
				slog.Info("deleted unused images", "count", n)
			}
			if err := restripImages(ctx, q); err != nil {
				return err
			}
			// Yesterday's counter may still be in use across midnight.
			local := now.In(loc)
			day := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, loc).AddDate(0, 0, -1)
			if err := q.DeleteImageUploadDaysBefore(ctx, day); err != nil {
				return fmt.Errorf("delete old upload counters: %w", err)
			}
			return nil
		},
	}
}

// restripBatch is how many images stored before stripping one pass of the
// image-cleanup job rewrites; restripPasses bounds the passes of one run.
const (
	restripBatch  = 50
	restripPasses = 20
)

// restripImages rewrites images stored before every metadata container was
// stripped (meta_stripped false), a batch of ids at a time: each is read alone (one image in memory),
// stripped in Go with no connection held and saved unless it changed
// meanwhile. One whose container does not hold together is deleted: it
// cannot be shown without what it carries.
func restripImages(ctx context.Context, q *db.Queries) error {
	for range restripPasses {
		batch, err := q.ListUnstrippedImages(ctx, restripBatch)
		if err != nil {
			return fmt.Errorf("list unstripped images: %w", err)
		}
		for _, id := range batch {
			img, err := q.GetBoardImage(ctx, id)
			if errors.Is(err, pgx.ErrNoRows) {
				continue // deleted meanwhile
			}
			if err != nil {
				return fmt.Errorf("read unstripped image: %w", err)
			}
			if img.MetaStripped {
				continue
			}
			data, _, err := imagemeta.Strip(img.ContentType, img.Data)
			if err != nil {
				slog.WarnContext(ctx, "deleting an old image that cannot be stripped of its metadata", "image_id", uuid.UUID(id.Bytes), "error", err)
				if _, err := q.DeleteUnstrippableImage(ctx, id); err != nil {
					return fmt.Errorf("delete unstrippable image: %w", err)
				}
				continue
			}
			sum := sha256.Sum256(data)
			if _, err := q.SaveStrippedImage(ctx, db.SaveStrippedImageParams{ID: id, Data: data, Sha256: hex.EncodeToString(sum[:])}); err != nil {
				return fmt.Errorf("save stripped image: %w", err)
			}
		}
		if len(batch) < restripBatch {
			return nil
		}
	}
	return nil
}
