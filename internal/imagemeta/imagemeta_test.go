package imagemeta_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/gif"
	_ "image/jpeg"
	_ "image/png"
	"testing"

	"golang.org/x/image/webp"

	"github.com/nestegg/nestegg/internal/imagemeta"
	"github.com/nestegg/nestegg/internal/imagemeta/imagemetatest"
)

// decodes checks that b is still a picture of the expected size.
func decodes(t *testing.T, b []byte, w, h int) {
	t.Helper()
	cfg, _, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("stripped image does not decode: %v", err)
	}
	if cfg.Width != w || cfg.Height != h {
		t.Fatalf("stripped image is %dx%d, want %dx%d", cfg.Width, cfg.Height, w, h)
	}
	if _, _, err := image.Decode(bytes.NewReader(b)); err != nil {
		t.Fatalf("stripped image does not decode: %v", err)
	}
}

func TestJPEG(t *testing.T) {
	t.Parallel()
	in := imagemetatest.JPEG(t)
	out, _, err := imagemeta.Strip("image/jpeg", in)
	if err != nil {
		t.Fatal(err)
	}
	imagemetatest.CheckClean(t, out)
	decodes(t, out, 24, 16)
	for _, keep := range []string{"JFIF\x00", "ICC_PROFILE\x00"} {
		if !bytes.Contains(out, []byte(keep)) {
			t.Errorf("%q was dropped", keep)
		}
	}
	if bytes.Count(out, []byte{0xFF, 0xD8}) != 1 || !bytes.HasSuffix(out, []byte{0xFF, 0xD9}) {
		t.Error("the picture after the first one's EOI survived")
	}
	// The pixels are untouched: the scan is copied byte for byte.
	sos := bytes.Index(in, []byte{0xFF, 0xDA})
	eoi := bytes.Index(in, []byte{0xFF, 0xD9})
	if !bytes.Contains(out, in[sos:eoi+2]) {
		t.Error("the scan data changed")
	}
}

func TestPNG(t *testing.T) {
	t.Parallel()
	out, _, err := imagemeta.Strip("image/png", imagemetatest.PNG(t))
	if err != nil {
		t.Fatal(err)
	}
	imagemetatest.CheckClean(t, out)
	decodes(t, out, 24, 16)
	for _, typ := range []string{"eXIf", "tEXt", "iTXt", "tIME"} {
		if bytes.Contains(out, []byte(typ)) {
			t.Errorf("chunk %s survived", typ)
		}
	}
	if !bytes.Contains(out, []byte("gAMA")) {
		t.Error("gAMA was dropped")
	}
	if !bytes.HasSuffix(out, []byte("IEND\xae\x42\x60\x82")) {
		t.Error("the file does not end with IEND")
	}
}

