package search

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"code.dny.dev/ssrf"
)

// This file is the one place that decides which addresses the reader may
// reach. The check runs when a connection is dialled, after the host name is
// resolved, so it applies to the first request and to every redirect alike,
// and to whatever the URL spells.

// Resolver looks up the addresses of a host. *net.Resolver satisfies it;
// tests inject their own.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// DialFunc opens a connection to an address the guard has already resolved
// and allowed ("1.2.3.4:443", "[2001:db8::1]:80").
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// guardian holds the deny lists: every IANA special-purpose IPv4 block
// (loopback, RFC 1918, link-local and cloud metadata, CGNAT 100.64/10,
// multicast, reserved, broadcast, "this network") and every IPv6 address
// outside global unicast 2000::/3 (loopback, unspecified, fc00::/7,
// fe80::/10, multicast, NAT64) plus the special blocks within it.
// Built on first use: its lists are parsed when made.
var guardian = sync.OnceValue(func() *ssrf.Guardian { return ssrf.New(ssrf.WithAnyPort(), ssrf.WithAnyNetwork()) })

var (
	cgnat         = netip.MustParsePrefix("100.64.0.0/10")
	thisNetwork   = netip.MustParsePrefix("0.0.0.0/8")
	broadcast4    = netip.MustParseAddr("255.255.255.255")
	metadata4     = netip.MustParseAddr("169.254.169.254")
	metadataAWSv6 = netip.MustParseAddr("fd00:ec2::254")
)

// spelling says how the host of a URL named the address being checked,
// for the refusal message.
type spelling int

const (
	spelledLiteral spelling = iota // the URL wrote the address itself
	spelledOddly                   // a legacy or mapped form: 2130706433, 0177.0.0.1, ::ffff:127.0.0.1
	spelledName                    // a name that resolved to it
)

// checkAddr reports whether ip may be reached, and if not, why in plain
// words. host is what the URL spelled.
func checkAddr(host string, ip netip.Addr, how spelling) error {
	a := ip.Unmap().WithZone("")
	denied := guardian().SafeAddr(a) != nil ||
		a.IsLoopback() || a.IsPrivate() || a.IsUnspecified() || a.IsMulticast() ||
		a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast()
	if !denied {
		return nil
	}
	what := describe(a)
	var reason string
	switch how {
	case spelledName:
		reason = fmt.Sprintf("%s resolves to %s, which is %s", host, a, what)
	case spelledOddly:
		reason = fmt.Sprintf("%s means %s, which is %s", host, a, what)
	default:
		reason = fmt.Sprintf("%s is %s", a, what)
	}
	return &RefusedError{Reason: reason}
}

func describe(a netip.Addr) string {
	switch {
	case a.IsLoopback():
		return "a loopback address"
	case a.IsUnspecified():
		return "an unspecified address"
	case a == broadcast4:
		return "a broadcast address"
	case a == metadata4 || a == metadataAWSv6:
		return "the cloud metadata address"
	case a.IsPrivate():
		return "a private address"
	case a.IsLinkLocalUnicast():
		return "a link-local address"
	case cgnat.Contains(a):
		return "a shared carrier-grade NAT address"
	case a.IsMulticast():
		return "a multicast address"
	case thisNetwork.Contains(a):
		return `a "this network" address`
	}
	return "a reserved or special-purpose address"
}

// checkURL refuses URLs the reader never fetches, whatever their address.
func checkURL(u *url.URL) error {
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	case "":
		return &RefusedError{URL: u.String(), Reason: fmt.Sprintf("%q is not a web address (it needs http:// or https://)", u.String())}
	default:
		return &RefusedError{URL: u.String(), Reason: fmt.Sprintf("only http and https addresses can be read, not %s:", u.Scheme)}
	}
	if u.Host == "" || u.Hostname() == "" {
		return &RefusedError{URL: u.String(), Reason: fmt.Sprintf("%q has no host name", u.String())}
	}
	if u.User != nil {
		return &RefusedError{URL: u.String(), Reason: "addresses with a user name or password in them are not read"}
	}
	return nil
}

// guardedDialer resolves, checks every address, then dials an allowed one.
type guardedDialer struct {
	resolver     Resolver
	dial         DialFunc
	allowPrivate bool
}

func (d *guardedDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("bad address %q: %w", addr, err)
	}
	port, err := strconv.ParseUint(portStr, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("bad port in %q", addr)
	}
	ips, how, err := d.resolve(ctx, network, host)
	if err != nil {
		return nil, err
	}
	if !d.allowPrivate {
		// Every address must pass: a name that resolves to one public and
		// one private address is refused, so the dial cannot be steered.
		for _, ip := range ips {
			if err := checkAddr(host, ip, how); err != nil {
				return nil, err
			}
		}
	}
	var errs []error
	for _, ip := range ips {
		target := netip.AddrPortFrom(ip.Unmap(), uint16(port)).String()
		conn, err := d.dial(ctx, network, target)
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, errors.Join(errs...)
}

// resolve turns a host into addresses: IP literals in any spelling are
// parsed here (never handed to a resolver that might read 0177.0.0.1 as
// octal), "localhost" names are loopback (RFC 6761), other names go to
// the resolver.
func (d *guardedDialer) resolve(ctx context.Context, network, host string) ([]netip.Addr, spelling, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		if ip.Is4In6() {
			return []netip.Addr{ip}, spelledOddly, nil
		}
		return []netip.Addr{ip}, spelledLiteral, nil
	}
	if ip, ok := parseLegacyIPv4(host); ok {
		return []netip.Addr{ip}, spelledOddly, nil
	}
	name := strings.ToLower(strings.TrimSuffix(host, "."))
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.IPv6Loopback()}, spelledName, nil
	}
	ipNet := "ip"
	switch network {
	case "tcp4":
		ipNet = "ip4"
	case "tcp6":
		ipNet = "ip6"
	}
	ips, err := d.resolver.LookupNetIP(ctx, ipNet, host)
	if err != nil {
		return nil, 0, fmt.Errorf("cannot find the address of %s: %w", host, err)
	}
	if len(ips) == 0 {
		return nil, 0, fmt.Errorf("cannot find the address of %s", host)
	}
	return ips, spelledName, nil
}

// parseLegacyIPv4 reads the IPv4 forms that browsers and inet_aton accept
// beyond dotted decimal: one to four parts, each decimal, octal (leading
// 0) or hex (0x), the last part filling the remaining bytes — so
// 2130706433, 0177.0.0.1, 0x7f.1 and 127.1 all mean 127.0.0.1.
func parseLegacyIPv4(host string) (netip.Addr, bool) {
	host = strings.TrimSuffix(host, ".")
	parts := strings.Split(host, ".")
	if len(parts) == 0 || len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := parseIPv4Part(p)
		if !ok {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

func parseIPv4Part(p string) (uint64, bool) {
	if p == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(p) >= 2 && (p[:2] == "0x" || p[:2] == "0X"):
		base, p = 16, p[2:]
		if p == "" {
			return 0, true
		}
	case len(p) > 1 && p[0] == '0':
		base, p = 8, p[1:]
	}
	n, err := strconv.ParseUint(p, base, 32)
	if err != nil {
		return 0, false
	}
	return n, true
}
