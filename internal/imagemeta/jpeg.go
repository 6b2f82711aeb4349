package imagemeta

import "bytes"

// JPEG keeps SOI, the tables, frame and scan headers with their entropy-coded
// data, and of the application segments only those display needs: APP0 JFIF,
// APP2 ICC_PROFILE and APP14 Adobe (colour transform). It drops APP1 (Exif,
// where GPS lives, and XMP), every other APPn (MPF, JFXX thumbnails, maker
// data), COM, and everything after EOI: phones append a second JPEG there
// (multi-picture files) with its own Exif.
func JPEG(data []byte) ([]byte, error) {
	if len(data) < 4 || data[0] != 0xFF || data[1] != 0xD8 {
		return nil, malformed("jpeg: no SOI marker")
	}
	out := make([]byte, 0, len(data))
	out = append(out, 0xFF, 0xD8)
	i := 2
	for blocks := 0; ; blocks++ {
		if blocks > maxBlocks {
			return nil, malformed("jpeg: more than %d segments", maxBlocks)
		}
		if i >= len(data) {
			return nil, malformed("jpeg: no EOI marker")
		}
		if data[i] != 0xFF {
			return nil, malformed("jpeg: expected a marker at %d", i)
		}
		// Markers may be preceded by any number of 0xFF fill bytes.
		for i < len(data) && data[i] == 0xFF {
			i++
		}
		if i >= len(data) {
			return nil, malformed("jpeg: truncated marker")
		}
		marker := data[i]
		i++
		switch {
		case marker == 0xD9: // EOI: whatever follows is dropped
			return append(out, 0xFF, 0xD9), nil
		case marker == 0xD8 || marker == 0x00:
			return nil, malformed("jpeg: unexpected marker %#x", marker)
		case marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7): // TEM, RSTn: no length
			out = append(out, 0xFF, marker)
			continue
		}
		if i+2 > len(data) {
			return nil, malformed("jpeg: truncated segment length")
		}
		length := int(data[i])<<8 | int(data[i+1])
		if length < 2 || i+length > len(data) {
			return nil, malformed("jpeg: bad segment length")
		}
		payload := data[i+2 : i+length]
		end := i + length
		if keepJPEGSegment(marker, payload) {
			out = append(out, 0xFF, marker)
			out = append(out, data[i:end]...)
		}
		i = end
		if marker == 0xDA { // start of scan: copy the entropy-coded data
			n, err := scanLength(data[i:])
			if err != nil {
				return nil, err
			}
			out = append(out, data[i:i+n]...)
			i += n
		}
	}
}

// keepJPEGSegment says whether a segment with a length is needed to display
// the image.
func keepJPEGSegment(marker byte, payload []byte) bool {
	switch {
	case marker == 0xE0:
		return bytes.HasPrefix(payload, []byte("JFIF\x00"))
	case marker == 0xE2:
		return bytes.HasPrefix(payload, []byte("ICC_PROFILE\x00"))
	case marker == 0xEE:
		return bytes.HasPrefix(payload, []byte("Adobe"))
	case marker >= 0xE0 && marker <= 0xEF, marker == 0xFE: // other APPn, COM
		return false
	}
	return true
}

// scanLength is the length of the entropy-coded data at the start of b: up to
// the first marker other than a stuffed 0xFF00 or a restart marker.
func scanLength(b []byte) (int, error) {
	for i := 0; i < len(b); i++ {
		if b[i] != 0xFF {
			continue
		}
		if i+1 >= len(b) {
			break
		}
		switch next := b[i+1]; {
		case next == 0x00, next >= 0xD0 && next <= 0xD7:
			i++
		case next == 0xFF: // fill byte before a marker
		default:
			return i, nil
		}
	}
	return 0, malformed("jpeg: scan data runs to the end of the file")
}