func TestGIF(t *testing.T) {
	t.Parallel()
	out, _, err := imagemeta.Strip("image/gif", imagemetatest.GIF(t))
	if err != nil {
		t.Fatal(err)
	}
	imagemetatest.CheckClean(t, out)
	if bytes.Contains(out, []byte("taken at")) || bytes.Contains(out, []byte("XMP DataXMP")) {
		t.Error("the comment or the XMP extension survived")
	}
	decodes(t, out, 24, 16)
	anim, err := gif.DecodeAll(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(anim.Image) != 2 || anim.LoopCount != 0 || !bytes.Contains(out, []byte("NETSCAPE2.0")) {
		t.Errorf("animation lost: %d frames, loop count %d", len(anim.Image), anim.LoopCount)
	}
	if out[len(out)-1] != 0x3B {
		t.Error("the file does not end with the trailer")
	}
}

func TestWebP(t *testing.T) {
	t.Parallel()
	in := imagemetatest.WebP(t)
	if _, err := webp.DecodeConfig(bytes.NewReader(in)); err != nil {
		t.Fatalf("the test file itself does not decode: %v", err)
	}
	out, _, err := imagemeta.Strip("image/webp", in)
	if err != nil {
		t.Fatal(err)
	}
	imagemetatest.CheckClean(t, out)
	if bytes.Contains(out, []byte("EXIF")) || bytes.Contains(out, []byte("XMP ")) {
		t.Error("the EXIF or XMP chunk survived")
	}
	if got := binary.LittleEndian.Uint32(out[4:8]); int(got) != len(out)-8 {
		t.Errorf("RIFF size %d, file has %d bytes after it", got, len(out)-8)
	}
	if flags := out[20]; flags&(0x08|0x04) != 0 {
		t.Errorf("VP8X still announces metadata: flags %#x", flags)
	}
	img, err := webp.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 1 || b.Dy() != 1 {
		t.Errorf("decoded %v", b)
	}
}

// A clean file comes back unchanged.
func TestCleanFileUnchanged(t *testing.T) {
	t.Parallel()
	for typ, in := range map[string][]byte{
		"image/png":  imagemetatest.Plain(t, "png"),
		"image/jpeg": imagemetatest.Plain(t, "jpeg"),
		"image/gif":  imagemetatest.Plain(t, "gif"),
	} {
		out, _, err := imagemeta.Strip(typ, in)
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		if !bytes.Equal(out, in) {
			t.Errorf("%s: a file without metadata changed", typ)
		}
	}
}

func TestMalformed(t *testing.T) {
	t.Parallel()
	png := imagemetatest.PNG(t)
	badCRC := bytes.Clone(png)
	badCRC[30] ^= 0xFF // inside IHDR
	jpg := imagemetatest.Plain(t, "jpeg")
	gifData := imagemetatest.Plain(t, "gif")
	webpData := imagemetatest.WebP(t)
	hugeChunk := bytes.Clone(webpData)
	binary.LittleEndian.PutUint32(hugeChunk[16:], 1<<31)
	cases := map[string]struct {
		typ  string
		data []byte
	}{
		"png truncated":     {"image/png", png[:len(png)/2]},
		"png bad crc":       {"image/png", badCRC},
		"png no signature":  {"image/png", png[1:]},
		"jpeg no eoi":       {"image/jpeg", jpg[:len(jpg)-2]},
		"jpeg cut in table": {"image/jpeg", jpg[:10]},
		"jpeg not a jpeg":   {"image/jpeg", []byte("GIF89a")},
		"gif truncated":     {"image/gif", gifData[:len(gifData)-10]},
		"gif no trailer":    {"image/gif", gifData[:len(gifData)-1]},
		"webp huge chunk":   {"image/webp", hugeChunk},
		"webp riff size":    {"image/webp", webpData[:20]},
		"unknown type":      {"image/bmp", png},
	}
	for name, c := range cases {
		if _, _, err := imagemeta.Strip(c.typ, c.data); !errors.Is(err, imagemeta.ErrMalformed) {
			t.Errorf("%s: err %v, want ErrMalformed", name, err)
		}
	}
}

// The number of blocks is bounded: a GIF of 200,000 empty extensions is refused.
func TestBlockBound(t *testing.T) {
	t.Parallel()
	plain := imagemetatest.Plain(t, "gif")
	i := imagemetatest.GIFBlocksStart(plain)
	many := bytes.Repeat([]byte{0x21, 0xFE, 0x00}, 200_000)
	data := append(append(append([]byte{}, plain[:i]...), many...), plain[i:]...)
	if _, _, err := imagemeta.GIF(data); !errors.Is(err, imagemeta.ErrMalformed) {
		t.Fatalf("err %v, want ErrMalformed", err)
	}
	// Under the bound the same file is fine.
	data = append(append(append([]byte{}, plain[:i]...), many[:3*1000]...), plain[i:]...)
	if _, _, err := imagemeta.GIF(data); err != nil {
		t.Fatal(err)
	}
}

// The test files really carry the position, so the checks above can fail.
func TestFixturesCarryGPS(t *testing.T) {
	t.Parallel()
	for name, b := range map[string][]byte{
		"jpeg": imagemetatest.JPEG(t), "png": imagemetatest.PNG(t),
		"gif": imagemetatest.GIF(t), "webp": imagemetatest.WebP(t),
	} {
		for _, l := range []string{"GPSLatitude", "37.5665N", "secret-appendix"} {
			if !bytes.Contains(b, []byte(l)) {
				t.Errorf("%s test file lacks %q", name, l)
			}
		}
		if name != "gif" && !bytes.Contains(b, []byte("MM\x00\x2a\x00\x00\x00\x08\x00\x01\x88\x25")) {
			t.Errorf("%s test file lacks the Exif GPS pointer", name)
		}
	}
}

// What the headers declare is read without decoding: size and frames.
func TestInfo(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, typ string
		data      []byte
		want      imagemeta.Info
	}{
		{"png", "image/png", imagemetatest.PNG(t), imagemeta.Info{Width: 24, Height: 16, Frames: 1}},
		{"png bomb", "image/png", imagemetatest.PNGDeclaring(t, 50000, 50000), imagemeta.Info{Width: 50000, Height: 50000, Frames: 1}},
		{"apng", "image/png", imagemetatest.APNG(t, 3), imagemeta.Info{Width: 24, Height: 16, Frames: 3}},
		{"jpeg", "image/jpeg", imagemetatest.JPEG(t), imagemeta.Info{Width: 24, Height: 16, Frames: 1}},
		{"gif", "image/gif", imagemetatest.GIF(t), imagemeta.Info{Width: 24, Height: 16, Frames: 2}},
		{"gif frames", "image/gif", imagemetatest.GIFFrames(t, 301, false), imagemeta.Info{Width: 2, Height: 2, Frames: 301}},
		{"webp", "image/webp", imagemetatest.WebP(t), imagemeta.Info{Width: 1, Height: 1, Frames: 1}},
		{"animated webp", "image/webp", imagemetatest.AnimatedWebP(t, 4, 7000, 8000, false), imagemeta.Info{Width: 7000, Height: 8000, Frames: 4}},
	}
	for _, c := range cases {
		_, info, err := imagemeta.Strip(c.typ, c.data)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if info != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, info, c.want)
		}
	}
	// A GIF frame past the logical screen grows the size.
	g := imagemetatest.Plain(t, "gif")
	i := bytes.IndexByte(g[imagemetatest.GIFBlocksStart(g):], 0x2C) + imagemetatest.GIFBlocksStart(g)
	binary.LittleEndian.PutUint16(g[i+5:], 40000) // the image's width
	if _, info, err := imagemeta.GIF(g); err != nil || info.Width != 40000 {
		t.Errorf("gif with a wide frame: %+v %v", info, err)
	}
}

