package board

import (
	"bytes"
	"testing"
)

func segment(marker byte, payload string) []byte {
	n := len(payload) + 2
	return append([]byte{0xFF, marker, byte(n >> 8), byte(n)}, payload...)
}

func TestStripJPEGMetadata(t *testing.T) {
	t.Parallel()
	var in, want []byte
	add := func(b []byte, keep bool) {
		in = append(in, b...)
		if keep {
			want = append(want, b...)
		}
	}
	add([]byte{0xFF, 0xD8}, true)
	add(segment(0xE0, "JFIF\x00\x01\x02"), true)
	add(segment(0xE1, "Exif\x00\x00GPS 37.56N 126.97E"), false)
	add([]byte{0xFF, 0xFF}, false) // fill bytes before a marker
	add(segment(0xE1, "http://ns.adobe.com/xap/1.0/\x00<x:gps/>"), false)
	add(segment(0xDB, "quant tables"), true)
	add(segment(0xDA, "scan header"), true)
	add([]byte{0x12, 0xFF, 0x00, 0xE1, 0x34, 0xFF, 0xD9}, true) // scan data is never parsed

	got, err := stripJPEGMetadata(in)
	if err != nil {
		t.Fatal(err)
	}
	// The fill bytes keep one 0xFF of the marker that follows them.
	want = bytes.Replace(want, segment(0xDB, "quant tables"), segment(0xDB, "quant tables"), 1)
	if !bytes.Equal(got, want) {
		t.Fatalf("stripped\n%q\nwant\n%q", got, want)
	}
	for _, bad := range [][]byte{
		{0xFF, 0xD8},
		{0x00, 0x00, 0x00},
		append([]byte{0xFF, 0xD8}, 0xFF, 0xE1, 0x00, 0x50, 'E'),
		append([]byte{0xFF, 0xD8}, 0x12, 0x34),
	} {
		if _, err := stripJPEGMetadata(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
