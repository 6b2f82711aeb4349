package auth

import (
	"strings"
	"testing"

	"github.com/nestegg/nestegg/internal/external/idp"
)

// A provider's name becomes the member's name only if it would pass as one
// typed at sign-up; otherwise the e-mail's local part, else "member".
func TestDisplayNameOfAProviderSignIn(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("가", 60)
	for _, tc := range []struct {
		name, email, want string
	}{
		{"  Minji Kim ", "minji@example.com", "Minji Kim"},
		{long, "", strings.Repeat("가", 50)},
		{"", "minji@example.com", "minji"},
		{"Admin\u202e", "minji@example.com", "minji"},
		{"zero\u200bwidth", "", "member"},
		{"", "", "member"},
	} {
		if got := displayName(idp.Claims{Name: tc.name, Email: tc.email}); got != tc.want {
			t.Errorf("name %q, e-mail %q: %q, want %q", tc.name, tc.email, got, tc.want)
		}
	}
}
