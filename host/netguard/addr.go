package netguard

import (
	"encoding/binary"
	"net/netip"
	"strings"

	"code.dny.dev/ssrf"
)

// addrKind is what the guard makes of one address.
type addrKind int

const (
	kindPublic   addrKind = iota // passes ssrf.SafeAddr: remote, needs https
	kindLocal                    // loopback, RFC 1918, CGNAT, ULA: needs the scoped opt-in
	kindMetadata                 // a cloud metadata endpoint, refused always
	kindSpecial                  // any other special-purpose space, refused always
)

// class is the verdict on one address, with the embedded IPv4 that decided a
// metadata match made through a mapped or tunnel form.
type class struct {
	kind     addrKind
	addr     netip.Addr
	embedded netip.Addr // the IPv4 found inside a mapped/compatible/NAT64/6to4/Teredo form
	detail   string     // the range or provider that decided it
}

// metadataAddrs are the instance-metadata (and adjacent credential) endpoints
// of the cloud providers. Each is refused whatever the opt-in says, directly,
// inside any IPv4-embedding IPv6 form, or as a resolver answer.
var metadataAddrs = map[netip.Addr]string{
	netip.MustParseAddr("169.254.169.254"):    "instance metadata (AWS, GCP, Azure, Oracle, DigitalOcean, OpenStack, …)",
	netip.MustParseAddr("169.254.170.2"):      "AWS ECS task metadata and credentials",
	netip.MustParseAddr("169.254.170.23"):     "AWS EKS Pod Identity agent",
	netip.MustParseAddr("169.254.0.23"):       "Tencent Cloud metadata",
	netip.MustParseAddr("169.254.42.42"):      "Scaleway metadata",
	netip.MustParseAddr("100.100.100.200"):    "Alibaba Cloud metadata",
	netip.MustParseAddr("192.0.0.192"):        "Oracle Cloud metadata",
	netip.MustParseAddr("168.63.129.16"):      "Azure WireServer",
	netip.MustParseAddr("fd00:ec2::254"):      "AWS IPv6 instance metadata",
	netip.MustParseAddr("fd00:ec2::23"):       "AWS IPv6 EKS Pod Identity agent",
	netip.MustParseAddr("fd20:ce::254"):       "Google Cloud IPv6 metadata",
	netip.MustParseAddr("fd00:c1::a9fe:a9fe"): "Oracle Cloud IPv6 metadata",
	netip.MustParseAddr("fd00:42::42"):        "Scaleway IPv6 metadata",
	netip.MustParseAddr("fd00:a9fe:a9fe::1"):  "Akamai/Linode IPv6 metadata",
	netip.MustParseAddr("fd00:100::100:200"):  "Alibaba Cloud IPv6 metadata",
	netip.MustParseAddr("fe80::a9fe:a9fe"):    "OpenStack IPv6 metadata",
}

// localPrefixes are the only ranges allow_local_endpoint can open: loopback,
// RFC 1918, RFC 6598 shared space (CGNAT, Tailscale) and IPv6 unique-local.
// Link-local, unspecified, multicast, documentation and every IPv4-embedding
// IPv6 form stay refused with or without the opt-in.
var localPrefixes = []netip.Prefix{
	netip.MustParsePrefix("127.0.0.0/8"),
	netip.MustParsePrefix("10.0.0.0/8"),
	netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.168.0.0/16"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("::1/128"),
	netip.MustParsePrefix("fc00::/7"),
}

// IPv6 forms that embed an IPv4 address.
var (
	prefixMapped     = netip.MustParsePrefix("::ffff:0:0/96")   // RFC 4291 §2.5.5.2
	prefixTranslated = netip.MustParsePrefix("::ffff:0:0:0/96") // RFC 2765 SIIT
	prefixCompatible = netip.MustParsePrefix("::/96")           // RFC 4291 §2.5.5.1 (deprecated)
	prefixNAT64      = netip.MustParsePrefix("64:ff9b::/96")    // RFC 6052
	prefixNAT64Local = netip.MustParsePrefix("64:ff9b:1::/48")  // RFC 8215
	prefix6to4       = netip.MustParsePrefix("2002::/16")       // RFC 3056
	prefixTeredo     = netip.MustParsePrefix("2001::/32")       // RFC 4380
)

