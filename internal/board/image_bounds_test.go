package board_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
	"github.com/nestegg/nestegg/internal/imagemeta/imagemetatest"
)

// storedImages counts the images a member has stored.
func storedImages(t *testing.T, env *apitest.Env, m *apitest.Member) int {
	t.Helper()
	var n int
	if err := env.Pool.QueryRow(t.Context(), "SELECT count(*) FROM board_image WHERE member_id = $1", m.ID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// jpegDeclaring is a real JPEG whose frame header is rewritten to declare w × h.
func jpegDeclaring(t *testing.T, w, h uint16) []byte {
	t.Helper()
	b := imagemetatest.Plain(t, "jpeg")
	sof := bytes.Index(b, []byte{0xFF, 0xC0})
	b[sof+5], b[sof+6], b[sof+7], b[sof+8] = byte(h>>8), byte(h), byte(w>>8), byte(w)
	return b
}

// Decompression bombs of every type, by pixels or by frames, are refused
// before anything is stored, on the board and as a profile image, naming
// the limit; images at the limits are stored.
func TestImageBoundsRefusedBeforeStoring(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	cases := []struct {
		name, subtype string
		data          []byte
		detail        string
	}{
		{"png of 50000×50000", "png", imagemetatest.PNGDeclaring(t, 50000, 50000), "the image is 50000×50000 pixels; at most 50000000 are accepted"},
		{"jpeg of 65535×65535", "jpeg", jpegDeclaring(t, 65535, 65535), "the image is 65535×65535 pixels; at most 50000000 are accepted"},
		{"webp canvas of 10000×10000", "webp", imagemetatest.AnimatedWebP(t, 1, 10000, 10000, false), "the image is 10000×10000 pixels; at most 50000000 are accepted"},
		{"gif of 301 frames", "gif", imagemetatest.GIFFrames(t, 301, false), "the image has 301 frames; at most 300 are accepted"},
		{"apng of 301 frames", "png", imagemetatest.APNG(t, 301), "the image has 301 frames; at most 300 are accepted"},
		{"webp of 301 frames", "webp", imagemetatest.AnimatedWebP(t, 301, 1, 1, false), "the image has 301 frames; at most 300 are accepted"},
	}
	for _, c := range cases {
		p := upload(t, m, c.data).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		if len(p.Errors) != 1 || p.Errors[0].Field != "/file" || p.Errors[0].Message != c.detail || !strings.Contains(p.Detail, c.detail) {
			t.Errorf("%s: %q %+v, want /file: %q", c.name, p.Detail, p.Errors, c.detail)
		}
		p = m.Do(http.MethodPut, "/api/auth/profile-image", api.ProfileImageRequest{
			ProfileImage: "data:image/" + c.subtype + ";base64," + base64.StdEncoding.EncodeToString(c.data),
		}).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		if len(p.Errors) != 1 || p.Errors[0].Field != "/profileImage" || p.Errors[0].Message != c.detail {
			t.Errorf("%s as a profile image: %+v, want /profileImage: %q", c.name, p.Errors, c.detail)
		}
	}
	if n := storedImages(t, env, m); n != 0 {
		t.Fatalf("%d refused images were stored", n)
	}
	// At the limits: stored.
	for _, data := range [][]byte{imagemetatest.GIFFrames(t, 300, false), imagemetatest.APNG(t, 300), imagemetatest.AnimatedWebP(t, 300, 1, 1, false)} {
		upload(t, m, data).Want(http.StatusCreated)
	}
}

// The limits are settings: a real, valid image over lowered ones is refused.
func TestImageBoundsAreSettings(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, apitest.WithConfig(func(cfg *config.Config) {
		cfg.ImageMaxPixels = 1000
		cfg.ImageMaxFrames = 2
	}))
	m := env.NewMember()
	encode := func(w, h int) []byte {
		var b bytes.Buffer
		if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	upload(t, m, encode(40, 25)).Want(http.StatusCreated)
	p := upload(t, m, encode(40, 26)).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	if want := "the image is 40×26 pixels; at most 1000 are accepted"; len(p.Errors) != 1 || p.Errors[0].Message != want {
		t.Errorf("errors %+v, want %q", p.Errors, want)
	}
	upload(t, m, imagemetatest.GIFFrames(t, 2, false)).Want(http.StatusCreated)
	upload(t, m, imagemetatest.GIFFrames(t, 3, false)).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
}

// An animated PNG is a PNG: stored with its animation and served as
// image/png, on the board and as a profile image.
func TestAnimatedPNGIsAPNG(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	apng := imagemetatest.APNG(t, 3)
	var res api.ImageURL
	upload(t, m, apng).Want(http.StatusCreated).JSON(&res)
	got := env.Client().Do(http.MethodGet, strings.TrimPrefix(res.URL, env.Config.PublicBaseURL), nil).Want(http.StatusOK)
	if ct := got.Header.Get("Content-Type"); ct != "image/png" {
		t.Errorf("content type %q", ct)
	}
	if !bytes.Equal(got.Body, apng) {
		t.Error("the animation was not kept as uploaded")
	}
	url := "data:image/png;base64," + base64.StdEncoding.EncodeToString(apng)
	var prof api.Profile
	m.Do(http.MethodPut, "/api/auth/profile-image", api.ProfileImageRequest{ProfileImage: url}).Want(http.StatusOK).JSON(&prof)
	if prof.ProfileImage == nil || *prof.ProfileImage != url {
		t.Error("the profile image is not the animated PNG")
	}
}

// What the new strippers remove is gone from what is served: a JFIF
// thumbnail, JPGn segments and comments; GIF plain text; EXIF and XMP inside
// an animated WebP's frames.
func TestUploadedImagesLoseThumbnailsAndHiddenChunks(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	for name, data := range map[string][]byte{
		"jpeg": imagemetatest.JPEGExtras(t),
		"gif":  imagemetatest.GIFFrames(t, 3, true),
		"webp": imagemetatest.AnimatedWebP(t, 2, 1, 1, true),
	} {
		var res api.ImageURL
		upload(t, m, data).Want(http.StatusCreated).JSON(&res)
		got := env.Client().Do(http.MethodGet, strings.TrimPrefix(res.URL, env.Config.PublicBaseURL), nil).Want(http.StatusOK)
		imagemetatest.CheckClean(t, got.Body)
		if bytes.Contains(got.Body, []byte(imagemetatest.Thumbnail)) || bytes.Contains(got.Body, []byte("JFXX")) {
			t.Errorf("%s: a thumbnail or text survived", name)
		}
	}
}
