package clipboard

import (
	"encoding/base64"
	"strings"
	"testing"
	"unicode/utf8"
)

func payload(t *testing.T, c *Clip) string {
	t.Helper()
	p := strings.TrimSuffix(strings.TrimPrefix(c.OSC52, "\x1b]52;c;"), "\x07")
	b, err := base64.StdEncoding.DecodeString(p)
	if err != nil {
		t.Fatalf("the sequence %q: %v", c.OSC52, err)
	}
	return string(b)
}

// What is put is sanitized, bounded on a rune boundary (the cut said),
// and only its own copy's SentMsg takes it off the frames.
func TestPutSanitizesBoundsAndExpiresByCopy(t *testing.T) {
	var c Clip
	sent, cut := c.Put("ok\x1b]52;c;AAAA\x07 done")
	if cut || strings.ContainsAny(sent, "\x1b\x07") || payload(t, &c) != sent || !strings.Contains(sent, "done") {
		t.Fatalf("Put = %q cut %t, payload %q", sent, cut, payload(t, &c))
	}
	first := c.Seq
	sent, cut = c.Put(strings.Repeat("é", Max))
	if !cut || len(sent) > Max || !utf8.ValidString(sent) {
		t.Fatalf("a long text: %d bytes, cut %t, valid %t", len(sent), cut, utf8.ValidString(sent))
	}
	c.Expire(SentMsg{Seq: first})
	if c.OSC52 == "" {
		t.Fatal("an earlier copy's timer took a later copy off the frames")
	}
	c.Expire(SentMsg{Seq: c.Seq})
	if c.OSC52 != "" {
		t.Fatal("the copy's own timer left it on the frames")
	}
}
