package server

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/nestegg/nestegg/generated/db"
	"github.com/nestegg/nestegg/internal/database"
	"github.com/nestegg/nestegg/internal/dbtest"
	"github.com/nestegg/nestegg/internal/member"
)

// A create listed in notesCreated whose handler answers 201 without noting
// what it committed (a defect the middleware logs) still answers the new
// record's ETag: its version, read after the commit. One that noted another
// record's id is treated the same.
func TestCreateThatDoesNotNoteGetsItsETagAfterTheCommit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := dbtest.NewPool(t)
	m, err := member.CreateLocalWithHash(ctx, db.New(pool), member.NewLocal{Email: "fallback@nestegg.test", Name: "F", Role: "USER"}, "not a hash")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `UPDATE member SET name = 'G' WHERE id = $1`, m.ID); err != nil {
		t.Fatal(err)
	}
	var version int64
	if err := pool.QueryRow(ctx, `SELECT version FROM member WHERE id = $1`, m.ID).Scan(&version); err != nil {
		t.Fatal(err)
	}
	body := fmt.Sprintf(`{"id":%d}`, m.ID)
	vt := versionedTable{table: "member", answered: true}
	for name, note := range map[string]func(ctx context.Context){
		"nothing noted":        func(context.Context) {},
		"another record noted": func(ctx context.Context) { database.NoteCreated(ctx, m.ID+1, 1) },
	} {
		handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			note(r.Context())
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write([]byte(body))
		})
		rec := httptest.NewRecorder()
		serveVersionedCreate(rec, httptest.NewRequest(http.MethodPost, "/x", nil), pool, vt, m.ID, true, handler)
		if want := answerTag(version, []byte(body)); rec.Code != http.StatusCreated || rec.Header().Get("ETag") != want || rec.Body.String() != body {
			t.Errorf("%s: %d, ETag %q, body %s; want 201, ETag %q and the handler's body", name, rec.Code, rec.Header().Get("ETag"), rec.Body, want)
		}
	}
}
