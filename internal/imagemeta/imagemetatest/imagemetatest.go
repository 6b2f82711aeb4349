// Package imagemetatest builds real image files that carry a GPS position in
// every metadata container their format has, for the tests of the packages
// that must remove it.
package imagemetatest

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"
)

// Leaks are byte strings that only metadata holds in the files built here:
// the Exif/TIFF headers, the GPS IFD pointer tag, XMP's namespace and the
// position written as text. None may survive stripping.
var Leaks = [][]byte{
	[]byte("Exif\x00\x00"),
	[]byte("MM\x00\x2a"),
	[]byte("\x88\x25\x00\x04"), // IFD entry: tag GPSInfo, type LONG
	[]byte("ns.adobe.com/xap"),
	[]byte("GPSLatitude"),
	[]byte("37.5665N"),
	[]byte("secret-appendix"),
}

// CheckClean fails t when any of Leaks is in b.
func CheckClean(t testing.TB, b []byte) {
	t.Helper()
	for _, l := range Leaks {
		if bytes.Contains(b, l) {
			t.Errorf("the image still holds %q", l)
		}
	}
}

// exif is an Exif block (TIFF, big-endian) whose IFD0 points at a GPS IFD
// with GPSLatitudeRef "N" and GPSLatitude 37/1 33/1 599/10.
func exif() []byte {
	var b bytes.Buffer
	w := func(v any) { _ = binary.Write(&b, binary.BigEndian, v) }
	b.WriteString("MM\x00\x2a")
	w(uint32(8))
	// IFD0 at 8: one entry, GPSInfo (0x8825, LONG) -> GPS IFD at 26.
	w(uint16(1))
	w([]uint16{0x8825, 4})
	w([]uint32{1, 26})
	w(uint32(0))
	// GPS IFD at 26: two entries, then the rationals at 56.
	w(uint16(2))
	w([]uint16{0x0001, 2})
	w(uint32(2))
	b.WriteString("N\x00\x00\x00")
	w([]uint16{0x0002, 5})
	w([]uint32{3, 56})
	w(uint32(0))
	w([]uint32{37, 1, 33, 1, 599, 10})
	return append([]byte("Exif\x00\x00"), b.Bytes()...)
}

// xmp is an XMP packet that repeats the position.
const xmp = `<?xpacket begin=""?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
	`<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" exif:GPSLatitude="37.5665N" exif:GPSLongitude="126.9780E"/>` +
	`</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`

// picture is a small image with some detail, so the encoders write real data.
func picture() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 24, 16))
	for y := range 16 {
		for x := range 24 {
			img.Set(x, y, color.RGBA{uint8(x * 10), uint8(y * 15), uint8(x * y), 255})
		}
	}
	return img
}

func jpegSegment(marker byte, payload []byte) []byte {
	n := len(payload) + 2
	return append([]byte{0xFF, marker, byte(n >> 8), byte(n)}, payload...)
}

// JPEG is a JPEG with JFIF, an ICC profile and Adobe segments (which must
// stay), Exif with GPS, XMP, IPTC, a comment and an MPF segment, followed after
// its EOI by a second JPEG with its own Exif, as phones store multi-picture
// files.
func JPEG(t testing.TB) []byte {
	t.Helper()
	var enc bytes.Buffer
	if err := jpeg.Encode(&enc, picture(), &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	plain := enc.Bytes()
	var b bytes.Buffer
	b.Write(plain[:2])
	b.Write(jpegSegment(0xE0, []byte("JFIF\x00\x01\x02\x00\x00\x01\x00\x01\x00\x00")))
	b.Write(jpegSegment(0xE1, exif()))
	b.Write(jpegSegment(0xE1, append([]byte("http://ns.adobe.com/xap/1.0/\x00"), xmp...)))
	b.Write(jpegSegment(0xE2, []byte("ICC_PROFILE\x00\x01\x01not-a-real-profile")))
	b.Write(jpegSegment(0xE2, []byte("MPF\x00MM\x00\x2a\x00\x00\x00\x08")))
	b.Write(jpegSegment(0xED, []byte("Photoshop 3.0\x008BIM GPSLatitude 37.5665N")))
	b.Write(jpegSegment(0xFE, []byte("taken at 37.5665N 126.9780E")))
	b.Write(plain[2:])
	// The second picture of a multi-picture file.
	b.Write(plain[:2])
	b.Write(jpegSegment(0xE1, exif()))
	b.Write(plain[2:])
	b.WriteString("secret-appendix")
	return b.Bytes()
}

func pngChunk(typ string, data []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	b = append(b, typ...)
	b = append(b, data...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[4:]))
}

