package profile

import (
	"encoding/base64"
	"slices"
	"strings"

	"github.com/gabriel-vasile/mimetype"

	"github.com/nestegg/nestegg/internal/problem"
)

// maxProfileImageBytes is the largest profile image, decoded: 2 MB (MiB).
// Its base64 form still fits the contract's 3,000,000-character limit on
// profileImage and the operation's body limit, which also bound what is
// decoded here.
const maxProfileImageBytes = 2 << 20

// profileImageTypes are the image subtypes a profile image may declare.
var profileImageTypes = []string{"png", "jpeg", "gif", "webp"}

const profileImageField = "/profileImage"

// checkProfileImage accepts a data:image/(png|jpeg|gif|webp);base64, URL of
// at most maxProfileImageBytes whose bytes are the image type it declares: the
// type is read from the bytes' signature, since clients render the URL as the
// type it declares. It answers the subtype and the decoded image.
func checkProfileImage(dataURL string) (subtype string, image []byte, err error) {
	rest, ok := strings.CutPrefix(dataURL, "data:image/")
	subtype, payload, ok2 := strings.Cut(rest, ";base64,")
	if !ok || !ok2 || !slices.Contains(profileImageTypes, subtype) {
		return "", nil, problem.Invalid(profileImageField,
			`must be a "data:image/(png|jpeg|gif|webp);base64," URL, or "" to clear the image`)
	}
	b, err := base64.StdEncoding.Strict().DecodeString(payload)
	if err != nil {
		return "", nil, problem.Invalid(profileImageField, "the data after ;base64, is not valid base64")
	}
	if len(b) > maxProfileImageBytes {
		return "", nil, errProfileImageTooLarge
	}
	want := "image/" + subtype
	// A more specific type (an animated PNG) is still its parent type.
	for mt := mimetype.Detect(b); mt != nil; mt = mt.Parent() {
		if mt.Is(want) {
			return subtype, b, nil
		}
	}
	return "", nil, problem.Invalid(profileImageField, "the data is not a "+strings.ToUpper(subtype)+" image")
}

var errProfileImageTooLarge = problem.Invalid(profileImageField, "the image must be at most 2 MB (2,097,152 bytes) decoded")
