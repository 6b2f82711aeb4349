package csvio

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/korean"

	"github.com/nestegg/nestegg/generated/api"
	"github.com/nestegg/nestegg/internal/problem"
)

// What parsing a file may allocate: maxAllocPerByte per byte of the file
// and maxAllocPerRow per row read, whatever the file's shape. The parse
// holds the file once (decoded again when it is EUC-KR), each record's cells
// as one string, and per row its values (a row is 256 bytes before its
// cells, so a file of the shortest rows, some 20 bytes, costs most per
// byte; maxRows bounds that part). Measured (BenchmarkParse*): 1.2 per byte
// for a row of four million empty cells, 0.06 for a cell of two million
// escaped quotes, 2.0 and 2.7 for 20,000 rows of quotes and of ordinary
// text, 4.3 for the ordinary rows in EUC-KR; 366 per row for the shortest
// rows. 8 per byte leaves room for the runtime's growth policies and is far
// under what the first two shapes cost before rows were bounded (163 and
// 9.4 per byte).
const (
	maxAllocPerByte = 8
	maxAllocPerRow  = 512
)

// Parsing a file allocates within maxAllocPerByte of its size (and
// maxAllocPerRow a row), whether the file is refused (a row past the
// bounds) or taken.
func TestParseAllocationFollowsFileSize(t *testing.T) {
	euckr, err := korean.EUCKR.NewEncoder().Bytes(ordinaryFile())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		file []byte
		rows int // 0: refused
	}{
		{"a row of four million empty cells", wideRowFile(), 0},
		{"a cell of two million escaped quotes", quotedFieldFile(), 0},
		{"20,000 rows of escaped quotes", quotedRowsFile(), 20_000},
		{"20,000 ordinary rows", ordinaryFile(), 20_000},
		{"20,000 ordinary rows in EUC-KR", euckr, 20_000},
		{"20,000 of the shortest rows", []byte(ownHeader + strings.Repeat("2026-11-01,income,0\r\n", 20_000)), 20_000},
	} {
		var sh sheet
		var err error
		alloc := allocatedDuring(func() { sh, err = parseFile(context.Background(), tc.file, nil, 20_000) })
		if tc.rows == 0 {
			if p, ok := problem.As(err); !ok || p.Code != problem.CodeValidationFailed {
				t.Errorf("%s: %v, want a 400", tc.name, err)
			}
		} else if err != nil || len(sh.rows) != tc.rows {
			t.Errorf("%s: %d rows, %v", tc.name, len(sh.rows), err)
		}
		t.Logf("%s: %d bytes, %.2f allocated per byte", tc.name, len(tc.file), float64(alloc)/float64(len(tc.file)))
		if bound := uint64(maxAllocPerByte*len(tc.file) + maxAllocPerRow*tc.rows); alloc > bound {
			t.Errorf("%s: %d bytes allocated for a file of %d bytes and %d rows, want at most %d",
				tc.name, alloc, len(tc.file), tc.rows, bound)
		}
	}
}