// PNG is a PNG with gAMA (which must stay), eXIf with GPS, tEXt, zTXt-like
// iTXt XMP and tIME chunks, and bytes after IEND.
func PNG(t testing.TB) []byte {
	t.Helper()
	var enc bytes.Buffer
	if err := png.Encode(&enc, picture()); err != nil {
		t.Fatal(err)
	}
	plain := enc.Bytes()
	ihdrEnd := 8 + 12 + 13
	var b bytes.Buffer
	b.Write(plain[:ihdrEnd])
	b.Write(pngChunk("gAMA", []byte{0, 0, 0xB1, 0x8F}))
	b.Write(pngChunk("eXIf", exif()[6:]))
	b.Write(pngChunk("tEXt", []byte("Comment\x00GPSLatitude 37.5665N")))
	b.Write(pngChunk("iTXt", append([]byte("XML:com.adobe.xmp\x00\x00\x00\x00\x00"), xmp...)))
	b.Write(pngChunk("tIME", []byte{0x07, 0xEA, 11, 24, 8, 0, 0}))
	b.Write(plain[ihdrEnd:])
	b.WriteString("secret-appendix")
	return b.Bytes()
}

// GIF is a two-frame looping GIF with a comment extension and an XMP
// application extension carrying the position, and bytes after the trailer.
func GIF(t testing.TB) []byte {
	t.Helper()
	src := picture()
	anim := &gif.GIF{LoopCount: 0}
	for range 2 {
		p := image.NewPaletted(src.Bounds(), palette.Plan9)
		for y := range 16 {
			for x := range 24 {
				p.Set(x, y, src.At(x, y))
			}
		}
		anim.Image = append(anim.Image, p)
		anim.Delay = append(anim.Delay, 10)
	}
	var enc bytes.Buffer
	if err := gif.EncodeAll(&enc, anim); err != nil {
		t.Fatal(err)
	}
	plain := enc.Bytes()
	i := GIFBlocksStart(plain)
	var b bytes.Buffer
	b.Write(plain[:i])
	b.Write(gifExtension(0xFE, []byte("taken at 37.5665N 126.9780E")))
	b.Write(gifExtension(0xFF, []byte("XMP DataXMP"), []byte(xmp)))
	b.Write(plain[i:])
	b.WriteString("secret-appendix")
	return b.Bytes()
}

// gifExtension is an extension block whose sub-blocks hold each of parts (cut
// to 255 bytes).
func gifExtension(label byte, parts ...[]byte) []byte {
	b := []byte{0x21, label}
	for _, p := range parts {
		for len(p) > 0 {
			n := min(len(p), 255)
			b = append(b, byte(n))
			b = append(b, p[:n]...)
			p = p[n:]
		}
	}
	return append(b, 0)
}

// webpPixel is a 1x1 lossless VP8L bitstream (the chunk's payload).
var webpPixel = []byte{0x2f, 0x00, 0x00, 0x00, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0x00}

func riffChunk(fourCC string, data []byte) []byte {
	b := append([]byte(fourCC), binary.LittleEndian.AppendUint32(nil, uint32(len(data)))...)
	b = append(b, data...)
	if len(data)%2 == 1 {
		b = append(b, 0)
	}
	return b
}

