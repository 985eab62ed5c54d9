package netguard

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// chunked is a reader that hands out its data in the given chunk sizes (the
// last size repeats), so a test decides exactly where reads split.
type chunked struct {
	data  []byte
	sizes []int
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := c.sizes[0]
	if len(c.sizes) > 1 {
		c.sizes = c.sizes[1:]
	}
	n = min(n, len(p), len(c.data))
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// readBounded drains r through a bounded body and reports whether the bound
// fired and how many bytes came through (after line-ending normalisation on
// an event stream: see wantOut).
func readBounded(r io.Reader, contentType string, limit int64) (over bool, got int) {
	out, over := readBoundedOut(r, contentType, limit)
	return over, len(out)
}

// readBoundedOut is readBounded returning the bytes that came through.
func readBoundedOut(r io.Reader, contentType string, limit int64) ([]byte, bool) {
	tg := &Target{shown: "http://x/", host: hostForm{name: "x"}, port: 80}
	b := newBoundedBody(io.NopCloser(r), contentType, limit,
		func() error { return tg.note(context.Background(), boundRefusal(tg, contentType, limit)) },
		func() error { return tg.note(context.Background(), depthRefusal(tg)) })
	data, err := io.ReadAll(b)
	if err != nil {
		r, ok := AsRefusal(err)
		if !ok || r.Code() != CodeMessageBound {
			panic("unexpected error: " + err.Error())
		}
		return data, true
	}
	return data, false
}

// wantOut is what a bounded body passes on for data that stays within the
// bound: an event stream with every line ending spelled LF, anything else
// unchanged.
func wantOut(contentType string, data []byte) []byte {
	if _, ok := newCounter(contentType, 1).(*sseCounter); !ok {
		return data
	}
	return referenceNormalize(data)
}

// referenceNormalize is the event-stream line-ending rule on the whole input: a
// CRLF, a lone CR and a lone LF are each one line ending, written LF.
func referenceNormalize(data []byte) []byte {
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	return []byte(strings.ReplaceAll(s, "\r", "\n"))
}

// splits returns readers over data that split it in every way the tests care
// about: whole, one byte at a time, two and three bytes, and at every single
// position.
func splits(data []byte) map[string]func() io.Reader {
	m := map[string]func() io.Reader{
		"whole":    func() io.Reader { return bytes.NewReader(data) },
		"one-byte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(data)) },
		"two-byte": func() io.Reader { return &chunked{data: data, sizes: []int{2}} },
		"three":    func() io.Reader { return &chunked{data: data, sizes: []int{3}} },
	}
	for i := 1; i < len(data) && i < 64; i++ {
		at := i
		m["split@"+strconv.Itoa(at)] = func() io.Reader { return &chunked{data: data, sizes: []int{at, len(data)}} }
	}
	return m
}

var eol = map[string]string{"LF": "\n", "CRLF": "\r\n", "CR": "\r"}

// event builds one SSE event with the given line ending, exactly size bytes
// long including its terminating blank line.
func event(nl string, size int) string {
	head := "data: "
	tail := nl + nl
	return head + strings.Repeat("x", size-len(head)-len(tail)) + tail
}

func TestSSEBoundResetsAtEveryBoundarySpelling(t *testing.T) {
	const limit = 32
	for name, nl := range eol {
		t.Run(name, func(t *testing.T) {
			// Ten events of exactly the limit: far more than the limit in total,
			// each within it.
			stream := []byte(strings.Repeat(event(nl, limit), 10))
			want := strings.Repeat(event("\n", limit-2*(len(nl)-1)), 10)
			for how, r := range splits(stream) {
				if got, over := readBoundedOut(r(), "text/event-stream", limit); over || string(got) != want {
					t.Fatalf("%s: over=%v got %q, want the whole stream with LF endings", how, over, got)
				}
			}
			// One byte more in the third event is over the bound.
			bad := []byte(strings.Repeat(event(nl, limit), 2) + event(nl, limit+1) + event(nl, limit))
			for how, r := range splits(bad) {
				if over, _ := readBounded(r(), "text/event-stream", limit); !over {
					t.Fatalf("%s: a %d-byte event passed a %d-byte bound", how, limit+1, limit)
				}
			}
		})
	}
}

func TestSSEBoundCountsLineEndingsAndComments(t *testing.T) {
	const limit = 16
	// A comment line (7), a field line (7) and the blank line (2): 16 bytes,
	// exactly the bound, line endings included.
	at := ": kal\r\nid: 1\r\n\r\n"
	if len(at) != limit {
		t.Fatalf("fixture is %d bytes", len(at))
	}
	if over, _ := readBounded(strings.NewReader(at+at+at), "text/event-stream", limit); over {
		t.Fatal("an event of exactly the bound was refused")
	}
	over := ": kall\r\nid: 1\r\n\r\n"
	if o, _ := readBounded(strings.NewReader(over), "text/event-stream", limit); !o {
		t.Fatal("an event one byte over the bound, counting its CRLFs, passed")
	}
}

func TestSSECRLFSplitAcrossReadsIsOneLineEnding(t *testing.T) {
	const limit = 64
	// "x\r\n" lines with no blank line are one ever-growing event. Were the
	// \r and \n of a split CRLF two line endings, each \n would look like a
	// blank line and reset the counter.
	stream := []byte(strings.Repeat("data: x\r\n", 20))
	for how, r := range splits(stream) {
		if over, _ := readBounded(r(), "text/event-stream", limit); !over {
			t.Fatalf("%s: CRLF-terminated lines without a blank line reset the counter", how)
		}
	}
	// Split exactly between \r and \n at every line, the blank line included.
	parts := []int{}
	for _, line := range []string{"data: x\r", "\n", "\r", "\n"} {
		parts = append(parts, len(line))
	}
	two := []byte(strings.Repeat("data: x\r\n\r\n", 30))
	sizes := []int{}
	for range 30 {
		sizes = append(sizes, parts...)
	}
	if over, got := readBounded(&chunked{data: two, sizes: sizes}, "text/event-stream", 11); over || got != len(two)-60 {
		t.Fatalf("split CRLF blank lines: over=%v got=%d want %d", over, got, len(two)-60)
	}
}

func TestSSELoneCRThenLFIsNotTwoBlankLines(t *testing.T) {
	// "\r" ends a content line; the "\n" after it (next read) is the same
	// ending, not a blank line: the event continues and is counted whole.
	const limit = 20
	stream := "data: 0123456789\r" + "\n" + "data: more\r\n\r\n"
	if over, _ := readBounded(&chunked{data: []byte(stream), sizes: []int{17, 1, 100}}, "text/event-stream", limit); !over {
		t.Fatal("a CR|LF split across reads was taken for a boundary")
	}
}

func TestNonSSEBodyIsOneMessage(t *testing.T) {
	const limit = 64
	// JSON padded with whitespace and blank lines: no framing, no reset.
	padded := []byte("{" + strings.Repeat("\n\n\r\n\r\n  ", 20) + "}")
	for _, ct := range []string{"application/json", "", "text/plain", "application/json; charset=utf-8", "text/event-streamx"} {
		for how, r := range splits(padded) {
			if over, _ := readBounded(r(), ct, limit); !over {
				t.Fatalf("%q %s: a padded %d-byte body passed a %d-byte bound", ct, how, len(padded), limit)
			}
		}
	}
	exact := bytes.Repeat([]byte{' '}, limit)
	if over, got := readBounded(bytes.NewReader(exact), "application/json", limit); over || got != limit {
		t.Fatalf("a body of exactly the bound: over=%v got=%d", over, got)
	}
}

func TestContentTypeSpellings(t *testing.T) {
	for _, ct := range []string{"text/event-stream", "Text/Event-Stream", "text/event-stream; charset=utf-8", "TEXT/EVENT-STREAM;charset=UTF-8"} {
		if _, ok := newCounter(ct, 1).(*sseCounter); !ok {
			t.Errorf("%q is not counted per event", ct)
		}
	}
}

func TestBoundErrorIsStickyAndReturnsNoBytes(t *testing.T) {
	tg := &Target{shown: "http://x/", host: hostForm{name: "x"}, port: 80}
	b := newBoundedBody(io.NopCloser(strings.NewReader(strings.Repeat("a", 100))), "application/json", 10,
		func() error { return tg.note(context.Background(), boundRefusal(tg, "application/json", 10)) },
		func() error { return tg.note(context.Background(), depthRefusal(tg)) })
	buf := make([]byte, 64)
	n, err := b.Read(buf)
	if n != 0 || err == nil {
		t.Fatalf("first read over the bound: n=%d err=%v", n, err)
	}
	n2, err2 := b.Read(buf)
	if n2 != 0 || err2 != err {
		t.Fatalf("second read: n=%d err=%v, want the same error", n2, err2)
	}
	if tg.Refusal() == nil || tg.Refusal().Code() != CodeMessageBound {
		t.Fatalf("target did not record the bound: %v", tg.Refusal())
	}
}

func TestMessageLimitIsFourMiB(t *testing.T) {
	if MessageLimit != 4*1024*1024 {
		t.Fatalf("MessageLimit = %d", MessageLimit)
	}
	if g := New(); g.limit != MessageLimit {
		t.Fatalf("a new guard bounds messages at %d", g.limit)
	}
}

func BenchmarkSSECounter(b *testing.B) {
	stream := []byte(strings.Repeat(event("\r\n", 64<<10), 64)) // 4 MiB of 64 KiB events
	b.SetBytes(int64(len(stream)))
	for b.Loop() {
		c := &sseCounter{limit: MessageLimit}
		if c.feed(stream) {
			b.Fatal("over")
		}
	}
}

func BenchmarkSSECounterShortLines(b *testing.B) {
	stream := []byte(strings.Repeat("data: x\r", 512<<10)) // 4 MiB of lone-CR lines, no LF at all
	b.SetBytes(int64(len(stream)))
	for b.Loop() {
		c := &sseCounter{limit: 8 * MessageLimit}
		if c.feed(stream) {
			b.Fatal("over")
		}
	}
}

// BenchmarkSSEBody is the whole read path of an event stream: the raw
// bound, the line-ending rewrite and the depth gauge, over 4 MiB of 64 KiB
// JSON events ended by CR CR.
func BenchmarkSSEBody(b *testing.B) {
	ev := "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"" + strings.Repeat("x", 64<<10-80) + "\"}]}}\r\r"
	stream := []byte(strings.Repeat(ev, 64))
	buf := make([]byte, 32<<10)
	b.SetBytes(int64(len(stream)))
	for b.Loop() {
		body := newBoundedBody(io.NopCloser(bytes.NewReader(stream)), "text/event-stream", MessageLimit,
			func() error { return io.ErrUnexpectedEOF }, func() error { return io.ErrUnexpectedEOF })
		for {
			_, err := body.Read(buf)
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}
