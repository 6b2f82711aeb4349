package clientaddr

import (
	"net/http/httptest"
	"net/netip"
	"testing"
)

func TestOf(t *testing.T) {
	t.Parallel()
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	cases := []struct {
		name, peer, xff, want string
		trusted               []netip.Prefix
	}{
		{"peer without proxies", "203.0.113.9:5555", "", "203.0.113.9", trusted},
		{"forwarded header from an untrusted peer is ignored", "203.0.113.9:5555", "198.51.100.1", "203.0.113.9", trusted},
		{"trusted proxy names the client", "10.0.0.2:80", "198.51.100.1", "198.51.100.1", trusted},
		{"spoofed first hop is skipped", "10.0.0.2:80", "1.2.3.4, 198.51.100.1", "198.51.100.1", trusted},
		{"chain of trusted proxies", "10.0.0.2:80", "198.51.100.1, 10.0.0.7", "198.51.100.1", trusted},
		{"an unreadable hop is the client, not the proxy", "10.0.0.2:80", "nonsense", "2001:db8::bad", trusted},
		{"an unreadable hop behind a good one", "10.0.0.2:80", "nonsense, 10.0.0.9", "2001:db8::bad", trusted},
		{"a trusted proxy without the header", "10.0.0.2:80", "", "10.0.0.2", trusted},
		{"no trusted proxies configured", "10.0.0.2:80", "198.51.100.1", "10.0.0.2", nil},
		{"IPv4-mapped IPv6 peer", "[::ffff:203.0.113.9]:1", "", "203.0.113.9", trusted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tc.peer
			if tc.xff != "" {
				r.Header.Set("X-Forwarded-For", tc.xff)
			}
			if got := Of(r, tc.trusted); got.String() != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestLimitKey(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"203.0.113.9":          "203.0.113.9",
		"2001:db8:1:2:3:4:5:6": "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff::1": "2001:db8:1:2::/64",
		"::ffff:203.0.113.9":   "::ffff:203.0.113.9",
	} {
		if got := LimitKey(netip.MustParseAddr(in)); got != want {
			t.Errorf("LimitKey(%s) = %s, want %s", in, got, want)
		}
	}
}
