package imagemeta

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
)

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// pngKeep are the ancillary chunks display needs: transparency, colour
// (gamma, chromaticities, sRGB, ICC profile, significant bits, background),
// pixel size, and the animation chunks of APNG. Critical chunks are always
// kept. Everything else is dropped: tEXt, zTXt and iTXt (where XMP and
// free-form GPS text live), eXIf, tIME and private chunks.
var pngKeep = map[string]bool{
	"tRNS": true, "gAMA": true, "cHRM": true, "sRGB": true, "iCCP": true, "sBIT": true,
	"bKGD": true, "pHYs": true, "acTL": true, "fcTL": true, "fdAT": true,
}

// pngCritical are the critical chunks a decoder knows.
var pngCritical = map[string]bool{"IHDR": true, "PLTE": true, "IDAT": true, "IEND": true}

// PNG keeps the signature, the critical chunks and the display chunks of
// pngKeep, with their CRCs checked, and drops every other chunk and anything
// after IEND. Its Info is IHDR's size grown to any fcTL frame past it, and
// the frames an animated PNG declares in acTL (or the fcTL chunks it has, if
// more).
func PNG(data []byte) ([]byte, Info, error) {
	var info Info
	fcTLs := 0
	if !bytes.HasPrefix(data, pngSignature) {
		return nil, info, malformed("png: no signature")
	}
	out := make([]byte, 0, len(data))
	out = append(out, pngSignature...)
	i := len(pngSignature)
	for blocks := 0; ; blocks++ {
		if blocks > maxBlocks {
			return nil, info, malformed("png: more than %d chunks", maxBlocks)
		}
		if i+12 > len(data) {
			return nil, info, malformed("png: no IEND chunk")
		}
		n := binary.BigEndian.Uint32(data[i:])
		if n > uint32(len(data)-i-12) {
			return nil, info, malformed("png: chunk length past the end")
		}
		end := i + 12 + int(n)
		typ := string(data[i+4 : i+8])
		if crc32.ChecksumIEEE(data[i+4:end-4]) != binary.BigEndian.Uint32(data[end-4:]) {
			return nil, info, malformed("png: bad CRC in chunk %q", typ)
		}
		if blocks == 0 && typ != "IHDR" {
			return nil, info, malformed("png: first chunk is not IHDR")
		}
		critical := typ[0]&0x20 == 0
		if critical && !pngCritical[typ] {
			return nil, info, malformed("png: unknown critical chunk %q", typ)
		}
		if critical || pngKeep[typ] {
			out = append(out, data[i:end]...)
		}
		if err := info.readPNGChunk(typ, data[i+8:end-4]); err != nil {
			return nil, info, err
		}
		if typ == "fcTL" {
			fcTLs++
		}
		i = end
		if typ == "IEND" {
			info.Frames = max(info.Frames, fcTLs, 1)
			return out, info, nil
		}
	}
}

// readPNGChunk reads the size and frames a chunk declares: IHDR's size,
// acTL's frame count, an fcTL frame's size and position.
func (info *Info) readPNGChunk(typ string, p []byte) error {
	be := binary.BigEndian
	switch typ {
	case "IHDR":
		if len(p) != 13 {
			return malformed("png: IHDR of %d bytes", len(p))
		}
		w, h := be.Uint32(p), be.Uint32(p[4:])
		if w == 0 || h == 0 || w > 1<<31-1 || h > 1<<31-1 {
			return malformed("png: IHDR size %d×%d", w, h)
		}
		info.grow(0, 0, int(w), int(h))
	case "acTL":
		if len(p) != 8 {
			return malformed("png: acTL of %d bytes", len(p))
		}
		info.Frames = max(info.Frames, int(min(be.Uint32(p), 1<<31-1)))
	case "fcTL":
		if len(p) != 26 {
			return malformed("png: fcTL of %d bytes", len(p))
		}
		w, h, x, y := be.Uint32(p[4:]), be.Uint32(p[8:]), be.Uint32(p[12:]), be.Uint32(p[16:])
		if w > 1<<30 || h > 1<<30 || x > 1<<30 || y > 1<<30 {
			return malformed("png: fcTL frame %d×%d at %d,%d", w, h, x, y)
		}
		info.grow(int(x), int(y), int(w), int(h))
	}
	return nil
}
