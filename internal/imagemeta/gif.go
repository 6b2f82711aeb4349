package imagemeta

import (
	"bytes"
	"encoding/binary"
)

// gifKeepApps are the application extensions display needs: the loop count of
// an animation, under either of the names browsers read.
var gifKeepApps = [][]byte{[]byte("NETSCAPE2.0"), []byte("ANIMEXTS1.0")}

// GIF keeps the header, the colour tables, the images with their graphic
// control extensions and the looping application extension, and drops
// plain-text extensions (text drawn over the picture, with the graphic
// control extension that times it), comment extensions, every other
// application extension (XMP, ICC, maker data), unknown extensions and
// anything after the trailer. Its Info is the logical screen grown to any
// image past it, and the number of images.
func GIF(data []byte) ([]byte, Info, error) {
	var info Info
	if len(data) < 13 || !(bytes.HasPrefix(data, []byte("GIF87a")) || bytes.HasPrefix(data, []byte("GIF89a"))) {
		return nil, info, malformed("gif: no header")
	}
	info.grow(0, 0, int(binary.LittleEndian.Uint16(data[6:])), int(binary.LittleEndian.Uint16(data[8:])))
	i := 13 + colorTableSize(data[10])
	if i > len(data) {
		return nil, info, malformed("gif: truncated global colour table")
	}
	out := make([]byte, 0, len(data))
	out = append(out, data[:i]...)
	// control is the graphic control extension waiting for the block it
	// times: written before an image, dropped with a plain-text block.
	var control []byte
	for blocks := 0; ; blocks++ {
		if blocks > maxBlocks {
			return nil, info, malformed("gif: more than %d blocks", maxBlocks)
		}
		if i >= len(data) {
			return nil, info, malformed("gif: no trailer")
		}
		switch data[i] {
		case 0x3B: // trailer
			if info.Frames == 0 {
				return nil, info, malformed("gif: no image")
			}
			return append(out, 0x3B), info, nil
		case 0x2C: // image descriptor, local colour table, LZW code size, data
			if i+11 > len(data) {
				return nil, info, malformed("gif: truncated image descriptor")
			}
			le := binary.LittleEndian
			info.grow(int(le.Uint16(data[i+1:])), int(le.Uint16(data[i+3:])), int(le.Uint16(data[i+5:])), int(le.Uint16(data[i+7:])))
			start := i + 10 + colorTableSize(data[i+9]) + 1
			end, err := subBlocksEnd(data, start)
			if err != nil {
				return nil, info, err
			}
			out = append(append(out, control...), data[i:end]...)
			control = nil
			i = end
			info.Frames++
		case 0x21: // extension: label, then sub-blocks
			if i+2 > len(data) {
				return nil, info, malformed("gif: truncated extension")
			}
			end, err := subBlocksEnd(data, i+2)
			if err != nil {
				return nil, info, err
			}
			switch label := data[i+1]; {
			case label == 0xF9:
				out = append(out, control...) // a second one in a row: kept, as before
				control = data[i:end]
			case label == 0x01:
				control = nil
			case keepGIFExtension(label, data[i+2:end]):
				out = append(out, data[i:end]...)
			}
			i = end
		default:
			return nil, info, malformed("gif: unknown block %#x at %d", data[i], i)
		}
	}
}

func keepGIFExtension(label byte, body []byte) bool {
	if label != 0xFF { // only application extensions are kept, and not all
		return false
	}
	// The first sub-block is the 11-byte identifier.
	if len(body) < 12 || body[0] != 11 {
		return false
	}
	for _, app := range gifKeepApps {
		if bytes.Equal(body[1:12], app) {
			return true
		}
	}
	return false
}

// colorTableSize is the size of the colour table a packed-fields byte announces.
func colorTableSize(packed byte) int {
	if packed&0x80 == 0 {
		return 0
	}
	return 3 << (int(packed&0x07) + 1)
}

// subBlocksEnd is the offset just past the sub-blocks starting at i (each a
// length byte and that many bytes, ended by a zero length).
func subBlocksEnd(data []byte, i int) (int, error) {
	for n := 0; n <= maxBlocks; n++ {
		if i >= len(data) {
			return 0, malformed("gif: truncated sub-blocks")
		}
		size := int(data[i])
		i += 1 + size
		if size == 0 {
			return i, nil
		}
	}
	return 0, malformed("gif: more than %d sub-blocks", maxBlocks)
}
