// Package imagemeta removes metadata from PNG, JPEG, GIF and WebP files by
// rewriting their containers: the pieces display needs are copied byte for
// byte (so the pixels stay exactly as uploaded, animation included) and every
// other piece is dropped. What is kept is an allow-list, so a metadata block
// nobody thought of is dropped too. On the way it reads what the headers
// declare (Info: size and frames), without decoding a pixel, so a caller can
// refuse a decompression bomb before anyone decodes it.
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

// Info is what a file's headers declare about its picture.
type Info struct {
	// Width and Height are the canvas, grown to any frame that declares
	// itself past it: what a decoder may allocate.
	Width, Height int
	// Frames is the number of frames: 1 for a still image.
	Frames int
}

// Pixels is Width × Height.
func (i Info) Pixels() int64 { return int64(i.Width) * int64(i.Height) }

// grow widens the size to hold a frame of w × h at (x, y).
func (i *Info) grow(x, y, w, h int) {
	i.Width = max(i.Width, x+w)
	i.Height = max(i.Height, y+h)
}

// Strip returns data without its metadata, and what its headers declare, for
// the media type mimetype detected ("image/png", "image/jpeg", "image/gif" or
// "image/webp"; an animated PNG is an "image/png").
func Strip(contentType string, data []byte) ([]byte, Info, error) {
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
	return nil, Info{}, fmt.Errorf("%w: unsupported type %q", ErrMalformed, contentType)
}

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrMalformed}, args...)...)
}
