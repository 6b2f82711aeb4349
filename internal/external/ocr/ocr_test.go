package ocr_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nestegg/nestegg/internal/external/ocr"
	"github.com/nestegg/nestegg/internal/external/ocr/ocrtest"
)

func TestTextAgainstTheFake(t *testing.T) {
	t.Parallel()
	fake := ocrtest.New(t)
	fake.SetText("합계 9,000")
	c := ocr.New(fake.URL(), ocrtest.Key, nil)
	ctx := context.Background()
	for mode, want := range map[ocrtest.Mode]string{ocrtest.Good: "합계 9,000", ocrtest.OnlyAnnotations: "합계 9,000", ocrtest.NoText: ""} {
		fake.SetMode(mode)
		if got, err := c.Text(ctx, []byte("img")); err != nil || got != want {
			t.Errorf("mode %d: %q %v", mode, got, err)
		}
	}
	if string(fake.LastImage()) != "img" {
		t.Errorf("image %q", fake.LastImage())
	}
	for _, mode := range []ocrtest.Mode{ocrtest.ImageError, ocrtest.Fail, ocrtest.Garbage} {
		fake.SetMode(mode)
		if _, err := c.Text(ctx, []byte("img")); !errors.Is(err, ocr.ErrUnavailable) {
			t.Errorf("mode %d: %v", mode, err)
		}
	}
	fake.SetMode(ocrtest.Hang)
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if _, err := c.Text(short, []byte("img")); !errors.Is(err, ocr.ErrUnavailable) {
		t.Errorf("hang: %v", err)
	}
	fake.SetMode(ocrtest.Good)
	if _, err := ocr.New(fake.URL(), "wrong", nil).Text(ctx, []byte("img")); !errors.Is(err, ocr.ErrUnavailable) {
		t.Errorf("wrong key: %v", err)
	}
	if _, err := ocr.New(fake.URL(), "", nil).Text(ctx, []byte("img")); !errors.Is(err, ocr.ErrNotConfigured) {
		t.Errorf("no key: %v", err)
	}
}
