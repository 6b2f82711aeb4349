package board_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

func multipartFile(t *testing.T, field string, data []byte) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	part, err := w.CreateFormFile(field, "upload.bin")
	if err != nil {
		t.Fatal(err)
	}
	part.Write(data)
	w.Close()
	return w.FormDataContentType(), buf.Bytes()
}

func testImage() image.Image {
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	img.Set(1, 1, color.RGBA{R: 255, A: 255})
	return img
}

// jpegWithExif builds a JPEG whose first segment is an Exif APP1 carrying a
// GPS tag, as a phone camera writes it.
func jpegWithExif(t *testing.T) []byte {
	t.Helper()
	var plain bytes.Buffer
	if err := jpeg.Encode(&plain, testImage(), nil); err != nil {
		t.Fatal(err)
	}
	payload := append([]byte("Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08"), []byte("GPSLatitude 37.5665 N")...)
	seg := []byte{0xFF, 0xE1, byte((len(payload) + 2) >> 8), byte(len(payload) + 2)}
	seg = append(seg, payload...)
	data := plain.Bytes()
	out := append([]byte{}, data[:2]...)
	out = append(out, seg...)
	return append(out, data[2:]...)
}

func upload(t *testing.T, m *apitest.Member, data []byte) *apitest.Response {
	t.Helper()
	ct, body := multipartFile(t, "file", data)
	return m.Send(http.MethodPost, "/api/board/images", ct, body)
}

func TestImageUploadAndDownload(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()

	var pngBuf, gifBuf bytes.Buffer
	png.Encode(&pngBuf, testImage())
	gif.Encode(&gifBuf, testImage(), nil)
	for name, data := range map[string][]byte{"png": pngBuf.Bytes(), "gif": gifBuf.Bytes(), "jpeg": jpegWithExif(t)} {
		var res api.ImageURL
		upload(t, m, data).Want(http.StatusCreated).JSON(&res)
		if !strings.HasPrefix(res.URL, env.Config.PublicBaseURL+"/api/images/") {
			t.Fatalf("%s: url %q", name, res.URL)
		}
		path := strings.TrimPrefix(res.URL, env.Config.PublicBaseURL)
		got := env.Client().Do(http.MethodGet, path, nil).Want(http.StatusOK)
		if ct := got.Header.Get("Content-Type"); ct != "image/"+name {
			t.Errorf("%s: content type %q", name, ct)
		}
		if got.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || got.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: headers %v", name, got.Header)
		}
		etag := got.Header.Get("ETag")
		if etag == "" {
			t.Fatalf("%s: no ETag", name)
		}
		if name == "jpeg" {
			if bytes.Contains(got.Body, []byte("Exif")) || bytes.Contains(got.Body, []byte("GPS")) {
				t.Error("the Exif segment is still in the stored JPEG")
			}
			if _, err := jpeg.Decode(bytes.NewReader(got.Body)); err != nil {
				t.Errorf("the stripped JPEG does not decode: %v", err)
			}
		} else if !bytes.Equal(got.Body, map[string][]byte{"png": pngBuf.Bytes(), "gif": gifBuf.Bytes()}[name]) {
			t.Errorf("%s: served bytes differ from the upload", name)
		}
		res304 := env.Client().WithHeader("If-None-Match", etag).Do(http.MethodGet, path, nil).Want(http.StatusNotModified)
		if len(res304.Body) != 0 || res304.Header.Get("ETag") != etag {
			t.Errorf("%s: 304 answer %v %q", name, res304.Header, res304.Body)
		}
		env.Client().WithHeader("If-None-Match", `"other"`).Do(http.MethodGet, path, nil).Want(http.StatusOK)

		// The uploader can use the address in a post; another member cannot.
		urls := []string{res.URL}
		var p api.Post
		m.Do(http.MethodPost, "/api/board/posts", api.PostRequest{Category: "tips", Title: "pic", Body: "b", ImageUrls: &urls}).
			Want(http.StatusCreated).JSON(&p)
		if len(p.ImageUrls) != 1 || p.ImageUrls[0] != res.URL {
			t.Fatalf("image urls %v", p.ImageUrls)
		}
		env.NewMember().Do(http.MethodPost, "/api/board/posts", api.PostRequest{Category: "tips", Title: "pic", Body: "b", ImageUrls: &urls}).
			WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	}

	upload(t, m, []byte("<svg xmlns='http://www.w3.org/2000/svg'></svg>")).WantProblem(http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE")
	upload(t, m, []byte("plain text")).WantProblem(http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE")
	big := append(pngBuf.Bytes(), make([]byte, 5<<20)...)
	upload(t, m, big).WantProblem(http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
	ct, body := multipartFile(t, "picture", pngBuf.Bytes())
	m.Raw().Send(http.MethodPost, "/api/board/images", ct, body).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	ct, body = multipartFile(t, "file", pngBuf.Bytes())
	env.Client().Send(http.MethodPost, "/api/board/images", ct, body).WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
	env.Client().Do(http.MethodGet, "/api/images/0b5c8c0e-6f5e-4a57-9f0e-0d5d0a3e9f11", nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
	env.Client().Raw().Do(http.MethodGet, fmt.Sprint("/api/images/", 42), nil).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
}
