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
// after IEND.
func PNG(data []byte) ([]byte, error) {
	if !bytes.HasPrefix(data, pngSignature) {
		return nil, malformed("png: no signature")
	}
	out := make([]byte, 0, len(data))
	out = append(out, pngSignature...)
	i := len(pngSignature)
	for blocks := 0; ; blocks++ {
		if blocks > maxBlocks {
			return nil, malformed("png: more than %d chunks", maxBlocks)
		}
		if i+12 > len(data) {
			return nil, malformed("png: no IEND chunk")
		}
		n := binary.BigEndian.Uint32(data[i:])
		if n > uint32(len(data)-i-12) {
			return nil, malformed("png: chunk length past the end")
		}
		end := i + 12 + int(n)
		typ := string(data[i+4 : i+8])
		if crc32.ChecksumIEEE(data[i+4:end-4]) != binary.BigEndian.Uint32(data[end-4:]) {
			return nil, malformed("png: bad CRC in chunk %q", typ)
		}
		if blocks == 0 && typ != "IHDR" {
			return nil, malformed("png: first chunk is not IHDR")
		}
		critical := typ[0]&0x20 == 0
		if critical && !pngCritical[typ] {
			return nil, malformed("png: unknown critical chunk %q", typ)
		}
		if critical || pngKeep[typ] {
			out = append(out, data[i:end]...)
		}
		i = end
		if typ == "IEND" {
			return out, nil
		}
	}
}
