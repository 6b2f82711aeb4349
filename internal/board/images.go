package board

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"time"

	"github.com/gabriel-vasile/mimetype"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/problem"
)

// maxImageBytes is the largest image accepted; the contract's
// x-max-body-bytes holds the whole request to it already.
const maxImageBytes = 5 << 20

// imageCacheControl: an image never changes once stored.
const imageCacheControl = "public, max-age=31536000, immutable"

// imageTypes are the media types accepted, as decided from the bytes.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

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

// UploadBoardImage stores an image from the multipart field "file".
func (h *BoardHandler) UploadBoardImage(ctx context.Context, req api.UploadBoardImageRequestObject) (api.UploadBoardImageResponseObject, error) {
	data, err := readImagePart(req.Body)
	if err != nil {
		return nil, err
	}
	id, err := StoreImage(ctx, db.New(h.pool), viewerOf(ctx).memberID, data, h.now())
	if err != nil {
		return nil, err
	}
	return api.UploadBoardImage201JSONResponse{URL: h.imageURL(id)}, nil
}

// readImagePart reads the first "file" part of the form.
func readImagePart(r *multipart.Reader) ([]byte, error) {
	for {
		part, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, problem.Invalid("file", "the form has no file field")
		}
		if err != nil {
			return nil, problem.Invalid("body", "the multipart form could not be read")
		}
		if part.FormName() != "file" {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(part, maxImageBytes+1))
		if err != nil {
			return nil, problem.Invalid("file", "the file could not be read")
		}
		if len(data) > maxImageBytes {
			return nil, problem.New(http.StatusRequestEntityTooLarge, problem.CodePayloadTooLarge, "an image is at most 5 MB")
		}
		return data, nil
	}
}

// StoreImage checks that data is a PNG, JPEG, GIF or WebP image, removes the
// location metadata of a JPEG, and stores it for the member.
func StoreImage(ctx context.Context, q *db.Queries, memberID int64, data []byte, now time.Time) (uuid.UUID, error) {
	if len(data) == 0 {
		return uuid.UUID{}, problem.Invalid("file", "the file is empty")
	}
	mt := mimetype.Detect(data).String()
	if !imageTypes[mt] {
		return uuid.UUID{}, problem.New(http.StatusUnsupportedMediaType, problem.CodeUnsupportedMediaType,
			"the file must be a PNG, JPEG, GIF or WebP image")
	}
	if mt == "image/jpeg" {
		var err error
		if data, err = stripJPEGMetadata(data); err != nil {
			return uuid.UUID{}, problem.Invalid("file", "the JPEG image is malformed")
		}
	}
	sum := sha256.Sum256(data)
	id, err := q.CreateBoardImage(ctx, db.CreateBoardImageParams{
		MemberID: memberID, ContentType: mt, Data: data, Sha256: hex.EncodeToString(sum[:]), Now: now,
	})
	if err != nil {
		return uuid.UUID{}, fmt.Errorf("store image of member %d: %w", memberID, err)
	}
	return uuid.UUID(id.Bytes), nil
}

// GetBoardImage serves an image, or 304 when the client's copy is current.
func (h *BoardHandler) GetBoardImage(ctx context.Context, req api.GetBoardImageRequestObject) (api.GetBoardImageResponseObject, error) {
	q := db.New(h.pool)
	id := pgtype.UUID{Bytes: req.ID, Valid: true}
	cacheControl := imageCacheControl
	if inm := req.Params.IfNoneMatch; inm != nil {
		sum, err := q.GetBoardImageTag(ctx, id)
		if err := database.NoRows(err, errImageNotFound, "read image tag"); err != nil {
			return nil, err
		}
		etag := `"` + sum + `"`
		if etagMatches(*inm, etag) {
			return api.GetBoardImage304Response{Headers: api.GetBoardImage304ResponseHeaders{CacheControl: &cacheControl, ETag: &etag}}, nil
		}
	}
	img, err := q.GetBoardImage(ctx, id)
	if err := database.NoRows(err, errImageNotFound, "read image"); err != nil {
		return nil, err
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

// stripJPEGMetadata removes every APP1 segment (Exif, where GPS position
// lives, and XMP, which can repeat it) from a JPEG, copying every other byte
// as it is. It walks the marker segments up to the start of scan; what
// follows (the compressed image) is copied unread.
func stripJPEGMetadata(data []byte) ([]byte, error) {
	if len(data) < 4 || data[0] != 0xFF || data[1] != 0xD8 {
		return nil, errors.New("no SOI marker")
	}
	out := make([]byte, 0, len(data))
	out = append(out, 0xFF, 0xD8)
	i := 2
	for {
		if i >= len(data) {
			return nil, errors.New("no start of scan")
		}
		if data[i] != 0xFF {
			return nil, fmt.Errorf("expected a marker at %d", i)
		}
		// Markers may be preceded by any number of 0xFF fill bytes.
		j := i
		for j < len(data) && data[j] == 0xFF {
			j++
		}
		if j >= len(data) {
			return nil, errors.New("truncated marker")
		}
		marker := data[j]
		start := j - 1 // keep one 0xFF, drop the fill
		j++
		// Markers without a length: TEM and RST0..7 (SOI would be a second image).
		if marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7) {
			out = append(out, 0xFF, marker)
			i = j
			continue
		}
		if marker == 0xD9 { // EOI before any scan
			return append(out, 0xFF, 0xD9), nil
		}
		if j+2 > len(data) {
			return nil, errors.New("truncated segment length")
		}
		length := int(data[j])<<8 | int(data[j+1])
		if length < 2 || j+length > len(data) {
			return nil, errors.New("bad segment length")
		}
		end := j + length
		if marker == 0xDA { // start of scan: the rest is image data
			return append(out, data[start:]...), nil
		}
		if marker != 0xE1 {
			out = append(out, data[start:end]...)
		}
		i = end
	}
}
