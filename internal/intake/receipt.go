package intake

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/calendar"
	"github.com/nestegg/nestegg/internal/external/ocr"
	"github.com/nestegg/nestegg/internal/intake/parser"
	"github.com/nestegg/nestegg/internal/problem"
	"github.com/nestegg/nestegg/internal/quota"
	"github.com/nestegg/nestegg/internal/session"
)

// MaxReceiptBytes is the largest receipt image (10 MiB); the contract's body
// limit adds room for the multipart envelope.
const MaxReceiptBytes = 10 << 20

// Retry-After of the 503s: an outage is often short, a missing key is not.
const (
	retryAfter              = "30"
	retryAfterNotConfigured = "3600"
)

func notConfigured(cause error) error {
	p := problem.Unavailable(problem.CodeOCRNotConfigured, "receipt OCR is not configured on this service", cause)
	p.Headers = map[string]string{"Retry-After": retryAfterNotConfigured}
	return p
}

// RecognizeReceipt answers the text of a receipt image and a draft from it.
func (h *DraftHandler) RecognizeReceipt(ctx context.Context, req api.RecognizeReceiptRequestObject) (api.RecognizeReceiptResponseObject, error) {
	if !h.ocr.Configured() {
		return nil, notConfigured(nil)
	}
	image, err := receiptFile(req.Body)
	if err != nil {
		return nil, err
	}
	text, draft, err := h.Receipt(ctx, session.PrincipalFrom(ctx).MemberID, image)
	if err != nil {
		return nil, err
	}
	out := api.RecognizeReceipt200JSONResponse{Text: text}
	if draft != nil {
		out.Draft = &api.ReceiptDraft{}
		if draft.Merchant != "" {
			out.Draft.Merchant = &draft.Merchant
		}
		if draft.Total > 0 {
			out.Draft.Total = &draft.Total
		}
		if !draft.Date.IsZero() {
			out.Draft.Date = &openapi_types.Date{Time: calendar.Day(draft.Date, h.loc)}
		}
	}
	return out, nil
}

// Receipt recognises the image's text and reads a draft out of it (nil when
// the rule parser finds nothing). The OCR call counts against the member's
// daily OCR limit (429 over it).
func (h *DraftHandler) Receipt(ctx context.Context, memberID int64, image []byte) (string, *parser.Receipt, error) {
	if h.ocr.Configured() {
		if err := h.meter.Reserve(ctx, memberID, quota.OCR); err != nil {
			return "", nil, err
		}
	}
	text, err := h.ocr.Text(ctx, image)
	switch {
	case errors.Is(err, ocr.ErrNotConfigured):
		return "", nil, notConfigured(err)
	case err != nil:
		if ctx.Err() != nil {
			return "", nil, ctx.Err()
		}
		p := problem.Unavailable(problem.CodeDependencyUnavailable, "the OCR service is not answering; try again later", err)
		p.Headers = map[string]string{"Retry-After": retryAfter}
		return "", nil, p
	}
	r, ok := parser.ParseReceipt(text, h.clock.Now().In(h.loc))
	if !ok {
		return text, nil, nil
	}
	return text, &r, nil
}

// receiptFile reads the multipart field "file": an image of at most
// MaxReceiptBytes whose bytes are an image (or a PDF scan).
func receiptFile(body *multipart.Reader) ([]byte, error) {
	if body == nil {
		return nil, problem.Invalid("/file", "send the image as the multipart field file")
	}
	for {
		part, err := body.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, problem.Invalid("/file", "send the image as the multipart field file")
		}
		if err != nil {
			return nil, &problem.Error{Status: http.StatusBadRequest, Code: problem.CodeValidationFailed,
				Detail: "the multipart body could not be read", Fields: []problem.FieldError{{Field: "/file", Message: "malformed multipart body"}}, Err: err}
		}
		if part.FormName() != "file" {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(part, MaxReceiptBytes+1))
		if err != nil {
			return nil, &problem.Error{Status: http.StatusBadRequest, Code: problem.CodeValidationFailed,
				Detail: "the file could not be read", Fields: []problem.FieldError{{Field: "/file", Message: "malformed multipart body"}}, Err: err}
		}
		if len(data) > MaxReceiptBytes {
			return nil, problem.New(http.StatusRequestEntityTooLarge, problem.CodePayloadTooLarge,
				fmt.Sprintf("the image is over %d bytes", MaxReceiptBytes))
		}
		if len(data) == 0 {
			return nil, problem.Invalid("/file", "the file is empty")
		}
		if !isImage(data) {
			return nil, problem.New(http.StatusUnsupportedMediaType, problem.CodeUnsupportedMediaType,
				"the file must be a PNG, JPEG, GIF, WebP, BMP, TIFF or PDF")
		}
		return data, nil
	}
}

func isImage(data []byte) bool {
	switch http.DetectContentType(data) {
	case "image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "application/pdf":
		return true
	}
	return bytes.HasPrefix(data, []byte("II*\x00")) || bytes.HasPrefix(data, []byte("MM\x00*"))
}
