package imagemeta

import (
	"bytes"
	"encoding/binary"
)

// webpKeep are the RIFF chunks that make the picture: the bitstreams, the
// extended header, alpha, animation and the ICC profile. EXIF, XMP and
// unknown chunks are dropped. An animation frame (ANMF) is rewritten with
// only its frameKeep chunks.
var webpKeep = map[string]bool{
	"VP8 ": true, "VP8L": true, "VP8X": true, "ALPH": true, "ANIM": true, "ICCP": true,
}

// frameKeep are the chunks of an animation frame's data that make the
// picture; the format lets a frame carry unknown chunks too (where EXIF or
// XMP can hide).
var frameKeep = map[string]bool{"VP8 ": true, "VP8L": true, "ALPH": true}

// VP8X flag bits (the first byte of its payload) that announce metadata.
const (
	vp8xEXIF = 0x08
	vp8xXMP  = 0x04
)

// anmfHeader is the length of an ANMF payload's frame header: X and Y
// offsets (halved), width and height (minus one), duration, flags.
const anmfHeader = 16

// WebP keeps the chunks of webpKeep and the animation frames without their
// unknown chunks, clears the EXIF and XMP flags of VP8X, rewrites the RIFF
// size, and drops anything after the RIFF form. Its Info is the VP8X canvas
// grown to any frame or bitstream past it, and the ANMF frames (1 for a
// still image).
func WebP(data []byte) ([]byte, Info, error) {
	var info Info
	if len(data) < 12 || !bytes.Equal(data[0:4], []byte("RIFF")) || !bytes.Equal(data[8:12], []byte("WEBP")) {
		return nil, info, malformed("webp: no RIFF WEBP header")
	}
	size := binary.LittleEndian.Uint32(data[4:8])
	if size < 4 || size > uint32(len(data)-8) {
		return nil, info, malformed("webp: RIFF size past the end")
	}
	form := data[:8+int(size)]
	out := make([]byte, 0, len(form))
	out = append(out, form[:12]...)
	images, blocks := 0, 0
	err := riffChunks(form[12:], &blocks, func(fourCC string, payload, chunk []byte) error {
		switch {
		case fourCC == "ANMF":
			frame, err := webpFrame(payload, &info, &blocks)
			if err != nil {
				return err
			}
			out = appendRIFFChunk(out, "ANMF", frame)
			info.Frames++
			images++
		case webpKeep[fourCC]:
			start := len(out)
			out = append(out, chunk...)
			switch fourCC {
			case "VP8X":
				if len(payload) < 10 {
					return malformed("webp: short VP8X chunk")
				}
				out[start+8] &^= vp8xEXIF | vp8xXMP
				info.grow(0, 0, 1+le24(payload[4:]), 1+le24(payload[7:]))
			case "VP8 ", "VP8L":
				if err := info.readBitstream(fourCC, payload, 0, 0); err != nil {
					return err
				}
				images++
			}
		}
		return nil
	})
	if err != nil {
		return nil, info, err
	}
	if images == 0 {
		return nil, info, malformed("webp: no image data")
	}
	info.Frames = max(info.Frames, 1)
	binary.LittleEndian.PutUint32(out[4:8], uint32(len(out)-8))
	return out, info, nil
}

// webpFrame answers an ANMF payload with only its header and frameKeep
// chunks, and grows info to the frame.
func webpFrame(payload []byte, info *Info, blocks *int) ([]byte, error) {
	if len(payload) < anmfHeader {
		return nil, malformed("webp: short ANMF chunk")
	}
	x, y := 2*le24(payload[0:]), 2*le24(payload[3:])
	info.grow(x, y, 1+le24(payload[6:]), 1+le24(payload[9:]))
	frame := append([]byte(nil), payload[:anmfHeader]...)
	images := 0
	err := riffChunks(payload[anmfHeader:], blocks, func(fourCC string, p, chunk []byte) error {
		if !frameKeep[fourCC] {
			return nil
		}
		frame = append(frame, chunk...)
		if fourCC == "ALPH" {
			return nil
		}
		images++
		return info.readBitstream(fourCC, p, x, y)
	})
	if err != nil {
		return nil, err
	}
	if images != 1 {
		return nil, malformed("webp: ANMF frame with %d bitstreams", images)
	}
	return frame, nil
}

// riffChunks calls fn with each chunk of list (its FourCC, its payload and
// the whole chunk with its padding), checking every length, and counts the
// chunks in blocks against maxBlocks.
func riffChunks(list []byte, blocks *int, fn func(fourCC string, payload, chunk []byte) error) error {
	for i := 0; i < len(list); {
		if *blocks++; *blocks > maxBlocks {
			return malformed("webp: more than %d chunks", maxBlocks)
		}
		if i+8 > len(list) {
			return malformed("webp: truncated chunk header")
		}
		fourCC := string(list[i : i+4])
		n := binary.LittleEndian.Uint32(list[i+4:])
		if n > uint32(len(list)-i-8) {
			return malformed("webp: chunk %q past the end", fourCC)
		}
		end := i + 8 + int(n)
		padded := end + int(n&1)
		if padded > len(list) {
			return malformed("webp: chunk %q padding past the end", fourCC)
		}
		if err := fn(fourCC, list[i+8:end], list[i:padded]); err != nil {
			return err
		}
		i = padded
	}
	return nil
}

// appendRIFFChunk appends a chunk of payload, padded to an even length.
func appendRIFFChunk(out []byte, fourCC string, payload []byte) []byte {
	out = append(out, fourCC...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(payload)))
	out = append(out, payload...)
	if len(payload)%2 == 1 {
		out = append(out, 0)
	}
	return out
}

// readBitstream grows info to the size a VP8 or VP8L bitstream's header
// declares, placed at (x, y).
func (info *Info) readBitstream(fourCC string, p []byte, x, y int) error {
	switch fourCC {
	case "VP8 ": // frame tag (3 bytes), start code 9d 01 2a, 14-bit width and height
		if len(p) < 10 || !bytes.Equal(p[3:6], []byte{0x9d, 0x01, 0x2a}) {
			return malformed("webp: bad VP8 frame header")
		}
		info.grow(x, y, int(binary.LittleEndian.Uint16(p[6:])&0x3FFF), int(binary.LittleEndian.Uint16(p[8:])&0x3FFF))
	case "VP8L": // signature 0x2f, then 14-bit width and height, minus one
		if len(p) < 5 || p[0] != 0x2f {
			return malformed("webp: bad VP8L header")
		}
		bits := binary.LittleEndian.Uint32(p[1:])
		info.grow(x, y, 1+int(bits&0x3FFF), 1+int(bits>>14&0x3FFF))
	}
	return nil
}

// le24 reads a 24-bit little-endian number.
func le24(b []byte) int { return int(b[0]) | int(b[1])<<8 | int(b[2])<<16 }