// allocatedDuring answers the bytes f allocated. The test runs alone (not
// in parallel), so the process's count is f's.
func allocatedDuring(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A record of maxRowBytes bytes (its line break counted) is read; one
// byte more is refused, naming the line it starts on. Blank lines,
// however many, are no row and count toward none.
func TestParseRowBytesLimit(t *testing.T) {
	t.Parallel()
	rowOf := func(n int) string {
		cells := strings.Repeat(strings.Repeat("x", 4000)+",", 8)
		return cells + strings.Repeat("y", n-len(cells)-2) + "\r\n"
	}
	blank := strings.Repeat("\r\n", 30_000)
	m := &api.CsvImportMapping{Date: ptr("a"), Amount: ptr("b")}
	for _, tc := range []struct {
		name, file string
		line       int // of the refused row; 0: read
	}{
		{"a row of the limit", "a,b\r\n" + blank + rowOf(maxRowBytes) + blank, 0},
		{"a row a byte over", "a,b\r\n\r\n\n" + rowOf(maxRowBytes+1), 4},
		{"a row past the limit after blank lines", "a,b\r\n" + blank + rowOf(maxRowBytes+1), 30_002},
		{"a header past the limit", rowOf(1 << 20), 1},
		{"a quote left open", "a,b\n2026-11-01,1\n2026-11-02,\"2\n" + strings.Repeat("2026-11-03,3\n", 10_000), 3},
	} {
		sh, err := parseFile(context.Background(), []byte(tc.file), m, 20_000)
		if tc.line == 0 {
			if err != nil || len(sh.rows) != 1 {
				t.Errorf("%s: %d rows, %v", tc.name, len(sh.rows), err)
			}
			continue
		}
		p, ok := problem.As(err)
		if !ok || p.Status != http.StatusBadRequest || p.Fields[0].Field != "/file" ||
			!strings.Contains(p.Fields[0].Message, fmt.Sprintf("the row at line %d is over %d bytes", tc.line, maxRowBytes)) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// A row of more than maxColumns columns, or a cell of more than
// maxCellBytes, is a row error naming the bound; the rows around it are
// read. A header past them refuses the file.
func TestParseRowColumnAndCellLimits(t *testing.T) {
	t.Parallel()
	m := &api.CsvImportMapping{Date: ptr("date"), Amount: ptr("amount"), Memo: ptr("memo")}
	file := strings.Join([]string{
		"date,amount,memo",
		"2026-11-01,1," + strings.Repeat("x", maxCellBytes),
		"2026-11-02,2," + strings.Repeat("x", maxCellBytes+1),
		"2026-11-03,3,x" + strings.Repeat(",", maxColumns-3),
		"2026-11-04,4,x" + strings.Repeat(",", maxColumns-2),
		"2026-11-05,5," + strings.Repeat(`""`, maxCellBytes/2),
		"2026-11-06,6,x",
	}, "\n")
	sh, err := parseFile(context.Background(), []byte(file), m, 20_000)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range sh.rows {
		if r.err != nil {
			got = append(got, fmt.Sprintf("%d %q %s", r.err.Row, r.err.Column, r.err.Message))
		}
	}
	want := []string{
		// The memo of 4096 bytes is read, and refused as a memo.
		`2 "memo" must be at most 200 characters`,
		`3 "memo" column 3 holds 4097 bytes; a cell holds at most 4096`,
		`5 "" the row has 65 columns; a row has at most 64`,
		`6 "memo" must be at most 200 characters`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || len(sh.rows) != 6 {
		t.Fatalf("%d rows, errors:\n%s\nwant:\n%s", len(sh.rows), strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, header := range []string{"date,amount,memo" + strings.Repeat(",x", maxColumns-2), "date,amount," + strings.Repeat("m", maxCellBytes+1)} {
		_, err := parseFile(context.Background(), []byte(header+"\n2026-11-01,1,x\n"), m, 20_000)
		if p, ok := problem.As(err); !ok || p.Fields[0].Field != "/file" || !strings.Contains(p.Fields[0].Message, "the header row is past the limits") {
			t.Errorf("header of %d bytes: %v", len(header), err)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// Whatever bytes a file holds, parsing answers rows or a problem with a
// code (a 400 or a 413), never another error or a panic, and a row past
// the bounds is never one of the rows.
func FuzzParseFile(f *testing.F) {
	f.Add([]byte(ownHeader+"2026-11-01,expense,1,,,,'=memo,,,,,\r\n"), false)
	f.Add([]byte("날짜,금액,내용\n2026-11-01,1,\"a\"\"b\"\n2026-11-02,\"2"), true)
	f.Add([]byte("날짜,금액\r\n\r\n\n,,,\r\n2026.11.03,(3)\r"), true)
	f.Add([]byte{0xb3, 0xaf, 0xc2, 0xa5, ',', 0xb1, 0xdd, 0xbe, 0xd7, '\n', '1', ',', '2'}, true)
	m := &api.CsvImportMapping{Date: ptr("날짜"), Amount: ptr("금액"), Memo: ptr("내용")}
	f.Fuzz(func(t *testing.T, file []byte, mapped bool) {
		mapping := m
		if !mapped {
			mapping = nil
		}
		sh, err := parseFile(context.Background(), file, mapping, 100)
		if err != nil {
			if p, ok := problem.As(err); !ok || p.Code == "" {
				t.Fatalf("%v is no problem", err)
			}
			return
		}
		for _, r := range sh.rows {
			if r.err == nil && utf8.RuneCountInString(r.memo) > maxMemoRunes {
				t.Fatalf("row %d took a memo of %d characters", r.line, utf8.RuneCountInString(r.memo))
			}
		}
	})
}
