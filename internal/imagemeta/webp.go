package imagemeta

import (
	"bytes"
	"encoding/binary"
)

// webpKeep are the RIFF chunks that make the picture: the bitstreams, the
// extended header, alpha, animation and the ICC profile. EXIF, XMP and
// unknown chunks are dropped.
var webpKeep = map[string]bool{
	"VP8 ": true, "VP8L": true, "VP8X": true, "ALPH": true, "ANIM": true, "ANMF": true, "ICCP": true,
}

// VP8X flag bits (the first byte of its payload) that announce metadata.
const (
	vp8xEXIF = 0x08
	vp8xXMP  = 0x04
)

// WebP keeps the chunks of webpKeep, clears the EXIF and XMP flags of VP8X,
// rewrites the RIFF size, and drops anything after the RIFF form.
func WebP(data []byte) ([]byte, error) {
	if len(data) < 12 || !bytes.Equal(data[0:4], []byte("RIFF")) || !bytes.Equal(data[8:12], []byte("WEBP")) {
		return nil, malformed("webp: no RIFF WEBP header")
	}
	size := binary.LittleEndian.Uint32(data[4:8])
	if size < 4 || size > uint32(len(data)-8) {
		return nil, malformed("webp: RIFF size past the end")
	}
	form := data[:8+int(size)]
	out := make([]byte, 0, len(form))
	out = append(out, form[:12]...)
	i := 12
	images := 0
	for blocks := 0; i < len(form); blocks++ {
		if blocks > maxBlocks {
			return nil, malformed("webp: more than %d chunks", maxBlocks)
		}
		if i+8 > len(form) {
			return nil, malformed("webp: truncated chunk header")
		}
		fourCC := string(form[i : i+4])
		n := binary.LittleEndian.Uint32(form[i+4:])
		if n > uint32(len(form)-i-8) {
			return nil, malformed("webp: chunk %q past the end", fourCC)
		}
		end := i + 8 + int(n)
		padded := end + int(n&1)
		if padded > len(form) {
			return nil, malformed("webp: chunk %q padding past the end", fourCC)
		}
		if webpKeep[fourCC] {
			start := len(out)
			out = append(out, form[i:padded]...)
			if fourCC == "VP8X" {
				if n < 10 {
					return nil, malformed("webp: short VP8X chunk")
				}
				out[start+8] &^= vp8xEXIF | vp8xXMP
			}
			if fourCC == "VP8 " || fourCC == "VP8L" || fourCC == "ANMF" {
				images++
			}
		}
		i = padded
	}
	if images == 0 {
		return nil, malformed("webp: no image data")
	}
	binary.LittleEndian.PutUint32(out[4:8], uint32(len(out)-8))
	return out, nil
}
