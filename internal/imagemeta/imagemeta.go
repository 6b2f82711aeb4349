// Package imagemeta removes metadata from PNG, JPEG, GIF and WebP files by
// rewriting their containers: the pieces display needs are copied byte for
// byte (so the pixels stay exactly as uploaded, animation included) and every
// other piece is dropped. What is kept is an allow-list, so a metadata block
// nobody thought of is dropped too.
//
// Every function walks its input once and refuses, with ErrMalformed, a file
// whose structure does not hold together or that has more than maxBlocks
// pieces: what a member uploads bounds the work.
package imagemeta

import (
	"errors"
	"fmt"
)

// ErrMalformed is wrapped by every error about the file's structure.
var ErrMalformed = errors.New("malformed image")

// maxBlocks bounds the segments, chunks or blocks of one file. A 5 MB GIF of
// tiny frames has a few hundred thousand blocks at most; nothing real comes near.
const maxBlocks = 100_000

// Strip returns data without its metadata, for the media type mimetype
// detected ("image/png", "image/jpeg", "image/gif" or "image/webp").
func Strip(contentType string, data []byte) ([]byte, error) {
	switch contentType {
	case "image/jpeg":
		return JPEG(data)
	case "image/png":
		return PNG(data)
	case "image/gif":
		return GIF(data)
	case "image/webp":
		return WebP(data)
	}
	return nil, fmt.Errorf("%w: unsupported type %q", ErrMalformed, contentType)
}

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrMalformed}, args...)...)
}
