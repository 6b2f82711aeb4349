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
	forwarded := strings.Join(r.Header.Values("X-Forwarded-For"), ",")
	if strings.TrimSpace(forwarded) == "" {
		return peer
	}
	hops := strings.Split(forwarded, ",")
	// Walk from the nearest hop back: each trusted proxy vouches for the one
	// before it; the first untrusted hop is the client.
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			// A hop a trusted proxy passed on but nobody can read: the
			// chain of trust ends there, and the unreadable hop stands for
			// the client. Falling back to the proxy's own address would put
			// everyone behind it in one bucket of the per-client limits.
			return unreadable
		}
		a = a.Unmap()
		if !isTrusted(a, trusted) {
			return a
		}
		peer = a
	}
	return peer
}

// unreadable stands for a client whose forwarded address could not be read:
// an address of its own (in the IPv6 documentation range), so such clients
// share one bucket of the limits, apart from everyone else.
var unreadable = netip.MustParseAddr("2001:db8::bad")

// LimitKey is the part of a client address that per-client limits count: an
// IPv4 address, or the /64 network of an IPv6 one (a single IPv6 client
// usually holds a whole /64, and would otherwise walk around any limit).
func LimitKey(a netip.Addr) string {
	if a.Is6() && !a.Is4In6() {
		p, err := a.Prefix(64)
		if err == nil {
			return p.String()
		}
	}
	return a.String()
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

// With returns ctx carrying the client address a (found by Of). The server
// puts it in each request's context as the request starts.
func With(ctx context.Context, a netip.Addr) context.Context {
	return context.WithValue(ctx, key{}, a)
}

// From returns the client address With put in ctx.
func From(ctx context.Context) netip.Addr {
	a, _ := ctx.Value(key{}).(netip.Addr)
	return a
}
