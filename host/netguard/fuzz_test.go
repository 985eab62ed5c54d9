package netguard

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// FuzzAdmitURL checks admission invariants on arbitrary input; the seed
// corpus is testdata/fuzz/FuzzAdmitURL.
func FuzzAdmitURL(f *testing.F) {
	f.Add("https://api.example.com/mcp", "http", false)
	f.Add("http://127.1/", "http", true)
	f.Add("ws://localhost:4000/", "websocket", true)
	f.Fuzz(func(t *testing.T, raw, transport string, local bool) {
		err := AdmitURL(raw, transport, local)
		g := New(WithResolver(loopbackResolver{}), WithDialer(&recordingDialer{}))
		tg, err2 := g.Admit(raw, transport, local)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("AdmitURL and Admit disagree: %v / %v", err, err2)
		}
		if err != nil {
			r, ok := AsRefusal(err)
			if !ok {
				t.Fatalf("refusal of type %T: %v", err, err)
			}
			if n, _ := strconv.Atoi(strings.TrimPrefix(string(r.Code()), "E")); n < 550 || n > 579 {
				t.Fatalf("code %s outside E550–E579", r.Code())
			}
			if r.ExitCode() != 2 || r.Msg == "" || r.Reason == "" {
				t.Fatalf("authored refusal without exit 2, message or reason: %+v", r)
			}
			if r.URL != "" && strings.Contains(r.URL, "@") {
				if u, perr := url.Parse(r.URL); perr != nil || u.User != nil {
					t.Fatalf("refusal url carries userinfo: %q", r.URL)
				}
			}
			return
		}
		checkAdmitted(t, tg, raw, transport, local)

		// Admission is stable: the admitted url admits again to the same
		// scope (a fully qualified host is connected without its dot: the
		// same host, spelled as its dotless form).
		again, err := g.Admit(tg.URL(), transport, local)
		if err != nil || again.HostPort() != tg.HostPort() && again.HostPort() != net.JoinHostPort(bare(tg.hostString()), strconv.Itoa(int(tg.port))) ||
			!again.sameHostPort(tg.hostString(), strconv.Itoa(int(tg.port))) {
			t.Fatalf("re-admitting %q: %v (scope %v vs %s)", tg.URL(), err, again, tg.HostPort())
		}

		// Through a resolver that answers loopback for every name, a dial
		// reaches the dialer only with the opt-in, and only the pinned port.
		rec := &recordingDialer{}
		gd := New(WithResolver(loopbackResolver{}), WithDialer(rec))
		td, _ := gd.Admit(raw, transport, local)
		_, derr := gd.dial(context.Background(), td, "tcp", td.HostPort())
		dials := rec.recorded()
		if len(dials) > 0 {
			for _, d := range dials {
				ap, perr := netip.ParseAddrPort(d)
				if perr != nil || ap.Port() != td.port {
					t.Fatalf("dialled %q for %s", d, td.HostPort())
				}
				if newRanges().classify(ap.Addr()).kind == kindLocal && !local {
					t.Fatalf("dialled local %s without the opt-in", d)
				}
			}
		} else if _, ok := AsRefusal(derr); !ok {
			t.Fatalf("no dial and no refusal: %v", derr)
		}
	})
}

// loopbackResolver answers 127.0.0.1 for every name.
type loopbackResolver struct{}

func (loopbackResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
}

func checkAdmitted(t *testing.T, tg *Target, raw, transport string, local bool) {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("admitted an unparseable url %q: %v", raw, err)
	}
	switch u.Scheme {
	case "http", "https":
		if transport != TransportHTTP && transport != TransportSSE {
			t.Fatalf("admitted %s:// for transport %q", u.Scheme, transport)
		}
	case "ws", "wss":
		if transport != TransportWebsocket {
			t.Fatalf("admitted %s:// for transport %q", u.Scheme, transport)
		}
	default:
		t.Fatalf("admitted scheme %q", u.Scheme)
	}
	if u.User != nil {
		t.Fatalf("admitted userinfo in %q", raw)
	}
	host := u.Hostname()
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 || host[i] == '%' || host[i] <= ' ' {
			t.Fatalf("admitted host %q", host)
		}
	}
	if _, _, err := net.SplitHostPort(tg.HostPort()); err != nil || tg.port == 0 {
		t.Fatalf("admitted scope %q", tg.HostPort())
	}
	if a, err := netip.ParseAddr(host); err == nil {
		switch newRanges().classify(a).kind {
		case kindMetadata, kindSpecial:
			t.Fatalf("admitted the literal %s", a)
		case kindLocal:
			if !local {
				t.Fatalf("admitted the local literal %s without the opt-in", a)
			}
		case kindPublic:
			if !tg.secure || tg.websocket {
				t.Fatalf("admitted %s to the public literal %s", u.Scheme, a)
			}
		}
		return
	}
	if endsInNumber(host) {
		t.Fatalf("admitted the numeric-looking host %q", host)
	}
	if !local && (!tg.secure || tg.websocket || isLocalName(strings.ToLower(host))) {
		t.Fatalf("admitted %q without the opt-in", raw)
	}
}

