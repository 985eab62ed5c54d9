package netguard

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"slices"
	"testing"
)

// embeddings returns every IPv4-embedding IPv6 spelling of v4.
func embeddings(v4 netip.Addr) map[string]netip.Addr {
	b := v4.As4()
	var m [16]byte
	out := map[string]netip.Addr{}
	put := func(name string, f func(*[16]byte)) {
		m = [16]byte{}
		f(&m)
		out[name] = netip.AddrFrom16(m)
	}
	put("mapped", func(m *[16]byte) { m[10], m[11] = 0xff, 0xff; copy(m[12:], b[:]) })
	put("translated", func(m *[16]byte) { m[8], m[9] = 0xff, 0xff; copy(m[12:], b[:]) })
	put("compatible", func(m *[16]byte) { copy(m[12:], b[:]) })
	put("nat64", func(m *[16]byte) { copy(m[:], []byte{0, 0x64, 0xff, 0x9b}); copy(m[12:], b[:]) })
	put("nat64-local/48", func(m *[16]byte) {
		copy(m[:], []byte{0, 0x64, 0xff, 0x9b, 0, 1})
		m[6], m[7], m[9], m[10] = b[0], b[1], b[2], b[3]
	})
	put("nat64-local/56", func(m *[16]byte) {
		copy(m[:], []byte{0, 0x64, 0xff, 0x9b, 0, 1, 0xab})
		m[7], m[9], m[10], m[11] = b[0], b[1], b[2], b[3]
	})
	put("nat64-local/64", func(m *[16]byte) {
		copy(m[:], []byte{0, 0x64, 0xff, 0x9b, 0, 1, 0xab, 0xcd})
		copy(m[9:13], b[:])
	})
	put("nat64-local/96", func(m *[16]byte) {
		copy(m[:], []byte{0, 0x64, 0xff, 0x9b, 0, 1, 0xab, 0xcd, 0, 0, 0, 0})
		copy(m[12:], b[:])
	})
	put("6to4", func(m *[16]byte) { m[0], m[1] = 0x20, 0x02; copy(m[2:6], b[:]); m[15] = 1 })
	put("teredo-server", func(m *[16]byte) {
		m[0], m[1] = 0x20, 0x01
		copy(m[4:8], b[:])
		binary.BigEndian.PutUint32(m[12:], 0x01020304^0xffffffff)
	})
	put("teredo-client", func(m *[16]byte) {
		m[0], m[1] = 0x20, 0x01
		copy(m[4:8], []byte{65, 54, 227, 120})
		binary.BigEndian.PutUint32(m[12:], binary.BigEndian.Uint32(b[:])^0xffffffff)
	})
	return out
}

func TestMetadataRefusedInEveryForm(t *testing.T) {
	r := newRanges()
	for a := range metadataAddrs {
		if c := r.classify(a); c.kind != kindMetadata {
			t.Errorf("%s: kind %d, want metadata", a, c.kind)
		}
		if !a.Is4() {
			continue
		}
		for form, e := range embeddings(a) {
			c := r.classify(e)
			if c.kind != kindMetadata || c.embedded != a {
				t.Errorf("%s as %s (%s): kind %d embedded %s, want metadata via %s", a, form, e, c.kind, c.embedded, a)
			}
			// And as an authored literal, with the opt-in.
			err := AdmitURL(fmt.Sprintf("http://[%s]:8080/", e), TransportHTTP, true)
			if r, ok := AsRefusal(err); !ok || r.Code() != CodeMetadata {
				t.Errorf("authored %s (%s): %v, want %s", e, form, err, CodeMetadata)
			}
		}
	}
}

func TestEmbeddedLoopbackIsNeverLocal(t *testing.T) {
	r := newRanges()
	for _, v4 := range []string{"127.0.0.1", "10.0.0.1", "192.168.1.1", "100.64.0.1"} {
		for form, e := range embeddings(netip.MustParseAddr(v4)) {
			if c := r.classify(e); c.kind != kindSpecial {
				t.Errorf("%s as %s (%s): kind %d, want special (an opt-in never opens a tunnel form)", v4, form, e, c.kind)
			}
		}
	}
}

