package imagemeta

import "bytes"

// gifKeepApps are the application extensions display needs: the loop count of
// an animation, under either of the names browsers read.
var gifKeepApps = [][]byte{[]byte("NETSCAPE2.0"), []byte("ANIMEXTS1.0")}

// GIF keeps the header, the colour tables, the images with their graphic
// control extensions, plain-text extensions and the looping application
// extension, and drops comment extensions, every other application extension
// (XMP, ICC, maker data), unknown extensions and anything after the trailer.
func GIF(data []byte) ([]byte, error) {
	if len(data) < 13 || !(bytes.HasPrefix(data, []byte("GIF87a")) || bytes.HasPrefix(data, []byte("GIF89a"))) {
		return nil, malformed("gif: no header")
	}
	i := 13 + colorTableSize(data[10])
	if i > len(data) {
		return nil, malformed("gif: truncated global colour table")
	}
	out := make([]byte, 0, len(data))
	out = append(out, data[:i]...)
	images := 0
	for blocks := 0; ; blocks++ {
		if blocks > maxBlocks {
			return nil, malformed("gif: more than %d blocks", maxBlocks)
		}
		if i >= len(data) {
			return nil, malformed("gif: no trailer")
		}
		switch data[i] {
		case 0x3B: // trailer
			if images == 0 {
				return nil, malformed("gif: no image")
			}
			return append(out, 0x3B), nil
		case 0x2C: // image descriptor, local colour table, LZW code size, data
			if i+11 > len(data) {
				return nil, malformed("gif: truncated image descriptor")
			}
			start := i + 10 + colorTableSize(data[i+9]) + 1
			end, err := subBlocksEnd(data, start)
			if err != nil {
				return nil, err
			}
			out = append(out, data[i:end]...)
			i = end
			images++
		case 0x21: // extension: label, then sub-blocks
			if i+2 > len(data) {
				return nil, malformed("gif: truncated extension")
			}
			end, err := subBlocksEnd(data, i+2)
			if err != nil {
				return nil, err
			}
			if keepGIFExtension(data[i+1], data[i+2:end]) {
				out = append(out, data[i:end]...)
			}
			i = end
		default:
			return nil, malformed("gif: unknown block %#x at %d", data[i], i)
		}
	}
}

func keepGIFExtension(label byte, body []byte) bool {
	switch label {
	case 0xF9, 0x01: // graphic control, plain text
		return true
	case 0xFF: // application: the first sub-block is the 11-byte identifier
		if len(body) < 12 || body[0] != 11 {
			return false
		}
		for _, app := range gifKeepApps {
			if bytes.Equal(body[1:12], app) {
				return true
			}
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
