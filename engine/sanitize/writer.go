package sanitize

import "io"

// Writer cleans everything written through it with Text before it reaches
// w: the last line of defence for human output (a result, an error, a
// progress line), so a server string that a caller forgot to clean still
// cannot reach a terminal, a pipe or a file raw. Each Write is cleaned on
// its own: callers write whole lines or documents (a sequence split across
// two writes loses its introducer and prints as inert text; a rune split
// across two writes would print as U+FFFD). Write reports len(p) on
// success, as io.Writer requires, whatever was dropped.
type Writer struct{ W io.Writer }

// NewWriter returns a Writer over w; a Writer is returned as it is.
func NewWriter(w io.Writer) io.Writer {
	if _, ok := w.(*Writer); ok {
		return w
	}
	return &Writer{W: w}
}

func (s *Writer) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.W, Text(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