func TestStdlibTrapsAreNotPublic(t *testing.T) {
	// netip's IsGlobalUnicast is true for all of these; none may be public.
	r := newRanges()
	for _, s := range []string{"100.100.100.200", "fd00:ec2::254", "::7f00:1", "64:ff9b::a9fe:a9fe", "fec0::1", "100::1", "::ffff:127.0.0.1"} {
		a := netip.MustParseAddr(s)
		if c := r.classify(a); c.kind == kindPublic {
			t.Errorf("%s classified public", s)
		}
	}
}

func TestLocalRanges(t *testing.T) {
	r := newRanges()
	cases := map[string]addrKind{
		"127.0.0.1": kindLocal, "127.255.255.255": kindLocal, "::1": kindLocal,
		"10.255.0.1": kindLocal, "172.16.0.1": kindLocal, "172.31.255.255": kindLocal, "172.32.0.1": kindPublic,
		"192.168.255.1": kindLocal, "100.64.0.0": kindLocal, "100.127.255.255": kindLocal, "100.128.0.1": kindPublic,
		"fc00::1": kindLocal, "fdff:ffff::1": kindLocal,
		"169.254.1.1": kindSpecial, "fe80::1": kindSpecial, "0.0.0.0": kindSpecial, "::": kindSpecial,
		"224.0.0.1": kindSpecial, "ff02::1": kindSpecial, "192.0.2.1": kindSpecial, "2001:db8::1": kindSpecial,
		"198.18.0.1": kindSpecial, "240.0.0.1": kindSpecial, "3fff::1": kindSpecial, "5f00::1": kindSpecial,
		"8.8.8.8": kindPublic, "2606:4700:4700::1111": kindPublic, "1.1.1.1": kindPublic,
		"169.254.169.254": kindMetadata, "168.63.129.16": kindMetadata, "fd00:ec2::254": kindMetadata,
	}
	for s, want := range cases {
		if got := r.classify(netip.MustParseAddr(s)).kind; got != want {
			t.Errorf("%s: kind %d, want %d", s, got, want)
		}
	}
}

func TestEmbeddedIPv4Decoding(t *testing.T) {
	cases := map[string][]string{
		"::ffff:1.2.3.4":                       {"1.2.3.4"},
		"64:ff9b::102:304":                     {"1.2.3.4"},
		"2002:102:304::1":                      {"1.2.3.4"},
		"2001:0:4136:e378:8000:63bf:3fff:fdd2": {"65.54.227.120", "192.0.2.45"}, // RFC 4380 example
		"2606:4700::1":                         nil,
	}
	for s, want := range cases {
		var got []string
		for _, a := range embeddedIPv4(netip.MustParseAddr(s)) {
			got = append(got, a.String())
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: embedded %q, want %q", s, got, want)
		}
	}
}

func TestLocalNames(t *testing.T) {
	for s, want := range map[string]bool{"localhost": true, "app.localhost": true, "a.b.localhost": true, "localhost.example.com": false, "notlocalhost": false, ".localhost": false} {
		if got := isLocalName(s); got != want {
			t.Errorf("isLocalName(%q) = %v", s, got)
		}
	}
}

func TestPrivateUseName(t *testing.T) {
	for host, want := range map[string]bool{
		"jenkins": true, "mcp-server": true, "printer.local": true, "nas.home.arpa": true, "svc.internal": true,
		"router.lan": true, "localhost": true, "app.localhost": true, "JENKINS.": true,
		"api.example.com": false, "local": true, "example.local.com": false, "8.8.8.8": false, "127.0.0.1": false,
		"::1": false, "": false, ".local": false,
	} {
		if got := PrivateUseName(host); got != want {
			t.Errorf("PrivateUseName(%q) = %v, want %v", host, got, want)
		}
	}
}
