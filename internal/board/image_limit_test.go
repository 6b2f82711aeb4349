package board_test

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/config"
)

func smallPNG(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, testImage()); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Parallel uploads over the daily limit: exactly the limit is stored, the
// others answer 429 with Retry-After, and the next day the member may upload
// again. Another member's day is their own.
func TestImageDailyLimit(t *testing.T) {
	t.Parallel()
	const limit = 3
	env := apitest.New(t, apitest.WithConfig(func(cfg *config.Config) { cfg.BoardImageDailyLimit = limit }))
	m := env.NewMember()
	data := smallPNG(t)
	ct, body := multipartFile(t, "file", data)

	answers := apitest.TogetherV(8, func(int) *apitest.Response {
		return m.Send(http.MethodPost, "/api/board/images", ct, body)
	})
	created, limited := 0, 0
	for _, r := range answers {
		switch r.Status {
		case http.StatusCreated:
			created++
		case http.StatusTooManyRequests:
			limited++
			r.WantProblem(http.StatusTooManyRequests, "RATE_LIMITED")
			if secs, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || secs < 1 || secs > 24*3600 {
				t.Errorf("Retry-After %q", r.Header.Get("Retry-After"))
			}
		default:
			t.Errorf("status %d: %s", r.Status, r.Body)
		}
	}
	if created != limit || limited != 8-limit {
		t.Fatalf("%d created, %d limited; want %d and %d", created, limited, limit, 8-limit)
	}
	var stored int
	if err := env.Pool.QueryRow(t.Context(), "SELECT count(*) FROM board_image WHERE member_id = $1", m.ID).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored != limit {
		t.Fatalf("%d images stored, want %d", stored, limit)
	}

	// A profile image counts against the same day.
	dataURL := "data:image/png;base64," + base64.StdEncoding.EncodeToString(data)
	m.Do(http.MethodPut, "/api/auth/profile-image", api.ProfileImageRequest{ProfileImage: dataURL}).
		WantProblem(http.StatusTooManyRequests, "RATE_LIMITED")

	env.NewMember().Send(http.MethodPost, "/api/board/images", ct, body).Want(http.StatusCreated)

	env.Clock.Advance(24 * time.Hour)
	var res api.ImageURL
	m.Send(http.MethodPost, "/api/board/images", ct, body).Want(http.StatusCreated).JSON(&res)
	if !strings.HasPrefix(res.URL, env.Config.PublicBaseURL+"/api/images/") {
		t.Fatalf("url %q", res.URL)
	}
}