// FuzzSSEBound checks the streaming SSE counter and line-ending normaliser
// against whole-input references, whatever the read boundaries: the bound
// fires exactly when the reference says; the counter sees exactly the event
// boundaries of the reference parser, which are exactly the blank lines the
// SDK's LF-only scanner finds in the normalised output; and the output is
// the reference normalisation. The seed corpus is testdata/fuzz/FuzzSSEBound.
func FuzzSSEBound(f *testing.F) {
	f.Add([]byte("data: x\r\n\r\ndata: y\n\n"), uint16(8), uint64(1))
	f.Add([]byte("data: x\r\rdata: y\r\n"), uint16(5), uint64(2))
	f.Add([]byte("data: x\r\r\n\ndata: y\n\r\r\n"), uint16(300), uint64(3))
	f.Fuzz(func(t *testing.T, data []byte, limit16 uint16, seed uint64) {
		limit := int64(limit16%512) + 1
		want := referenceOver(data, limit)
		wantEvents := referenceEvents(data)
		norm := referenceNormalize(data)
		if got := lfBlankLines(norm); got != wantEvents {
			t.Fatalf("normalised output has %d blank lines, the reference %d events (%q)", got, wantEvents, data)
		}

		whole := &sseCounter{limit: limit}
		if got := whole.feed(data); got != want {
			t.Fatalf("whole input: over=%v, reference %v (limit %d, %q)", got, want, limit, data)
		}
		unbounded := &sseCounter{limit: int64(len(data)) + 1}
		if unbounded.feed(data) || unbounded.events != wantEvents {
			t.Fatalf("whole input: %d event boundaries, reference %d (%q)", unbounded.events, wantEvents, data)
		}
		rng := rand.New(rand.NewPCG(seed, seed>>1|1))
		var sizes []int
		for range len(data) + 1 {
			sizes = append(sizes, 1+rng.IntN(17))
		}
		out, over := readBoundedOut(&chunked{data: bytes.Clone(data), sizes: slices.Clone(sizes)}, "text/event-stream", limit)
		if over != want {
			t.Fatalf("chunked %v: over=%v, reference %v (limit %d, %q)", sizes, over, want, limit, data)
		}
		if !over && !bytes.Equal(out, norm) {
			t.Fatalf("chunked %v: passed %q, want %q", sizes, out, norm)
		}
		if out, _ := readBoundedOut(&chunked{data: bytes.Clone(data), sizes: sizes}, "text/event-stream", int64(len(data))+1); !bytes.Equal(out, norm) {
			t.Fatalf("chunked %v, unbounded: passed %q, want %q", sizes, out, norm)
		}
		split := &sseCounter{limit: int64(len(data)) + 1}
		for rest, i := data, 0; len(rest) > 0; i++ {
			k := min(sizes[i], len(rest))
			split.feed(rest[:k])
			rest = rest[k:]
		}
		if split.events != wantEvents {
			t.Fatalf("chunked %v: %d event boundaries, reference %d", sizes, split.events, wantEvents)
		}
		byByte := &sseCounter{limit: limit}
		o := false
		for i := range data {
			if byByte.feed(data[i : i+1]) {
				o = true
				break
			}
		}
		if o != want {
			t.Fatalf("byte by byte: over=%v, reference %v", o, want)
		}
		if want {
			// Over the bound is sticky and typed.
			if _, over := readBoundedOut(bytes.NewReader(data), "text/event-stream", limit); !over {
				t.Fatalf("over the bound without the typed error")
			}
		}
	})
}

// referenceEvents counts the event boundaries of the whole input by the
// event-stream format's rule: a blank line (a line ending at the start of a line, where
// \r\n, \r and \n are each one line ending) ends an event.
func referenceEvents(data []byte) int64 {
	var n int64
	atLineStart := true
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c != '\r' && c != '\n' {
			atLineStart = false
			continue
		}
		if c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		if atLineStart {
			n++
		}
		atLineStart = true
	}
	return n
}

// lfBlankLines counts the blank lines an LF-only scanner (the SDK's) finds.
func lfBlankLines(data []byte) int64 {
	var n int64
	for i, c := range data {
		if c == '\n' && (i == 0 || data[i-1] == '\n') {
			n++
		}
	}
	return n
}

// referenceOver is the event-stream rule on the whole input at once: line endings
// are \r\n, \r or \n (a \r\n is one); a blank line ends an event; an event's
// bytes, line endings included, must not exceed the limit.
func referenceOver(data []byte, limit int64) bool {
	var n int64
	atLineStart := true
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c != '\r' && c != '\n' {
			n++
			atLineStart = false
			if n > limit {
				return true
			}
			continue
		}
		n++
		if c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			n++
			i++
		}
		if n > limit {
			return true
		}
		if atLineStart {
			n = 0
		}
		atLineStart = true
	}
	return false
}