// ranges is the guard's range policy: code.dny.dev/ssrf (IANA special-purpose
// registries for IPv4 and IPv6) decides "public"; any port is fine here, the
// port is part of the admitted target, not of the range policy.
type ranges struct {
	guardian *ssrf.Guardian
}

func newRanges() ranges {
	return ranges{guardian: ssrf.New(ssrf.WithAnyPort())}
}

// embeddedIPv4 returns every IPv4 address a v6 address may carry. Several
// candidates are returned where the encoding is ambiguous (RFC 8215 allows
// any RFC 6052 prefix length inside 64:ff9b:1::/48; Teredo carries a server
// and an obfuscated client address).
func embeddedIPv4(a netip.Addr) []netip.Addr {
	if !a.Is6() {
		return nil
	}
	b := a.As16()
	last32 := func() netip.Addr { return netip.AddrFrom4([4]byte(b[12:16])) }
	switch {
	case a.Is4In6(), prefixMapped.Contains(a):
		return []netip.Addr{a.Unmap()}
	case prefixTranslated.Contains(a), prefixNAT64.Contains(a):
		return []netip.Addr{last32()}
	case prefixCompatible.Contains(a):
		if a == netip.IPv6Unspecified() || a == netip.IPv6Loopback() {
			return nil
		}
		return []netip.Addr{last32()}
	case prefixNAT64Local.Contains(a):
		// RFC 6052 §2.2 for /48 (octets 6,7 | u | 9,10), /56 (7 | u | 9,10,11),
		// /64 (u | 9..12) and /96 (12..15).
		return []netip.Addr{
			netip.AddrFrom4([4]byte{b[6], b[7], b[9], b[10]}),
			netip.AddrFrom4([4]byte{b[7], b[9], b[10], b[11]}),
			netip.AddrFrom4([4]byte{b[9], b[10], b[11], b[12]}),
			last32(),
		}
	case prefix6to4.Contains(a):
		return []netip.Addr{netip.AddrFrom4([4]byte(b[2:6]))}
	case prefixTeredo.Contains(a):
		client := binary.BigEndian.Uint32(b[12:16]) ^ 0xffffffff
		var c [4]byte
		binary.BigEndian.PutUint32(c[:], client)
		return []netip.Addr{netip.AddrFrom4([4]byte(b[4:8])), netip.AddrFrom4(c)}
	}
	return nil
}

// metadataOf reports the provider when a, or an IPv4 embedded in a, is a
// metadata endpoint.
func metadataOf(a netip.Addr) (provider string, embedded netip.Addr, ok bool) {
	a = a.WithZone("")
	if p, ok := metadataAddrs[a]; ok {
		return p, netip.Addr{}, true
	}
	for _, e := range embeddedIPv4(a) {
		if p, ok := metadataAddrs[e]; ok {
			return p, e, true
		}
	}
	return "", netip.Addr{}, false
}

// classify decides one address. Order matters: metadata first (some metadata
// endpoints sit in ranges the opt-in lifts, and Azure's is public), then the
// IANA registries via ssrf, then the local ranges the opt-in may open.
func (r ranges) classify(a netip.Addr) class {
	a = a.WithZone("")
	if p, e, ok := metadataOf(a); ok {
		return class{kind: kindMetadata, addr: a, embedded: e, detail: p}
	}
	if err := r.guardian.SafeAddr(a); err == nil {
		return class{kind: kindPublic, addr: a}
	}
	if !a.Is4In6() {
		for _, p := range localPrefixes {
			if p.Contains(a) {
				return class{kind: kindLocal, addr: a, detail: p.String()}
			}
		}
	}
	c := class{kind: kindSpecial, addr: a, detail: specialRange(a)}
	if e := embeddedIPv4(a); len(e) > 0 {
		c.embedded = e[0]
	}
	return c
}

