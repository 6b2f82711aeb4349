// Package httpcall is the part every client of an outside service shares:
// one call under the client's deadline, an answer read no further than a
// bound, and a status other than 200 returned as an error. What differs
// between the services stays in their clients: the address and path,
// headers and credentials, the request body, the wire format of the answer,
// the statuses that mean something of their own, and the error each failure
// becomes.
package httpcall

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Endpoint is an outside service as its client calls it.
type Endpoint struct {
	// URL is the service's address; a call's path is appended to it.
	URL string
	// HTTP makes the calls; nil is a plain http.Client.
	HTTP *http.Client
	// Timeout bounds each call, reading the answer included.
	Timeout time.Duration
	// MaxAnswer is how many bytes of an answer are read at most; the rest
	// is left unread (a JSON answer cut there fails to decode).
	MaxAnswer int64
}

// StatusError is an answer whose status is not 200. Its text is
// "status N", as the clients put it after their ErrUnavailable.
type StatusError struct {
	Status int
	// Body is the answer, read as far as MaxAnswer: some services say in
	// it why they refused.
	Body []byte
}

func (e *StatusError) Error() string { return fmt.Sprintf("status %d", e.Status) }

var plainClient = &http.Client{}

// Get asks for URL+path (path "" is URL itself) and returns the body of a
// 200 answer.
func (e Endpoint) Get(ctx context.Context, path string, header http.Header) ([]byte, error) {
	return e.do(ctx, http.MethodGet, path, header, nil)
}

// Post sends body to URL+path and returns the body of a 200 answer.
func (e Endpoint) Post(ctx context.Context, path string, header http.Header, body []byte) ([]byte, error) {
	return e.do(ctx, http.MethodPost, path, header, bytes.NewReader(body))
}

// do makes one call. Its errors carry no sentinel of their own: a request
// that cannot be built, a transport failure or the deadline (as the
// http.Client reports them), a failed read ("read answer: …") and any status
// but 200 (*StatusError) are all the caller's ErrUnavailable unless it gives
// a status a meaning of its own, and the caller wraps them.
func (e Endpoint) do(ctx context.Context, method, path string, header http.Header, body io.Reader) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, e.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, e.URL+path, body)
	if err != nil {
		return nil, err
	}
	for name, values := range header {
		for _, v := range values {
			req.Header.Add(name, v)
		}
	}
	client := e.HTTP
	if client == nil {
		client = plainClient
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(res.Body, e.MaxAnswer))
	if err != nil {
		return nil, fmt.Errorf("read answer: %w", err)
	}
	if res.StatusCode != http.StatusOK {
		return nil, &StatusError{Status: res.StatusCode, Body: answer}
	}
	return answer, nil
}
