// The race detector slows the request path several times over; the
// deadline this test keeps is the one of a normal build.
//go:build !race

package backup_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/problem"
)

// Issue 18: a 60 MB restore missing nullable keys took 4.4 GB and 215 s,
// past its 60-second deadline. A document at the size limit whose last 30
// entries lack their currency is read to its end and answered 400 with the
// first 20 of them (not 503: the check finished within the deadline).
func TestRestoreAtTheLimitMissingNullableKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("a 64 MiB document")
	}
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember(apitest.AsPremium())
	doc := bigBackup(maxRestoreBody - 4096)
	n := len(doc.Entries)
	body, _ := json.Marshal(doc)
	doc.Entries = nil
	body = dropKeys(body, `"currency":null,`, 30)
	if len(body) > maxRestoreBody || len(body) < maxRestoreBody-(1<<20) {
		t.Fatalf("the document is %d bytes, not just under %d", len(body), maxRestoreBody)
	}
	res := m.Raw().Send(http.MethodPost, "/api/account/restore", "application/json", body)
	p := wantBoundedProblem(t, res)
	if len(*p.Errors) != problem.MaxFieldErrors || p.ErrorsTruncated == nil || !*p.ErrorsTruncated {
		t.Fatalf("%d errors, errorsTruncated %v; want %d, true", len(*p.Errors), p.ErrorsTruncated, problem.MaxFieldErrors)
	}
	for i, e := range *p.Errors {
		if want := fmt.Sprintf("/entries/%d/currency", n-30+i); apitest.FieldName(e) != want || !strings.Contains(e.Message, "missing") {
			t.Fatalf("error %d: %s %s, want %s missing", i, apitest.FieldName(e), e.Message, want)
		}
	}
	t.Logf("%d entries, %d MiB: %s", n, len(body)>>20, res.Body[:min(len(res.Body), 200)])
}
