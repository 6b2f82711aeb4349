package board_test

import (
	"bytes"
	"context"
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/imagemeta/imagemetatest"
)

// Images stored before every metadata container was stripped (marked
// meta_stripped false) are never served as stored: the GET strips them, and
// the image-cleanup job rewrites them; one that cannot be stripped is not
// served and is deleted.
func TestImagesStoredBeforeStrippingAreStrippedToo(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	ctx := context.Background()
	old := map[string][]byte{
		"image/jpeg": imagemetatest.JPEG(t), "image/png": imagemetatest.PNG(t),
		"image/gif": imagemetatest.GIF(t), "image/webp": imagemetatest.WebP(t),
	}
	broken := imagemetatest.PNG(t)
	broken = broken[:len(broken)/2]
	ids := map[string]string{}
	insert := func(contentType string, data []byte) string {
		t.Helper()
		var id string
		err := env.Pool.QueryRow(ctx, `
			INSERT INTO board_image (member_id, content_type, data, sha256, created_at, meta_stripped)
			VALUES ($1, $2, $3, encode(sha256($3), 'hex'), $4, false) RETURNING id::text`,
			m.ID, contentType, data, env.Clock.Now()).Scan(&id)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	for ct, data := range old {
		ids[ct] = insert(ct, data)
	}
	brokenID := insert("image/png", broken)

	served := map[string][]byte{}
	for ct, id := range ids {
		var storedTag string
		if err := env.Pool.QueryRow(ctx, `SELECT sha256 FROM board_image WHERE id = $1`, id).Scan(&storedTag); err != nil {
			t.Fatal(err)
		}
		// The stored bytes' tag is not the served bytes' tag: no 304 for it.
		res := env.Client().WithHeader("If-None-Match", `"`+storedTag+`"`).Do(http.MethodGet, "/api/images/"+id, nil).Want(http.StatusOK)
		imagemetatest.CheckClean(t, res.Body)
		if res.Header.Get("ETag") == `"`+storedTag+`"` {
			t.Errorf("%s: served under the stored bytes' tag", ct)
		}
		served[ct] = res.Body
	}
	env.Client().Do(http.MethodGet, "/api/images/"+brokenID, nil).WantProblem(http.StatusNotFound, "NOT_FOUND")

	if ran, err := env.App.Jobs.Run(ctx, "image-cleanup"); err != nil || !ran {
		t.Fatalf("job ran %v: %v", ran, err)
	}
	for ct, id := range ids {
		var data []byte
		var stripped bool
		if err := env.Pool.QueryRow(ctx, `SELECT data, meta_stripped FROM board_image WHERE id = $1`, id).Scan(&data, &stripped); err != nil {
			t.Fatal(err)
		}
		if !stripped || !bytes.Equal(data, served[ct]) {
			t.Errorf("%s after the job: stripped %v, stored bytes equal to the served ones %v", ct, stripped, bytes.Equal(data, served[ct]))
		}
		imagemetatest.CheckClean(t, data)
		res := env.Client().Do(http.MethodGet, "/api/images/"+id, nil).Want(http.StatusOK)
		env.Client().WithHeader("If-None-Match", res.Header.Get("ETag")).Do(http.MethodGet, "/api/images/"+id, nil).Want(http.StatusNotModified)
	}
	var left int
	if err := env.Pool.QueryRow(ctx, `SELECT count(*) FROM board_image WHERE id = $1`, brokenID).Scan(&left); err != nil || left != 0 {
		t.Fatalf("the broken old image: %d rows (%v)", left, err)
	}
}
