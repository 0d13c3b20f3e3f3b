package search

import (
	"math/big"
	"net/netip"
	"strings"
	"testing"
)

// refLegacyIPv4 is an obviously-correct reading of inet_aton's forms, for
// the fuzz test: each part is read digit by digit into a big integer (no
// strconv), with the part count deciding how many bytes the last part fills.
func refLegacyIPv4(host string) (netip.Addr, bool) {
	host = strings.TrimSuffix(host, ".")
	parts := strings.Split(host, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var nums []*big.Int
	for _, p := range parts {
		base, digits := int64(10), p
		switch {
		case strings.HasPrefix(p, "0x") || strings.HasPrefix(p, "0X"):
			base, digits = 16, p[2:]
		case len(p) > 1 && p[0] == '0':
			base, digits = 8, p[1:]
		case p == "":
			return netip.Addr{}, false
		}
		n := new(big.Int)
		for _, c := range strings.ToLower(digits) {
			d := strings.IndexRune("0123456789abcdef", c)
			if d < 0 || int64(d) >= base {
				return netip.Addr{}, false
			}
			n.Mul(n, big.NewInt(base)).Add(n, big.NewInt(int64(d)))
		}
		nums = append(nums, n)
	}
	v := new(big.Int)
	for i, n := range nums {
		room := 8 // bits this part fills
		if i == len(nums)-1 {
			room = 8 * (5 - len(nums))
		}
		if n.BitLen() > room {
			return netip.Addr{}, false
		}
		v.Lsh(v, uint(room)).Or(v, n)
	}
	var b [4]byte
	v.FillBytes(b[:])
	return netip.AddrFrom4(b), true
}

func FuzzParseLegacyIPv4(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "2130706433", "0177.0.0.1", "0x7f.1", "127.1", "0x", "1.2.3.4.5",
		"0xffffffff", "4294967296", "08.0.0.1", "1..2", "", ".", "0x7F.0.0.0x1", "00000000000000000000177.1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, host string) {
		got, gotOK := parseLegacyIPv4(host)
		want, wantOK := refLegacyIPv4(host)
		if gotOK != wantOK || got != want {
			t.Errorf("parseLegacyIPv4(%q) = %v, %v; reference says %v, %v", host, got, gotOK, want, wantOK)
		}
	})
}

// specialIPv4 lists IANA's special-purpose IPv4 blocks that are not
// globally reachable (RFC 6890 and its registry), written out here
// independently of the guard's own lists.
var specialIPv4 = []string{
	"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
	"192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15",
	"198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
}

func refDenied(a netip.Addr) bool {
	a = a.Unmap()
	if a.Is4() {
		for _, p := range specialIPv4 {
			if netip.MustParsePrefix(p).Contains(a) {
				return true
			}
		}
		return false
	}
	return !netip.MustParsePrefix("2000::/3").Contains(a)
}

func FuzzCheckAddr(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "8.8.8.8", "10.1.2.3", "100.64.0.1", "169.254.169.254", "::1",
		"::ffff:127.0.0.1", "::ffff:8.8.8.8", "fe80::1", "fd00:ec2::254", "2001:4860:4860::8888", "64:ff9b::7f00:1",
		"2001:db8::1", "255.255.255.255", "198.18.0.1", "1.1.1.1"} {
		a := netip.MustParseAddr(s)
		f.Add(a.AsSlice())
	}
	f.Add([]byte{192, 175, 48, 48}) // AS112: special, refused by the guard, missing from the reference
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, ok := netip.AddrFromSlice(raw)
		if !ok {
			return
		}
		err := checkAddr(a.String(), a, spelledLiteral)
		// Every special-purpose address is refused; the guard may refuse
		// more (e.g. special blocks inside 2000::/3), never less.
		if refDenied(a) && err == nil {
			t.Errorf("checkAddr(%v) allowed a special-purpose address", a)
		}
	})
}

// The guard's lists are wider than the reference (AS112, AMT and other
// special blocks), so the fuzz test checks one direction only; these are
// addresses of public sites, which it must let through.
func TestCheckAddrAllowsPublicAddresses(t *testing.T) {
	for _, s := range []string{"8.8.8.8", "1.1.1.1", "93.184.216.34", "151.101.1.69", "::ffff:8.8.4.4", "2001:4860:4860::8888", "2606:4700:4700::1111"} {
		a := netip.MustParseAddr(s)
		if err := checkAddr(s, a, spelledLiteral); err != nil {
			t.Errorf("checkAddr(%s) = %v, want it allowed", s, err)
		}
	}
}

func FuzzCanonical(f *testing.F) {
	for _, s := range []string{"https://www.Example.com:443/a/b/?utm_source=x&b=2&a=1#frag", "http://[::1]:80/",
		"HTTPS://EXAMPLE.COM", "example.com/path", "https://user:pw@example.com/x?fbclid=1", "https://example.com/%7Efoo/",
		"https://example.com/?a=1;b=2", "https://example.com//", "not a url", "https://example.com./x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		once := Canonical(raw)
		if twice := Canonical(once); twice != once {
			t.Errorf("Canonical is not idempotent on %q:\n once  %q\n twice %q", raw, once, twice)
		}
	})
}
