package netguard

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/relavium/relavium/fault"
)

// hostForm is an admitted host: either an IP literal or a clean DNS name.
type hostForm struct {
	// name is the lower-case host as authored ("" for a literal); a fully
	// qualified name keeps its one trailing dot in the url (Host, SNI:
	// crypto/tls drops the dot) and is otherwise its dotless form (bare),
	// which is what the resolver is asked.
	name    string
	literal netip.Addr // valid when the host is an IP literal
}

// parseHost checks the host part of an authored url (without brackets or
// port) and returns its form, or the reason it is refused. A host that is
// neither a valid netip address nor a clean ASCII name never reaches a
// resolver: getaddrinfo applies inet_aton rules (0177.0.0.1 is 127.0.0.1).
func parseHost(host string, bracketed bool) (hostForm, *Error) {
	if host == "" {
		return hostForm{}, refusal(CodeMalformedURL, ReasonMalformedURL, fault.ExitUsage, "the url has no host")
	}
	if strings.Contains(host, "%") {
		if bracketed {
			return hostForm{}, refusal(CodeZoneID, ReasonZoneID, fault.ExitUsage,
				"the IPv6 host %q carries a zone id; a zone names a local interface, not a server", host).
				fix("remove the %zone suffix from the address")
		}
		return hostForm{}, refusal(CodeHostName, ReasonHostName, fault.ExitUsage, "the host %q is percent-encoded", host)
	}
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 {
			return hostForm{}, refusal(CodeNonASCIIHost, ReasonNonASCIIHost, fault.ExitUsage,
				"the host %q is not ASCII; internationalized and look-alike names are refused", host).
				fix("write the host in its ASCII (punycode, xn--) form")
		}
	}
	if bracketed {
		a, err := netip.ParseAddr(host)
		if err != nil || !a.Is6() {
			return hostForm{}, refusal(CodeMalformedURL, ReasonMalformedURL, fault.ExitUsage,
				"the bracketed host %q is not an IPv6 address", host)
		}
		return hostForm{literal: a}, nil
	}
	if a, err := netip.ParseAddr(host); err == nil && a.Is4() {
		return hostForm{literal: a}, nil
	}
	if endsInNumber(host) {
		return hostForm{}, refusal(CodeNumericHost, ReasonNumericHost, fault.ExitUsage,
			"the host %q looks numeric but is not a dotted-quad IPv4 address; short, octal, hex and integer forms are refused", host).
			fix("write the address as four decimal octets (e.g. 127.0.0.1) or use a name")
	}
	name := strings.ToLower(host)
	if why := badName(bare(name)); why != "" {
		return hostForm{}, refusal(CodeHostName, ReasonHostName, fault.ExitUsage,
			"the host %q is not a clean DNS name: %s", host, why)
	}
	return hostForm{name: name}, nil
}

// endsInNumber is the WHATWG URL "ends in a number" test: the last label (a
// single trailing dot ignored) is all decimal digits, or 0x/0X followed by hex
// digits. Such a host must be a valid IPv4 address or nothing.
func endsInNumber(host string) bool {
	labels := strings.Split(host, ".")
	if len(labels) > 1 && labels[len(labels)-1] == "" {
		labels = labels[:len(labels)-1]
	}
	last := labels[len(labels)-1]
	if last == "" {
		return false
	}
	if allDigits(last, isDecimal) {
		return true
	}
	if len(last) >= 2 && last[0] == '0' && (last[1] == 'x' || last[1] == 'X') {
		return allDigits(last[2:], isHex)
	}
	return false
}

func allDigits(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

func isDecimal(c byte) bool { return '0' <= c && c <= '9' }

func isHex(c byte) bool {
	return isDecimal(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// bare is a name without the one trailing dot of a fully qualified name
// ("mcp.example.com." pasted from a DNS tool): the same host, checked,
// classified and scoped as its dotless form.
func bare(name string) string { return strings.TrimSuffix(name, ".") }

// badName explains why a lower-case ASCII host (its trailing dot removed,
// see bare) is not a clean DNS name, or returns "". Labels are 1–63 of
// [a-z0-9_-], not starting or ending with a hyphen; at most 253 bytes; no
// empty label (so no leading or doubled dot, and no second trailing one).
func badName(name string) string {
	if len(name) > 253 {
		return "longer than 253 bytes"
	}
	for _, label := range strings.Split(name, ".") {
		switch {
		case label == "":
			return "an empty label (a leading, doubled or trailing dot)"
		case len(label) > 63:
			return "a label longer than 63 bytes"
		case label[0] == '-' || label[len(label)-1] == '-':
			return "a label starts or ends with a hyphen"
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || isDecimal(c) || c == '-' || c == '_') {
				return fmt.Sprintf("the character %q is not allowed", rune(c))
			}
		}
	}
	return ""
}
