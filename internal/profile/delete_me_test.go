package profile_test

import (
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/internal/apitest"
)

// Parallel deletions of one account: one deletes it; one that overlaps it
// is turned away as heavy work already running (429 BUSY, or 503 past the
// replica's cap of heavy work, both with Retry-After); one that passed the
// session check after the first ended but before the account was gone finds
// nothing to delete (404 NOT_FOUND), and one that came later is signed out
// (401). The harness checks each answer against the contract.
func TestConcurrentDeleteMeAnswersOnlyDeclaredStatuses(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	m := env.NewMember()
	const n = 8
	answers := apitest.TogetherV(n, func(int) *apitest.Response {
		return m.Do(http.MethodDelete, "/api/auth/me", nil)
	})
	counts := map[int]int{}
	for _, res := range answers {
		counts[res.Status]++
		switch res.Status {
		case http.StatusNoContent:
		case http.StatusNotFound:
			res.WantProblem(http.StatusNotFound, "NOT_FOUND")
		case http.StatusUnauthorized:
			res.WantProblem(http.StatusUnauthorized, "UNAUTHENTICATED")
		case http.StatusTooManyRequests:
			res.WantProblem(http.StatusTooManyRequests, "BUSY")
			if res.Header.Get("Retry-After") == "" {
				t.Errorf("429 without Retry-After")
			}
		case http.StatusServiceUnavailable:
			res.WantProblem(http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
			if res.Header.Get("Retry-After") == "" {
				t.Errorf("503 without Retry-After")
			}
		default:
			t.Errorf("a deletion answered %d: %s", res.Status, res.Body)
		}
	}
	if counts[http.StatusNoContent] != 1 {
		t.Fatalf("answers %v, want exactly one 204", counts)
	}
	t.Logf("answers: %v", counts)
	wantSignedOut(t, m.Client)
}
