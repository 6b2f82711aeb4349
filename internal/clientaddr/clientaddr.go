// Package clientaddr finds the address a request really came from: the peer,
// or, when the peer is a trusted proxy, the last X-Forwarded-For hop that is
// not itself a trusted proxy. Per-client limits count by it.
package clientaddr

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Of returns the client address of r.
func Of(r *http.Request, trusted []netip.Prefix) netip.Addr {
	peer := parse(r.RemoteAddr)
	if !isTrusted(peer, trusted) {
		return peer
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	// Walk from the nearest hop back: each trusted proxy vouches for the one
	// before it; the first untrusted hop is the client.
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		a = a.Unmap()
		if !isTrusted(a, trusted) {
			return a
		}
		peer = a
	}
	return peer
}

func parse(remote string) netip.Addr {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	return a.Unmap()
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

type key struct{}

// Middleware puts each request's client address in its context.
func Middleware(trusted []netip.Prefix) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx := context.WithValue(r.Context(), key{}, Of(r, trusted))
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

// From returns the client address the middleware found.
func From(ctx context.Context) netip.Addr {
	a, _ := ctx.Value(key{}).(netip.Addr)
	return a
}
