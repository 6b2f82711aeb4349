// Package ocr is the client of a Vision-style images:annotate OCR API
// (OCR_API_URL, OCR_API_KEY):
//
//	POST {OCR_API_URL}   (the images:annotate address; X-Goog-Api-Key: key)
//	{"requests":[{"image":{"content":"<base64>"},"features":[{"type":"TEXT_DETECTION"}]}]}
//	200 {"responses":[{"fullTextAnnotation":{"text":"..."},"textAnnotations":[{"description":"..."}]}]}
//
// A per-image failure comes back inside the 200 as responses[0].error; a
// failure of the whole call as an error status with {"error":{...}}.
package ocr

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/nestegg/nestegg/internal/external/httpcall"
)

// DefaultURL is the images:annotate address used when OCR_API_URL is unset.
const DefaultURL = "https://vision.googleapis.com/v1/images:annotate"

var (
	// ErrNotConfigured means OCR_API_KEY is unset.
	ErrNotConfigured = errors.New("ocr: OCR_API_KEY is not set")
	// ErrUnavailable wraps every failure of the service.
	ErrUnavailable = errors.New("ocr: service unavailable")
)

// Timeout bounds one call: a 10 MB image takes a while to upload.
const Timeout = 15 * time.Second

const maxAnswer = 8 << 20

// Client calls the OCR API.
type Client struct {
	api httpcall.Endpoint
	key string
}

// New returns a client; an empty key leaves it unconfigured.
func New(url, key string, httpClient *http.Client) *Client {
	if url == "" {
		url = DefaultURL
	}
	return &Client{api: httpcall.Endpoint{URL: url, HTTP: httpClient, Timeout: Timeout, MaxAnswer: maxAnswer}, key: key}
}

// Configured reports whether a key is set.
func (c *Client) Configured() bool { return c != nil && c.key != "" }

// apiError is the error object of the API, at the top level or per image.
type apiError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Status  string `json:"status"`
}

// annotateAnswer is the answer of images:annotate, a failed call's included.
type annotateAnswer struct {
	Error     *apiError `json:"error"`
	Responses []struct {
		Error              *apiError `json:"error"`
		FullTextAnnotation *struct {
			Text string `json:"text"`
		} `json:"fullTextAnnotation"`
		TextAnnotations []struct {
			Description string `json:"description"`
		} `json:"textAnnotations"`
	} `json:"responses"`
}

// Text returns the full text recognised in image ("" when it has none).
func (c *Client) Text(ctx context.Context, image []byte) (string, error) {
	if !c.Configured() {
		return "", ErrNotConfigured
	}
	body, err := json.Marshal(map[string]any{
		"requests": []map[string]any{{
			"image":    map[string]string{"content": base64.StdEncoding.EncodeToString(image)},
			"features": []map[string]string{{"type": "TEXT_DETECTION"}},
		}},
	})
	if err != nil {
		return "", fmt.Errorf("ocr: encode request: %w", err)
	}
	raw, err := c.api.Post(ctx, "", http.Header{"Content-Type": {"application/json"}, "X-Goog-Api-Key": {c.key}}, body)
	if refused, ok := errors.AsType[*httpcall.StatusError](err); ok {
		var failed annotateAnswer
		if json.Unmarshal(refused.Body, &failed) == nil && failed.Error != nil {
			return "", fmt.Errorf("%w: status %d: %s %s", ErrUnavailable, refused.Status, failed.Error.Status, failed.Error.Message)
		}
	}
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	var answer annotateAnswer
	if err := json.Unmarshal(raw, &answer); err != nil {
		return "", fmt.Errorf("%w: malformed answer: %v", ErrUnavailable, err)
	}
	if len(answer.Responses) == 0 {
		return "", fmt.Errorf("%w: no response for the image", ErrUnavailable)
	}
	r := answer.Responses[0]
	if r.Error != nil && r.Error.Code != 0 {
		return "", fmt.Errorf("%w: image error %d: %s", ErrUnavailable, r.Error.Code, r.Error.Message)
	}
	if r.FullTextAnnotation != nil {
		return r.FullTextAnnotation.Text, nil
	}
	if len(r.TextAnnotations) > 0 {
		return r.TextAnnotations[0].Description, nil
	}
	return "", nil // no text in the image
}
