package intake_test

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/external/ocr/ocrtest"
	"github.com/nestegg/nestegg/internal/intake"
	"github.com/nestegg/nestegg/internal/problem"
)

// pngHeader is enough of a PNG for content sniffing.
var pngHeader = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00")

func withOCR(fake *ocrtest.Server) apitest.Option {
	return apitest.WithConfig(func(cfg *config.Config) {
		cfg.OCRAPIURL = fake.URL()
		cfg.OCRAPIKey = ocrtest.Key
	})
}

func multipartBody(t *testing.T, field string, file []byte) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	part, err := w.CreateFormFile(field, "receipt.png")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = part.Write(file)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.FormDataContentType(), buf.Bytes()
}

func upload(m *apitest.Member, t *testing.T, file []byte) *apitest.Response {
	t.Helper()
	ct, body := multipartBody(t, "file", file)
	return m.Send(http.MethodPost, "/api/account/ocr/receipt", ct, body)
}

func TestReceiptTextAndDraft(t *testing.T) {
	t.Parallel()
	fake := ocrtest.New(t)
	env := apitest.New(t, withOCR(fake))
	m := env.NewMember(apitest.AsPremium())
	image := append(append([]byte{}, pngHeader...), bytes.Repeat([]byte{7}, 1000)...)
	var got api.ReceiptText
	upload(m, t, image).Want(http.StatusOK).JSON(&got)
	if got.Draft == nil || got.Draft.Merchant == nil || *got.Draft.Merchant != "스타벅스 역삼점" ||
		got.Draft.Total == nil || *got.Draft.Total != 9000 || got.Draft.Date == nil || got.Draft.Date.Format(time.DateOnly) != "2026-11-15" {
		t.Fatalf("got %+v", got)
	}
	if !bytes.Equal(fake.LastImage(), image) {
		t.Fatal("the OCR service did not get the image as sent")
	}

	fake.SetMode(ocrtest.OnlyAnnotations)
	fake.SetText("영수증\n12/34 abc")
	upload(m, t, image).Want(http.StatusOK).JSON(&got)
	if got.Text != "영수증\n12/34 abc" || got.Draft != nil {
		t.Fatalf("annotations only: %+v", got)
	}

	fake.SetMode(ocrtest.NoText)
	var none api.ReceiptText
	upload(m, t, image).Want(http.StatusOK).JSON(&none)
	if none.Text != "" || none.Draft != nil {
		t.Fatalf("no text: %+v", none)
	}
}

func TestReceiptServiceFailures(t *testing.T) {
	t.Parallel()
	for name, mode := range map[string]ocrtest.Mode{"500": ocrtest.Fail, "garbage": ocrtest.Garbage, "image error": ocrtest.ImageError, "timeout": ocrtest.Hang} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fake := ocrtest.New(t)
			fake.SetMode(mode)
			env := apitest.New(t, withOCR(fake))
			res := upload(env.NewMember(apitest.AsPremium()), t, pngHeader)
			res.WantProblem(http.StatusServiceUnavailable, problem.CodeDependencyUnavailable)
			if res.Header.Get("Retry-After") == "" {
				t.Fatal("no Retry-After")
			}
		})
	}
}

func TestReceiptUnconfiguredAndAccess(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	res := upload(env.NewMember(apitest.AsPremium()), t, pngHeader)
	res.WantProblem(http.StatusServiceUnavailable, problem.CodeOCRNotConfigured)
	if res.Header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
	upload(env.NewMember(), t, pngHeader).WantProblem(http.StatusForbidden, problem.CodePremiumRequired)
	ct, body := multipartBody(t, "file", pngHeader)
	env.Client().Send(http.MethodPost, "/api/account/ocr/receipt", ct, body).WantProblem(http.StatusUnauthorized, problem.CodeUnauthenticated)
}

func TestReceiptBadUploads(t *testing.T) {
	t.Parallel()
	fake := ocrtest.New(t)
	env := apitest.New(t, withOCR(fake))
	m := env.NewMember(apitest.AsPremium())
	upload(m, t, []byte("just some text, not an image")).WantProblem(http.StatusUnsupportedMediaType, problem.CodeUnsupportedMediaType)
	ct, body := multipartBody(t, "other", pngHeader)
	m.Raw().Send(http.MethodPost, "/api/account/ocr/receipt", ct, body).WantProblem(http.StatusBadRequest, problem.CodeValidationFailed)
	m.Raw().Send(http.MethodPost, "/api/account/ocr/receipt", "multipart/form-data; boundary=x", []byte("garbage")).
		WantProblem(http.StatusBadRequest, problem.CodeValidationFailed)
	m.Raw().Do(http.MethodPost, "/api/account/ocr/receipt", map[string]string{"file": "x"}).
		WantProblem(http.StatusUnsupportedMediaType, problem.CodeUnsupportedMediaType)
	// A file one byte over 10 MiB fits the body limit (which leaves room for
	// the envelope) but not the image limit.
	big := append(append([]byte{}, pngHeader...), make([]byte, intake.MaxReceiptBytes+1-len(pngHeader))...)
	upload(m, t, big).WantProblem(http.StatusRequestEntityTooLarge, problem.CodePayloadTooLarge)
	if fake.Calls() != 0 {
		t.Fatalf("%d OCR calls for refused uploads", fake.Calls())
	}
}

// countingReader is an endless body that counts what the server read of it.
type countingReader struct{ n atomic.Int64 }

func (c *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	c.n.Add(int64(len(p)))
	return len(p), nil
}

func TestReceiptOverTheLimitIsRefusedWithoutReadingIt(t *testing.T) {
	t.Parallel()
	fake := ocrtest.New(t)
	env := apitest.New(t, withOCR(fake))
	m := env.NewMember(apitest.AsPremium())
	const size = 200 << 20
	body := &countingReader{}
	req, err := http.NewRequest(http.MethodPost, env.Server.URL+"/api/account/ocr/receipt", io.LimitReader(body, size))
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = size
	req.Header.Set("Content-Type", "multipart/form-data; boundary=x")
	req.Header.Set("Authorization", "Bearer "+m.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("the server should answer before the body is sent: %v", err)
	}
	defer res.Body.Close()
	var p apitest.Problem
	_ = json.NewDecoder(res.Body).Decode(&p)
	if res.StatusCode != http.StatusRequestEntityTooLarge || p.Code != problem.CodePayloadTooLarge {
		t.Fatalf("status %d, problem %+v", res.StatusCode, p)
	}
	if sent := body.n.Load(); sent >= size/2 {
		t.Fatalf("the client sent %s of %d bytes before the answer", strconv.FormatInt(sent, 10), size)
	}
	t.Logf("%d bytes of %d sent before the answer", body.n.Load(), size)
}
