package clientside

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
)

// A url-mode elicitation sends the person to a page. Before anything is
// shown, the url is screened: relavium opens only https, or http on a
// loopback host (a local sign-in page), never a url with credentials in
// it; it shows the full origin; and it warns when the host name can read as
// another: punycode (xn--) labels, shown decoded; non-ASCII host names; a
// label mixing scripts (Latin with Cyrillic or Greek: the classic
// look-alike); a bare IP address. The screen decides nothing for the
// person: a url is only ever opened on their key press.

const maxElicitURL = 8 << 10 // a longer url is refused unread

// ScreenURL screens raw as a url-mode elicitation's url.
func ScreenURL(raw string) engine.ElicitURL {
	s := engine.ElicitURL{URL: sanitize.Line(strings.ToValidUTF8(raw, "\uFFFD"))}
	refuse := func(why string) engine.ElicitURL { s.Refusal = why; return s }
	if len(raw) > maxElicitURL {
		s.URL = sanitize.Line(strings.ToValidUTF8(raw[:256], "\uFFFD")) + "…"
		return refuse(fmt.Sprintf("the url is %d bytes long", len(raw)))
	}
	if !utf8.ValidString(raw) || sanitize.Line(raw) != raw || strings.ContainsAny(raw, " \t\r\n") {
		return refuse("the url holds control, invisible or space characters")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return refuse("the url does not parse as scheme://host/…")
	}
	if !utf8.ValidString(u.Host) || sanitize.Line(u.Host) != u.Host || strings.Contains(rawAuthority(raw), "%") {
		return refuse("the host name is percent-encoded or holds characters no host name has")
	}
	host := u.Hostname()
	s.Origin = strings.ToLower(u.Scheme) + "://" + u.Host
	if u.User != nil {
		return refuse("the url carries a user name or password before @; the host it goes to is " + host)
	}
	loop := isLoopbackHost(host)
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		if !loop {
			return refuse("plain http to a host that is not this machine (only https, or http on loopback, is opened)")
		}
	default:
		return refuse("scheme " + u.Scheme + " is never opened (only https, or http on loopback)")
	}
	s.Warnings = hostWarnings(host)
	s.Openable = true
	return s
}

// rawAuthority is raw's authority as written (before url.Parse decodes
// any %XX in it).
func rawAuthority(raw string) string {
	_, rest, ok := strings.Cut(raw, "//")
	if !ok {
		return ""
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// isLoopbackHost: localhost, or a loopback IP literal.
func isLoopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") || strings.HasSuffix(strings.ToLower(h), ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// hostWarnings says every way host may read as another.
func hostWarnings(host string) []string {
	var w []string
	if net.ParseIP(host) != nil {
		w = append(w, "the host is a bare IP address, not a name")
		return w
	}
	if !isASCII(host) {
		w = append(w, "the host name has non-ASCII characters: it may imitate another name")
	}
	decoded := make([]string, 0, 4)
	puny := false
	for _, label := range strings.Split(host, ".") {
		if len(label) > 4 && strings.EqualFold(label[:4], "xn--") {
			puny = true
			if d, ok := punyDecode(strings.ToLower(label[4:])); ok {
				label = d
			} else {
				w = append(w, "the punycode label "+label+" does not decode")
			}
		}
		decoded = append(decoded, label)
		if scripts := labelScripts(label); len(scripts) > 1 {
			w = append(w, fmt.Sprintf("the label %q mixes scripts (%s): a look-alike of another name", sanitize.Line(label), strings.Join(scripts, " and ")))
		}
	}
	if puny {
		w = append(w, "the host is punycode: a browser shows it as "+sanitize.Line(strings.Join(decoded, ".")))
	}
	return w
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// scriptTables are the scripts whose letters are told apart in a label.
var scriptTables = []struct {
	name string
	t    *unicode.RangeTable
}{
	{"Latin", unicode.Latin}, {"Cyrillic", unicode.Cyrillic}, {"Greek", unicode.Greek}, {"Armenian", unicode.Armenian},
	{"Hebrew", unicode.Hebrew}, {"Arabic", unicode.Arabic}, {"Cherokee", unicode.Cherokee}, {"Han", unicode.Han},
	{"Hiragana", unicode.Hiragana}, {"Katakana", unicode.Katakana}, {"Hangul", unicode.Hangul}, {"Thai", unicode.Thai},
}

// labelScripts lists the scripts of label's letters, in order of first use.
func labelScripts(label string) []string {
	var out []string
	for _, r := range label {
		if !unicode.IsLetter(r) {
			continue
		}
		name := "other"
		for _, s := range scriptTables {
			if unicode.Is(s.t, r) {
				name = s.name
				break
			}
		}
		found := false
		for _, o := range out {
			found = found || o == name
		}
		if !found {
			out = append(out, name)
		}
	}
	return out
}

// punyDecode decodes the part of a punycode label after "xn--" (RFC 3492).
func punyDecode(s string) (string, bool) {
	const (
		base, tmin, tmax, skew, damp = 36, 1, 26, 38, 700
		initialBias, initialN        = 72, 128
	)
	if len(s) > 63 {
		return "", false
	}
	var out []rune
	if i := strings.LastIndexByte(s, '-'); i >= 0 {
		for _, r := range s[:i] {
			if r >= utf8.RuneSelf {
				return "", false
			}
			out = append(out, r)
		}
		s = s[i+1:]
	}
	adapt := func(delta, numPoints int, first bool) int {
		if first {
			delta /= damp
		} else {
			delta /= 2
		}
		delta += delta / numPoints
		k := 0
		for delta > ((base-tmin)*tmax)/2 {
			delta /= base - tmin
			k += base
		}
		return k + (base-tmin+1)*delta/(delta+skew)
	}
	n, bias, i := initialN, initialBias, 0
	for pos := 0; pos < len(s); {
		oldi, w := i, 1
		for k := base; ; k += base {
			if pos >= len(s) {
				return "", false
			}
			c := s[pos]
			pos++
			var digit int
			switch {
			case c >= 'a' && c <= 'z':
				digit = int(c - 'a')
			case c >= '0' && c <= '9':
				digit = int(c-'0') + 26
			default:
				return "", false
			}
			if digit > (1<<30-i)/w {
				return "", false
			}
			i += digit * w
			t := k - bias
			t = max(tmin, min(tmax, t))
			if digit < t {
				break
			}
			if w > (1<<30)/(base-t) {
				return "", false
			}
			w *= base - t
		}
		bias = adapt(i-oldi, len(out)+1, oldi == 0)
		n += i / (len(out) + 1)
		i %= len(out) + 1
		if n > unicode.MaxRune || len(out) >= 63 {
			return "", false
		}
		out = append(out[:i], append([]rune{rune(n)}, out[i:]...)...)
		i++
	}
	return string(out), true
}
