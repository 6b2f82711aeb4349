package imagemeta

import "bytes"

// JPEG keeps SOI, the tables, frame and scan headers with their entropy-coded
// data, and of the application segments only those display needs: APP0 JFIF
// (without the thumbnail it may carry, which can show the uncropped
// original), APP2 ICC_PROFILE and APP14 Adobe (colour transform). It drops
// APP1 (Exif, where GPS lives, and XMP), every other APPn (MPF, JFXX
// thumbnails, maker data), the reserved JPGn markers 0xF0–0xFD, COM, and
// everything after EOI: phones append a second JPEG there (multi-picture
// files) with its own Exif. Its Info is the frame header's size, one frame.
func JPEG(data []byte) ([]byte, Info, error) {
	info := Info{Frames: 1}
	if len(data) < 4 || data[0] != 0xFF || data[1] != 0xD8 {
		return nil, info, malformed("jpeg: no SOI marker")
	}
	out := make([]byte, 0, len(data))
	out = append(out, 0xFF, 0xD8)
	i := 2
	for blocks := 0; ; blocks++ {
		if blocks > maxBlocks {
			return nil, info, malformed("jpeg: more than %d segments", maxBlocks)
		}
		if i >= len(data) {
			return nil, info, malformed("jpeg: no EOI marker")
		}
		if data[i] != 0xFF {
			return nil, info, malformed("jpeg: expected a marker at %d", i)
		}
		// Markers may be preceded by any number of 0xFF fill bytes.
		for i < len(data) && data[i] == 0xFF {
			i++
		}
		if i >= len(data) {
			return nil, info, malformed("jpeg: truncated marker")
		}
		marker := data[i]
		i++
		switch {
		case marker == 0xD9: // EOI: whatever follows is dropped
			if info.Width == 0 {
				return nil, info, malformed("jpeg: no frame header")
			}
			return append(out, 0xFF, 0xD9), info, nil
		case marker == 0xD8 || marker == 0x00:
			return nil, info, malformed("jpeg: unexpected marker %#x", marker)
		case marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7): // TEM, RSTn: no length
			out = append(out, 0xFF, marker)
			continue
		}
		if i+2 > len(data) {
			return nil, info, malformed("jpeg: truncated segment length")
		}
		length := int(data[i])<<8 | int(data[i+1])
		if length < 2 || i+length > len(data) {
			return nil, info, malformed("jpeg: bad segment length")
		}
		payload := data[i+2 : i+length]
		end := i + length
		if isSOF(marker) {
			if len(payload) < 6 {
				return nil, info, malformed("jpeg: short frame header")
			}
			h, w := int(payload[1])<<8|int(payload[2]), int(payload[3])<<8|int(payload[4])
			if w == 0 || h == 0 { // a height left to a DNL marker: no decoder we serve to needs it
				return nil, info, malformed("jpeg: frame of %d×%d", w, h)
			}
			info.grow(0, 0, w, h)
		}
		switch {
		case marker == 0xE0 && bytes.HasPrefix(payload, jfif):
			out = appendJFIF(out, payload)
		case keepJPEGSegment(marker, payload):
			out = append(out, 0xFF, marker)
			out = append(out, data[i:end]...)
		}
		i = end
		if marker == 0xDA { // start of scan: copy the entropy-coded data
			n, err := scanLength(data[i:])
			if err != nil {
				return nil, info, err
			}
			out = append(out, data[i:i+n]...)
			i += n
		}
	}
}

var jfif = []byte("JFIF\x00")

// jfifHeader is the length of a JFIF APP0 payload without its thumbnail:
// identifier, version, density units, X and Y density, thumbnail width and
// height.
const jfifHeader = 14

// appendJFIF appends a JFIF APP0 segment without the thumbnail its payload may
// carry (the thumbnail's size set to 0×0). A JFIF segment too short to hold
// its own header is dropped: display does without it.
func appendJFIF(out, payload []byte) []byte {
	if len(payload) < jfifHeader {
		return out
	}
	out = append(out, 0xFF, 0xE0, 0, jfifHeader+2)
	out = append(out, payload[:jfifHeader-2]...)
	return append(out, 0, 0)
}

// isSOF says whether a marker starts a frame header (SOF0–SOF15 less DHT,
// JPG and DAC, which share the range).
func isSOF(marker byte) bool {
	return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
}

// keepJPEGSegment says whether a segment with a length is needed to display
// the image. APP0 JFIF is rewritten by appendJFIF instead.
func keepJPEGSegment(marker byte, payload []byte) bool {
	switch {
	case marker == 0xE2:
		return bytes.HasPrefix(payload, []byte("ICC_PROFILE\x00"))
	case marker == 0xEE:
		return bytes.HasPrefix(payload, []byte("Adobe"))
	case marker >= 0xE0 && marker <= 0xEF, marker >= 0xF0 && marker <= 0xFD, marker == 0xFE: // other APPn, JPGn, COM
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
