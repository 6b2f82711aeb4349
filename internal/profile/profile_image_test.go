package profile_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
)

// webp1x1 is a complete 1x1 lossless WebP image.
const webp1x1 = "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=="

// imageBytes returns a small real image of the type.
func imageBytes(t *testing.T, subtype string) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	img.Set(1, 2, color.RGBA{R: 200, G: 40, B: 90, A: 255})
	var buf bytes.Buffer
	var err error
	switch subtype {
	case "png":
		err = png.Encode(&buf, img)
	case "jpeg":
		err = jpeg.Encode(&buf, img, nil)
	case "gif":
		err = gif.Encode(&buf, img, nil)
	case "webp":
		return mustDecode(t, webp1x1)
	default:
		t.Fatalf("no image of type %s", subtype)
	}
	if err != nil {
		t.Fatalf("encode %s: %v", subtype, err)
	}
	return buf.Bytes()
}

func mustDecode(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func dataURL(mediaType string, b []byte) string {
	return "data:" + mediaType + ";base64," + base64.StdEncoding.EncodeToString(b)
}

func setImage(c *apitest.Client, url string) *apitest.Response {
	return c.Do(http.MethodPut, "/api/auth/profile-image", api.SetProfileImageJSONRequestBody{ProfileImage: url})
}

func storedImage(t *testing.T, env *apitest.Env, id int64) *string {
	t.Helper()
	var s *string
	if err := env.Pool.QueryRow(t.Context(), `SELECT profile_image FROM member WHERE id = $1`, id).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestProfileImageSetAndClear(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	for _, subtype := range []string{"png", "jpeg", "gif", "webp"} {
		url := dataURL("image/"+subtype, imageBytes(t, subtype))
		var p api.Profile
		setImage(m.Client, url).Want(http.StatusOK).JSON(&p)
		if p.ProfileImage == nil || *p.ProfileImage != url {
			t.Fatalf("%s: answered profileImage %v", subtype, p.ProfileImage)
		}
		if got := getProfile(t, m.Client).ProfileImage; got == nil || *got != url {
			t.Fatalf("%s: profile shows %v", subtype, got)
		}
	}

	var p api.Profile
	setImage(m.Client, "").Want(http.StatusOK).JSON(&p)
	if p.ProfileImage != nil || getProfile(t, m.Client).ProfileImage != nil {
		t.Fatal("clearing left an image")
	}
	if storedImage(t, env, m.ID) != nil {
		t.Fatal("a cleared image is not stored as NULL")
	}
}

func TestProfileImageSizeLimit(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	// A real PNG padded with trailing bytes (which decoders ignore) to
	// exactly 2 MB, then one byte more.
	// The padding is stored stripped, as everything after IEND is.
	exact := append(imageBytes(t, "png"), make([]byte, 2<<20-len(imageBytes(t, "png")))...)
	setImage(m.Client, dataURL("image/png", exact)).Want(http.StatusOK)
	stored := storedImage(t, env, m.ID)
	if stored == nil || *stored != dataURL("image/png", imageBytes(t, "png")) {
		t.Fatal("the image is not stored without what follows IEND")
	}

	over := append(exact, 0)
	p := setImage(m.Client, dataURL("image/png", over)).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	if len(p.Errors) != 1 || p.Errors[0].Field != "/profileImage" {
		t.Fatalf("errors %+v, want /profileImage", p.Errors)
	}
	if got := storedImage(t, env, m.ID); got == nil || *got != *stored {
		t.Fatal("a refused image replaced the stored one")
	}
}

func TestProfileImageRefusals(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	pngBytes := imageBytes(t, "png")
	kept := dataURL("image/png", pngBytes)
	setImage(m.Client, kept).Want(http.StatusOK)

	for _, tc := range []struct{ name, url string }{
		{"png declared as jpeg", dataURL("image/jpeg", pngBytes)},
		{"gif declared as png", dataURL("image/png", imageBytes(t, "gif"))},
		{"webp declared as gif", dataURL("image/gif", imageBytes(t, "webp"))},
		{"jpeg declared as webp", dataURL("image/webp", imageBytes(t, "jpeg"))},
		{"text declared as png", dataURL("image/png", []byte("just some text, not an image at all"))},
		{"html declared as gif", dataURL("image/gif", []byte("<html><script>alert(1)</script></html>"))},
		{"garbage base64", "data:image/png;base64,not*base64!"},
		{"truncated base64", kept[:len(kept)-1]},
		{"no data", "data:image/png;base64,"},
		{"another image type", dataURL("image/bmp", []byte("BM\x3a\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00"))},
		{"svg", dataURL("image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`))},
		{"another media type", dataURL("text/plain", []byte("hello"))},
		{"not base64 encoded", "data:image/png," + string(pngBytes[:8])},
		{"upper-case type", dataURL("image/PNG", pngBytes)},
		{"parameters before base64", "data:image/png;charset=utf-8;base64," + base64.StdEncoding.EncodeToString(pngBytes)},
		{"a web address", "https://example.com/me.png"},
		{"leading space", " " + kept},
	} {
		p := setImage(m.Client, tc.url).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		if len(p.Errors) != 1 || p.Errors[0].Field != "/profileImage" {
			t.Fatalf("%s: errors %+v, want /profileImage", tc.name, p.Errors)
		}
	}
	if got := getProfile(t, m.Client).ProfileImage; got == nil || *got != kept {
		t.Fatal("a refused image replaced the stored one")
	}
}