// A JPEG loses its JFIF thumbnail (the JFIF header stays, announcing none),
// its JFXX thumbnail, reserved JPGn segments and comments.
func TestJPEGThumbnailsAndReservedMarkers(t *testing.T) {
	t.Parallel()
	in := imagemetatest.JPEGExtras(t)
	out, _, err := imagemeta.JPEG(in)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte(imagemetatest.Thumbnail)) || bytes.Contains(out, []byte("JFXX")) {
		t.Error("a thumbnail, the JPGn segment or the comment survived")
	}
	if !bytes.Contains(out, []byte("\xFF\xE0\x00\x10JFIF\x00\x01\x02\x00\x00\x48\x00\x48\x00\x00")) {
		t.Error("the JFIF header is not kept with a 0×0 thumbnail")
	}
	for m := 0xF0; m <= 0xFD; m++ {
		if bytes.Contains(out[:bytes.Index(out, []byte{0xFF, 0xDA})], []byte{0xFF, byte(m)}) {
			t.Errorf("marker %#x survived", m)
		}
	}
	decodes(t, out, 24, 16)
}

// A GIF loses its plain-text extensions with the graphic control extensions
// that time them; the frames keep theirs and the loop.
func TestGIFPlainText(t *testing.T) {
	t.Parallel()
	in := imagemetatest.GIFFrames(t, 3, true)
	if bytes.Count(in, []byte(imagemetatest.Thumbnail)) != 2 {
		t.Fatal("the test file lacks its plain-text extensions")
	}
	out, info, err := imagemeta.GIF(in)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte(imagemetatest.Thumbnail)) {
		t.Error("a plain-text extension survived")
	}
	if !bytes.Equal(out, imagemetatest.GIFFrames(t, 3, false)) {
		t.Error("the GIF without its text is not the GIF that never had any")
	}
	anim, err := gif.DecodeAll(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(anim.Image) != 3 || info.Frames != 3 || anim.Delay[1] != 5 {
		t.Errorf("%d frames (info %d), delays %v", len(anim.Image), info.Frames, anim.Delay)
	}
}

// An animated WebP loses the EXIF and XMP chunks inside its frames and
// after them, and keeps its animation.
func TestAnimatedWebP(t *testing.T) {
	t.Parallel()
	in := imagemetatest.AnimatedWebP(t, 3, 1, 1, true)
	out, info, err := imagemeta.WebP(in)
	if err != nil {
		t.Fatal(err)
	}
	imagemetatest.CheckClean(t, out)
	if !bytes.Equal(out[:4], []byte("RIFF")) || int(binary.LittleEndian.Uint32(out[4:8])) != len(out)-8 {
		t.Error("bad RIFF size")
	}
	if info.Frames != 3 || bytes.Count(out, []byte("ANMF")) != 3 || !bytes.Contains(out, []byte("ANIM")) {
		t.Errorf("animation lost: %+v", info)
	}
	want := imagemetatest.AnimatedWebP(t, 3, 1, 1, false)
	want[20] &^= 0x08 | 0x04
	if !bytes.Equal(out, want) {
		t.Error("the stripped file is not the file built without metadata")
	}
	// An ANMF frame without a bitstream is refused.
	bad := bytes.Replace(bytes.Clone(want), []byte("VP8L"), []byte("XXXX"), 1)
	if _, _, err := imagemeta.WebP(bad); !errors.Is(err, imagemeta.ErrMalformed) {
		t.Errorf("frame without bitstream: %v", err)
	}
}

// An animated PNG keeps its animation chunks and passes as a PNG.
func TestAPNG(t *testing.T) {
	t.Parallel()
	in := imagemetatest.APNG(t, 2)
	out, info, err := imagemeta.Strip("image/png", in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, in) || info.Frames != 2 {
		t.Errorf("changed %v, info %+v", !bytes.Equal(out, in), info)
	}
	decodes(t, out, 24, 16)
}
