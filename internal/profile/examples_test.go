package profile_test

import (
	"net/http"
	"testing"

	"github.com/nestegg/nestegg/internal/apitest"
	"github.com/nestegg/nestegg/internal/server"
)

// Client teams try the contract's examples first: the profile image example
// must be an image the service accepts.
func TestProfileImageExampleIsAccepted(t *testing.T) {
	t.Parallel()
	doc, err := server.ParseContract()
	if err != nil {
		t.Fatal(err)
	}
	example, _ := doc.Components.Schemas["ProfileImageRequest"].Value.Example.(map[string]any)
	url, _ := example["profileImage"].(string)
	if url == "" {
		t.Fatal("ProfileImageRequest has no profileImage example")
	}
	env := apitest.New(t)
	m := env.NewMember()
	if got := setImage(m.Client, url).Want(http.StatusOK); len(got.Body) == 0 {
		t.Fatal("empty answer")
	}
}
