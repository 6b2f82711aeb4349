package board_test

import (
	"bytes"
	"image"
	_ "image/gif"
	_ "image/jpeg"
	_ "image/png"
	"net/http"
	"strings"
	"testing"

	_ "golang.org/x/image/webp"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/imagemeta/imagemetatest"
)

// Every format comes back from its public address without the GPS position
// its upload carried in each of its metadata containers, and still decodes.
func TestUploadedImagesKeepNoMetadata(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	for format, data := range map[string][]byte{
		"jpeg": imagemetatest.JPEG(t), "png": imagemetatest.PNG(t),
		"gif": imagemetatest.GIF(t), "webp": imagemetatest.WebP(t),
	} {
		var res api.ImageURL
		upload(t, m, data).Want(http.StatusCreated).JSON(&res)
		got := env.Client().Do(http.MethodGet, strings.TrimPrefix(res.URL, env.Config.PublicBaseURL), nil).Want(http.StatusOK)
		if ct := got.Header.Get("Content-Type"); ct != "image/"+format {
			t.Errorf("%s: content type %q", format, ct)
		}
		imagemetatest.CheckClean(t, got.Body)
		if _, decoded, err := image.Decode(bytes.NewReader(got.Body)); err != nil || decoded != format {
			t.Errorf("%s: served image does not decode: %q %v", format, decoded, err)
		}
	}

	// A file whose container does not hold together is refused.
	bad := imagemetatest.PNG(t)
	bad = bad[:len(bad)/2]
	upload(t, m, bad).WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
}
