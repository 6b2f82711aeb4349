package backup

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
)

// docEncoder writes a JSON document piece by piece: raw punctuation and
// member names, and values encoded as encoding/json's Encoder encodes them
// (HTML characters escaped), without the newline the Encoder ends each
// value with. The first error sticks; later writes do nothing.
type docEncoder struct {
	w   *bufio.Writer
	buf bytes.Buffer
	enc *json.Encoder
	err error
}

func newDocEncoder(w io.Writer) *docEncoder {
	e := &docEncoder{w: bufio.NewWriterSize(w, 64<<10)}
	e.enc = json.NewEncoder(&e.buf)
	return e
}

func (e *docEncoder) raw(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

func (e *docEncoder) value(v any) {
	if e.err != nil {
		return
	}
	e.buf.Reset()
	if e.err = e.enc.Encode(v); e.err != nil {
		return
	}
	_, e.err = e.w.Write(bytes.TrimSuffix(e.buf.Bytes(), []byte("\n")))
}

func (e *docEncoder) flush() error {
	if e.err == nil {
		e.err = e.w.Flush()
	}
	return e.err
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// backupResponse streams a backup as the 200 answer. Once the status is
// out it cannot change: a failure then cuts the connection
// (http.ErrAbortHandler), so that a client never takes a cut document for a
// whole one (the cut JSON does not parse, or the transfer ends early).
type backupResponse struct {
	s *Stream
}

func (r backupResponse) VisitGetBackupResponse(w http.ResponseWriter) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	if _, err := r.s.WriteTo(w); err != nil {
		slog.WarnContext(r.s.ctx, "backup cut", "member_id", r.s.memberID, "error", err)
		panic(http.ErrAbortHandler)
	}
	return nil
}
