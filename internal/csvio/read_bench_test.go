package csvio

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
)

// The shapes below are 4 MB files of the service's own format that differ
// only in how their bytes are laid out. An import's memory should follow a
// file's size, never its shape.
//
//	go test -run '^$' -bench Parse -benchtime 5x ./internal/csvio
//
// alloc-B/B is the bytes allocated per byte of the file, for the whole
// parse (decoding, reading, checking each row); B/op is the same figure
// unscaled.
//
// Before rows were bounded (issue 42; 2 shared cores, go1.26, -benchtime 5x)
// and after, in alloc-B/B (B/op):
//
//	WideRow       163    (652 MB)  ->  1.22 (4.9 MB, refused: a row over 32 KiB)
//	QuotedField     9.4  ( 38 MB)  ->  0.06 (0.2 MB, refused: a row over 32 KiB)
//	QuotedRows      4.6  ( 22 MB)  ->  1.99 (9.4 MB)
//	Ordinary        5.6  ( 22 MB)  ->  2.65 (10.7 MB)
//
// The refused shapes stop within 36 KiB of their row; what that costs does
// not grow with the file. TestParseAllocationFollowsFileSize holds the bound.

const ownHeader = "date,type,amount,wallet,category,tags,memo,currency,original_amount,exchange_rate,installment_months,transfer_id\r\n"

// wideRowFile is one row of four million empty columns.
func wideRowFile() []byte {
	return []byte(ownHeader + "2026-11-01,expense,1000" + strings.Repeat(",", 4_000_000) + "\r\n")
}

// quotedFieldFile is one row whose memo is a single quoted field of two
// million escaped quotes.
func quotedFieldFile() []byte {
	return []byte(ownHeader + `2026-11-01,expense,1000,,,,"` + strings.Repeat(`""`, 2_000_000) + "\",,,,,\r\n")
}

// quotedRowsFile is 20,000 rows whose memos are 100 escaped quotes each:
// quotes, but rows the import takes.
func quotedRowsFile() []byte {
	var b strings.Builder
	b.WriteString(ownHeader)
	memo := `"` + strings.Repeat(`""`, 100) + `"`
	for i := range 20_000 {
		fmt.Fprintf(&b, "2026-%02d-%02d,expense,%d,,,,%s,,,,,\r\n", 1+i%12, 1+i%28, 1000+i, memo)
	}
	return []byte(b.String())
}

// ordinaryFile is 20,000 ordinary rows of about 200 bytes.
func ordinaryFile() []byte {
	var b strings.Builder
	b.WriteString(ownHeader)
	for i := range 20_000 {
		fmt.Fprintf(&b, "2026-%02d-%02d,expense,%d,,,,\"가맹점 %06d, 역삼동 지점 %s\",,,,,\r\n",
			1+i%12, 1+i%28, 1000+i, i, strings.Repeat("x", 130))
	}
	return []byte(b.String())
}

func BenchmarkParseWideRow(b *testing.B)     { benchParse(b, wideRowFile()) }
func BenchmarkParseQuotedField(b *testing.B) { benchParse(b, quotedFieldFile()) }
func BenchmarkParseQuotedRows(b *testing.B)  { benchParse(b, quotedRowsFile()) }
func BenchmarkParseOrdinary(b *testing.B)    { benchParse(b, ordinaryFile()) }

func benchParse(b *testing.B, file []byte) {
	b.ReportAllocs()
	b.SetBytes(int64(len(file)))
	before := allocatedBytes()
	for b.Loop() {
		_, _ = parseFile(context.Background(), file, nil, 20_000)
	}
	after := allocatedBytes()
	b.ReportMetric(float64(len(file))/(1<<20), "file-MiB")
	b.ReportMetric(float64(after-before)/float64(b.N)/float64(len(file)), "alloc-B/B")
}

// allocatedBytes answers the bytes allocated on the heap so far.
func allocatedBytes() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