// WebP is an extended WebP (VP8X announcing EXIF and XMP) with a lossless
// 1x1 image, an EXIF chunk with GPS, an XMP chunk, and bytes after the RIFF form.
func WebP(t testing.TB) []byte {
	t.Helper()
	vp8x := []byte{vp8xFlags, 0, 0, 0, 0, 0, 0, 0, 0, 0} // canvas 1x1 (stored minus one)
	var body bytes.Buffer
	body.WriteString("WEBP")
	body.Write(riffChunk("VP8X", vp8x))
	body.Write(riffChunk("VP8L", webpPixel))
	body.Write(riffChunk("EXIF", exif()[6:]))
	body.Write(riffChunk("XMP ", []byte(xmp)))
	b := append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(body.Len()))...)
	b = append(b, body.Bytes()...)
	return append(b, "secret-appendix"...)
}

// vp8xFlags announces EXIF (0x08) and XMP (0x04).
const vp8xFlags = 0x08 | 0x04

// Plain is the picture encoded by the standard library alone ("png",
// "jpeg" or "gif"): no metadata at all.
func Plain(t testing.TB, format string) []byte {
	t.Helper()
	var b bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&b, picture())
	case "jpeg":
		err = jpeg.Encode(&b, picture(), nil)
	case "gif":
		err = gif.Encode(&b, picture(), nil)
	default:
		t.Fatalf("no plain %s", format)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// GIFBlocksStart is where the blocks of a GIF begin: after the header, the
// screen descriptor and the global colour table, if any.
func GIFBlocksStart(b []byte) int {
	if b[10]&0x80 == 0 {
		return 13
	}
	return 13 + 3<<(int(b[10]&7)+1)
}

// Thumbnail is the text the thumbnails built here carry in their pixels,
// so a test can tell that a thumbnail survived.
const Thumbnail = "uncropped-original"

// JPEGExtras is a plain JPEG with a JFIF APP0 that carries a thumbnail, a JFXX
// APP0 thumbnail, a reserved JPGn segment (0xF5) and a comment, all holding
// Thumbnail.
func JPEGExtras(t testing.TB) []byte {
	t.Helper()
	plain := Plain(t, "jpeg")
	thumb := bytes.Repeat([]byte(Thumbnail), 3)[:3*6*1] // a 6×1 RGB thumbnail
	jfif := append([]byte("JFIF\x00\x01\x02\x00\x00\x48\x00\x48\x06\x01"), thumb...)
	var b bytes.Buffer
	b.Write(plain[:2])
	b.Write(jpegSegment(0xE0, jfif))
	b.Write(jpegSegment(0xE0, append([]byte("JFXX\x00\x13\x06\x01"), thumb...)))
	b.Write(jpegSegment(0xF5, []byte(Thumbnail)))
	b.Write(jpegSegment(0xFE, []byte(Thumbnail)))
	b.Write(plain[2:])
	return b.Bytes()
}

// GIFFrames is a looping GIF of n 2×2 frames; with text, each frame after
// the first is preceded by a plain-text extension (and the graphic control
// extension that times it) holding Thumbnail.
func GIFFrames(t testing.TB, n int, text bool) []byte {
	t.Helper()
	anim := &gif.GIF{LoopCount: 0}
	for i := range n {
		p := image.NewPaletted(image.Rect(0, 0, 2, 2), palette.Plan9)
		p.SetColorIndex(i%2, 0, uint8(i))
		anim.Image = append(anim.Image, p)
		anim.Delay = append(anim.Delay, 5)
	}
	var enc bytes.Buffer
	if err := gif.EncodeAll(&enc, anim); err != nil {
		t.Fatal(err)
	}
	if !text {
		return enc.Bytes()
	}
	// Go's encoder writes each frame as a graphic control extension
	// (21 F9 04 … 00) and then its image: put the text before every later one.
	gce := []byte{0x21, 0xF9, 0x04}
	plainText := gifExtension(0x01, []byte{0, 0, 0, 0, 2, 0, 2, 0, 1, 1, 0, 1}, []byte(Thumbnail))
	b := enc.Bytes()
	first := bytes.Index(b, gce)
	var out bytes.Buffer
	out.Write(b[:first+1])
	for rest := b[first+1:]; ; {
		k := bytes.Index(rest, gce)
		if k < 0 {
			out.Write(rest)
			break
		}
		out.Write(rest[:k])
		out.Write([]byte{0x21, 0xF9, 0x04, 0x00, 0x05, 0x00, 0x00, 0x00}) // times the text
		out.Write(plainText)
		out.Write(rest[k : k+1])
		rest = rest[k+1:]
	}
	return out.Bytes()
}