// specialRanges names the special-purpose space a refused address is in, for
// the message only (the decision is ssrf's).
var specialRanges = []struct {
	prefix netip.Prefix
	name   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "0.0.0.0/8 (this network / unspecified)"},
	{netip.MustParsePrefix("169.254.0.0/16"), "169.254.0.0/16 (link-local)"},
	{netip.MustParsePrefix("192.0.0.0/24"), "192.0.0.0/24 (IETF protocol assignments)"},
	{netip.MustParsePrefix("192.0.2.0/24"), "192.0.2.0/24 (documentation)"},
	{netip.MustParsePrefix("198.51.100.0/24"), "198.51.100.0/24 (documentation)"},
	{netip.MustParsePrefix("203.0.113.0/24"), "203.0.113.0/24 (documentation)"},
	{netip.MustParsePrefix("198.18.0.0/15"), "198.18.0.0/15 (benchmarking)"},
	{netip.MustParsePrefix("224.0.0.0/4"), "224.0.0.0/4 (multicast)"},
	{netip.MustParsePrefix("240.0.0.0/4"), "240.0.0.0/4 (reserved, broadcast)"},
	{netip.MustParsePrefix("::/128"), "::/128 (unspecified)"},
	{prefixMapped, "::ffff:0:0/96 (IPv4-mapped)"},
	{prefixTranslated, "::ffff:0:0:0/96 (IPv4-translated)"},
	{prefixCompatible, "::/96 (IPv4-compatible)"},
	{prefixNAT64, "64:ff9b::/96 (NAT64)"},
	{prefixNAT64Local, "64:ff9b:1::/48 (local-use NAT64)"},
	{prefix6to4, "2002::/16 (6to4)"},
	{prefixTeredo, "2001::/32 (Teredo)"},
	{netip.MustParsePrefix("2001:db8::/32"), "2001:db8::/32 (documentation)"},
	{netip.MustParsePrefix("fe80::/10"), "fe80::/10 (link-local)"},
	{netip.MustParsePrefix("fec0::/10"), "fec0::/10 (site-local, deprecated)"},
	{netip.MustParsePrefix("ff00::/8"), "ff00::/8 (multicast)"},
	{netip.MustParsePrefix("100::/64"), "100::/64 (discard-only)"},
}

func specialRange(a netip.Addr) string {
	for _, s := range specialRanges {
		if s.prefix.Contains(a) {
			return s.name
		}
	}
	if a.Is4In6() {
		return "::ffff:0:0/96 (IPv4-mapped)"
	}
	return "IANA special-purpose address space"
}

// isLocalName reports the RFC 6761 names that always mean this machine.
func isLocalName(host string) bool {
	host = bare(host)
	return host == "localhost" || len(host) > len(".localhost") && strings.HasSuffix(host, ".localhost")
}

// PrivateUseName reports a host name that only a private network resolves:
// one label ("jenkins", a docker-compose service or a search-domain host),
// or a name under a suffix set aside for local networks — .local (mDNS,
// RFC 6762), .home.arpa (RFC 8375), .internal (reserved by ICANN for
// private use), .lan (the de facto home-router suffix) — or localhost's.
// A url naming one over plain http is a local endpoint written by name:
// with the local opt-in it is reached only when it resolves to a private
// address (the dial decides), never as a plaintext remote.
func PrivateUseName(host string) bool {
	host = strings.ToLower(bare(host))
	if host == "" || isLocalName(host) {
		return host != ""
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return false
	}
	if !strings.Contains(host, ".") {
		return true
	}
	for _, suffix := range []string{".local", ".home.arpa", ".internal", ".lan"} {
		if strings.HasSuffix(host, suffix) && len(host) > len(suffix) {
			return true
		}
	}
	return false
}
