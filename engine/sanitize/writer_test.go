package sanitize

import (
	"bytes"
	"errors"
	"testing"
)

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	if NewWriter(w) != w {
		t.Fatal("NewWriter wrapped a Writer twice")
	}
	in := "ok\x1b]52;c;Y3VybA==\x07 \u009b2J\u202eevil\u202c\U000e0041\tend\n"
	n, err := w.Write([]byte(in))
	if err != nil || n != len(in) {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(in))
	}
	// A sequence split across writes loses its introducer: the rest is
	// inert text, never a control.
	_, _ = w.Write([]byte("a\x1b"))
	_, _ = w.Write([]byte("[2Jb\n"))
	if got, want := b.String(), "ok evil end\na[2Jb\n"; got != want {
		t.Fatalf("wrote %q, want %q", got, want)
	}
}

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errors.New("closed") }

func TestWriterError(t *testing.T) {
	if n, err := NewWriter(failing{}).Write([]byte("x")); err == nil || n != 0 {
		t.Fatalf("Write = %d, %v; want the error", n, err)
	}
}
