package server_test

import (
	"bytes"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/internal/apitest"
)

// Issue 43: every 400 names its field with a JSON pointer, an impossible
// date included, and next to another bad field both are named; no detail
// quotes Go's own error text; dates have one range for every operation.
func TestBadFieldsAreNamedByPointer(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	for _, tc := range []struct {
		name, method, path, body string
		want                     []string
	}{
		{"impossible date", http.MethodPost, "/api/account/entries", `{"date":"2026-11-31","type":"expense","amount":100}`, []string{"/date"}},
		{"impossible date beside a bad type", http.MethodPost, "/api/account/entries", `{"date":"2026-02-30","type":"spend","amount":100}`, []string{"/date", "/type"}},
		{"entry date past the range", http.MethodPost, "/api/account/entries", `{"date":"3000-01-01","type":"expense","amount":100}`, []string{"/date"}},
		{"entry date before the range", http.MethodPost, "/api/account/entries", `{"date":"1899-12-31","type":"expense","amount":100}`, []string{"/date"}},
		{"trade date past the range", http.MethodPost, "/api/account/invest/trades", `{"stockId":1,"side":"BUY","date":"3000-01-01","quantity":"1","price":"1"}`, []string{"/date"}},
		{"a number no float holds", http.MethodPost, "/api/account/categories", `{"name":"x","type":"expense","parentId":1e400}`, []string{"/parentId"}},
	} {
		res := m.Raw().Send(tc.method, tc.path, "application/json", []byte(tc.body))
		p := res.WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
		var got []string
		for _, f := range p.Errors {
			got = append(got, f.Field)
			for _, leak := range []string{"json.Number", "float64", "strconv", "parsing time", "cannot unmarshal", "Go "} {
				if strings.Contains(f.Message, leak) {
					t.Errorf("%s: message %q quotes Go's error text", tc.name, f.Message)
				}
			}
		}
		for _, leak := range []string{"json.Number", "float64", "strconv", "parsing time", "cannot unmarshal"} {
			if strings.Contains(p.Detail, leak) {
				t.Errorf("%s: detail %q quotes Go's error text", tc.name, p.Detail)
			}
		}
		for _, w := range tc.want {
			found := false
			for _, g := range got {
				found = found || g == w
			}
			if !found {
				t.Errorf("%s: fields %v do not name %s (detail %q)", tc.name, got, w, p.Detail)
			}
		}
	}
}

// An extra part beside an upload's file names that part, not "malformed JSON".
func TestExtraMultipartPartIsNamed(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	var b strings.Builder
	w := multipart.NewWriter(&b)
	fw, _ := w.CreateFormFile("file", "a.png")
	var img bytes.Buffer
	if err := png.Encode(&img, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	_, _ = fw.Write(img.Bytes())
	_ = w.WriteField("note", "1")
	_ = w.Close()
	res := m.Raw().Send(http.MethodPost, "/api/board/images", w.FormDataContentType(), []byte(b.String()))
	p := res.WantProblem(http.StatusBadRequest, "VALIDATION_FAILED")
	if strings.Contains(p.Detail, "malformed JSON") || len(p.Errors) == 0 || p.Errors[0].Field != "/note" {
		t.Fatalf("an extra part answered %+v", p)
	}
}