// PNGDeclaring is a small real PNG whose IHDR is rewritten to declare w × h
// (the CRC fixed): a decompression bomb's header on a few hundred bytes.
func PNGDeclaring(t testing.TB, w, h uint32) []byte {
	t.Helper()
	b := Plain(t, "png")
	binary.BigEndian.PutUint32(b[16:], w)
	binary.BigEndian.PutUint32(b[20:], h)
	binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
	return b
}

// APNG is an animated PNG of n frames of the 24×16 picture: acTL and the
// first fcTL before IDAT, then an fcTL and fdAT chunks per later frame.
func APNG(t testing.TB, n int) []byte {
	t.Helper()
	plain := Plain(t, "png")
	be := binary.BigEndian
	ihdrEnd := 8 + 12 + 13
	idat := bytes.Index(plain, []byte("IDAT")) - 4
	idatData := plain[idat+8 : idat+8+int(be.Uint32(plain[idat:]))]
	iend := bytes.Index(plain, []byte("IEND")) - 4
	seq := uint32(0)
	fcTL := func() []byte {
		p := be.AppendUint32(nil, seq)
		p = be.AppendUint32(p, 24)
		p = be.AppendUint32(p, 16)
		p = append(p, 0, 0, 0, 0, 0, 0, 0, 0) // x, y
		p = append(p, 0, 1, 0, 10, 0, 0)      // delay 1/10 s, dispose none, blend source
		seq++
		return pngChunk("fcTL", p)
	}
	var b bytes.Buffer
	b.Write(plain[:ihdrEnd])
	b.Write(pngChunk("acTL", be.AppendUint32(be.AppendUint32(nil, uint32(n)), 0)))
	b.Write(fcTL())
	b.Write(plain[ihdrEnd:iend])
	for range n - 1 {
		b.Write(fcTL())
		b.Write(pngChunk("fdAT", append(be.AppendUint32(nil, seq), idatData...)))
		seq++
	}
	b.Write(plain[iend:])
	return b.Bytes()
}

// AnimatedWebP is an animated WebP of n 1×1 frames on a w × h canvas;
// withMeta puts an EXIF and an XMP chunk inside every frame, after its
// bitstream, and EXIF after the frames.
func AnimatedWebP(t testing.TB, n, w, h int, withMeta bool) []byte {
	t.Helper()
	le24 := func(v int) []byte { return []byte{byte(v), byte(v >> 8), byte(v >> 16)} }
	flags := byte(0x02) // animation
	if withMeta {
		flags |= vp8xFlags
	}
	vp8x := append(append([]byte{flags, 0, 0, 0}, le24(w-1)...), le24(h-1)...)
	var body bytes.Buffer
	body.WriteString("WEBP")
	body.Write(riffChunk("VP8X", vp8x))
	body.Write(riffChunk("ANIM", []byte{0, 0, 0, 0, 0, 0}))
	for range n {
		frame := append(append(append(le24(0), le24(0)...), le24(0)...), le24(0)...) // at 0,0, 1×1
		frame = append(frame, append(le24(100), 0)...)                               // 100 ms, no flags
		frame = append(frame, riffChunk("VP8L", webpPixel)...)
		if withMeta {
			frame = append(frame, riffChunk("EXIF", exif()[6:])...)
			frame = append(frame, riffChunk("XMP ", []byte(xmp))...)
		}
		body.Write(riffChunk("ANMF", frame))
	}
	if withMeta {
		body.Write(riffChunk("EXIF", exif()[6:]))
	}
	b := append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(body.Len()))...)
	return append(b, body.Bytes()...)
}
