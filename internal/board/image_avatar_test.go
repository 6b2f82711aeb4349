package board_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/imagemeta/imagemetatest"
)

// bigPNG is a PNG of noise that does not compress: about 1.4 MB.
func bigPNG(t *testing.T) []byte {
	t.Helper()
	rnd := rand.New(rand.NewPCG(1, 2))
	img := image.NewRGBA(image.Rect(0, 0, 600, 600))
	for i := range img.Pix {
		img.Pix[i] = byte(rnd.Uint32())
	}
	img.Set(0, 0, color.RGBA{A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if b.Len() < 1<<20 || b.Len() > 2<<20 {
		t.Fatalf("test image is %d bytes", b.Len())
	}
	return b.Bytes()
}

func setAvatar(t *testing.T, m *apitest.Member, subtype string, data []byte) api.Profile {
	t.Helper()
	var p api.Profile
	m.Do(http.MethodPut, "/api/auth/profile-image",
		api.ProfileImageRequest{ProfileImage: "data:image/" + subtype + ";base64," + base64.StdEncoding.EncodeToString(data)}).
		Want(http.StatusOK).JSON(&p)
	return p
}

// A page of 20 posts by a member with a large avatar stays small: the author
// carries the avatar's address, which answers the image with the caching
// headers of board images.
func TestAvatarIsAnAddress(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	avatar := bigPNG(t)
	setAvatar(t, m, "png", avatar)
	for range 20 {
		post(t, m, "tips", "with avatar")
	}
	res := env.Client().Do(http.MethodGet, "/api/board/posts?size=20", nil).Want(http.StatusOK)
	if len(res.Body) > 64<<10 {
		t.Fatalf("a page of 20 posts weighs %d bytes", len(res.Body))
	}
	var page api.PostPage
	res.JSON(&page)
	if len(page.Items) != 20 {
		t.Fatalf("%d posts", len(page.Items))
	}
	url := deref(page.Items[0].Author.Avatar)
	u, _ := url.(string)
	if !strings.HasPrefix(u, env.Config.PublicBaseURL+"/api/images/") {
		t.Fatalf("avatar %v", url)
	}
	got := env.Client().Do(http.MethodGet, strings.TrimPrefix(u, env.Config.PublicBaseURL), nil).Want(http.StatusOK)
	if !bytes.Equal(got.Body, avatar) {
		t.Error("the avatar address does not answer the avatar")
	}
	if got.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || got.Header.Get("ETag") == "" ||
		got.Header.Get("X-Content-Type-Options") != "nosniff" || got.Header.Get("Content-Type") != "image/png" {
		t.Errorf("headers %v", got.Header)
	}
	env.Client().WithHeader("If-None-Match", got.Header.Get("ETag")).
		Do(http.MethodGet, strings.TrimPrefix(u, env.Config.PublicBaseURL), nil).Want(http.StatusNotModified)

	// Comments and recommenders carry the same address.
	postPath := fmt.Sprint("/api/board/posts/", page.Items[0].ID)
	comment(t, m, page.Items[0].ID, "thanks")
	var comments api.CommentPage
	env.Client().Do(http.MethodGet, postPath+"/comments", nil).Want(http.StatusOK).JSON(&comments)
	if len(comments.Items) != 1 || deref(comments.Items[0].Author.Avatar) != url {
		t.Errorf("comment authors %+v", comments.Items)
	}
	other := post(t, env.NewMember(), "tips", "x")
	vote(t, m, fmt.Sprint("/api/board/posts/", other.ID, "/vote"), api.VoteDirectionUp)
	var recs api.AuthorPage
	env.Client().Do(http.MethodGet, fmt.Sprint("/api/board/posts/", other.ID, "/recommenders"), nil).Want(http.StatusOK).JSON(&recs)
	if len(recs.Items) != 1 || deref(recs.Items[0].Avatar) != url {
		t.Errorf("recommenders %+v", recs.Items)
	}
}

// A profile image keeps no metadata, in the owner's data URL and at its
// public address.
func TestProfileImageKeepsNoMetadata(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	p := setAvatar(t, m, "jpeg", imagemetatest.JPEG(t))
	owned, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(deref(p.ProfileImage).(string), "data:image/jpeg;base64,"))
	if err != nil {
		t.Fatal(err)
	}
	imagemetatest.CheckClean(t, owned)
	posted := post(t, m, "tips", "hello")
	u := deref(posted.Author.Avatar).(string)
	served := env.Client().Do(http.MethodGet, strings.TrimPrefix(u, env.Config.PublicBaseURL), nil).Want(http.StatusOK)
	imagemetatest.CheckClean(t, served.Body)
	if !bytes.Equal(served.Body, owned) {
		t.Error("the profile and the public address answer different images")
	}
	if _, _, err := image.Decode(bytes.NewReader(served.Body)); err != nil {
		t.Errorf("served avatar does not decode: %v", err)
	}
	bad := imagemetatest.PNG(t)
	m.Do(http.MethodPut, "/api/auth/profile-image",
		api.ProfileImageRequest{ProfileImage: "data:image/png;base64," + base64.StdEncoding.EncodeToString(bad[:len(bad)/2])}).
		WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
}

// The cleanup job deletes an image no post and no profile uses a day after
// its upload, and keeps the used ones and the recent ones.
func TestUnusedImagesAreDeleted(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	data := smallPNG(t)
	uploadURL := func() string {
		var res api.ImageURL
		upload(t, m, data).Want(http.StatusCreated).JSON(&res)
		return strings.TrimPrefix(res.URL, env.Config.PublicBaseURL)
	}
	inPost, edited, unused := uploadURL(), uploadURL(), uploadURL()
	urls := []string{env.Config.PublicBaseURL + inPost, env.Config.PublicBaseURL + edited}
	var p api.Post
	m.Do(http.MethodPost, "/api/board/posts", api.PostRequest{Category: "tips", Title: "pics", Body: "b", ImageUrls: &urls}).
		Want(http.StatusCreated).JSON(&p)
	// An edit that drops an image leaves it unused.
	kept := urls[:1]
	m.Do(http.MethodPut, fmt.Sprint("/api/board/posts/", p.ID), api.PostRequest{Category: "tips", Title: "pics", Body: "b", ImageUrls: &kept}).
		Want(http.StatusOK)
	setAvatar(t, m, "png", data)
	oldAvatar := deref(post(t, m, "tips", "a").Author.Avatar).(string)
	setAvatar(t, m, "png", smallPNGOther(t))
	avatar := deref(post(t, m, "tips", "b").Author.Avatar).(string)

	env.Clock.Advance(24*time.Hour + time.Minute)
	recent := uploadURL()
	if ran, err := env.App.Jobs.Run(t.Context(), "image-cleanup"); err != nil || !ran {
		t.Fatalf("job ran %v: %v", ran, err)
	}
	for path, want := range map[string]int{
		inPost: http.StatusOK, recent: http.StatusOK,
		strings.TrimPrefix(avatar, env.Config.PublicBaseURL): http.StatusOK,
		edited: http.StatusNotFound, unused: http.StatusNotFound,
		strings.TrimPrefix(oldAvatar, env.Config.PublicBaseURL): http.StatusNotFound,
	} {
		if want == http.StatusOK {
			env.Client().Do(http.MethodGet, path, nil).Want(http.StatusOK)
		} else {
			env.Client().Do(http.MethodGet, path, nil).WantProblem(http.StatusNotFound, "NOT_FOUND")
		}
	}
}

func smallPNGOther(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	img.Set(2, 2, color.RGBA{G: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
