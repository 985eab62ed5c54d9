package consent

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

type readLine struct {
	text     string
	no       int
	complete bool
	tooLong  bool
}

// readAll drains a lineReader over input with cap max, going on past
// over-long lines.
func readAll(t *testing.T, r io.Reader, max int) []readLine {
	t.Helper()
	lr := newLineReader(r, max)
	var out []readLine
	for {
		line, err := lr.next()
		switch {
		case errors.Is(err, io.EOF):
			return out
		case errors.Is(err, errLineTooLong):
			out = append(out, readLine{no: lr.line(), tooLong: true})
		case err != nil:
			t.Fatalf("next: %v", err)
		default:
			if len(line) > max {
				t.Fatalf("line %d of %d bytes returned past the %d cap", lr.line(), len(line), max)
			}
			out = append(out, readLine{text: string(line), no: lr.line(), complete: lr.lastComplete()})
		}
	}
}

func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", lineReadBuffer*3+7) // spans several bufio fills
	for _, tc := range []struct {
		name  string
		in    string
		max   int
		wants []readLine
	}{
		{"empty", "", 10, nil},
		{"one line", "abc\n", 10, []readLine{{"abc", 1, true, false}}},
		{"no final newline", "abc\nde", 10, []readLine{{"abc", 1, true, false}, {"de", 2, false, false}}},
		{"blank lines are lines", "\n\na\n", 10, []readLine{{"", 1, true, false}, {"", 2, true, false}, {"a", 3, true, false}}},
		{"exactly the cap", "0123456789\n", 10, []readLine{{"0123456789", 1, true, false}}},
		{"one over the cap, then on", "0123456789X\nok\n", 10, []readLine{{no: 1, tooLong: true}, {"ok", 2, true, false}}},
		{"over the cap at the end, no newline", "a\n0123456789X", 10, []readLine{{"a", 1, true, false}, {no: 2, tooLong: true}}},
		{"CR is content", "a\r\n", 10, []readLine{{"a\r", 1, true, false}}},
		{"long line within the cap", long + "\nz\n", len(long), []readLine{{long, 1, true, false}, {"z", 2, true, false}}},
		{"long line over the cap", "a\n" + long + "\nz\n", len(long) - 1, []readLine{{"a", 1, true, false}, {no: 2, tooLong: true}, {"z", 3, true, false}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tc.in), iotest.OneByteReader(strings.NewReader(tc.in)), iotest.HalfReader(strings.NewReader(tc.in))} {
				got := readAll(t, r, tc.max)
				if len(got) != len(tc.wants) {
					t.Fatalf("%d lines, want %d: %+v", len(got), len(tc.wants), got)
				}
				for i := range got {
					if got[i] != tc.wants[i] {
						t.Fatalf("line %d: %+v, want %+v", i+1, got[i], tc.wants[i])
					}
				}
			}
		})
	}
}

func TestLineReaderPassesReadErrors(t *testing.T) {
	boom := errors.New("disk on fire")
	err := readLines(io.MultiReader(strings.NewReader("a\nb"), iotest.ErrReader(boom)), 10, func([]byte, int, bool) error { return nil })
	if !isReadError(err) || !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the read error, marked", err)
	}
	stop := errors.New("caller stops")
	err = readLines(strings.NewReader("a\nb\n"), 10, func([]byte, int, bool) error { return stop })
	if err != stop || isReadError(err) {
		t.Fatalf("err = %v, want the caller's error unchanged", err)
	}
}

// FuzzLineReader checks the reader against splitting the whole input: the
// same lines, numbers and completeness, over-long ones refused and skipped,
// whatever the input and however the underlying reader splits it.
func FuzzLineReader(f *testing.F) {
	for _, s := range []string{"", "\n", "a\nb", "abcdefghijkl\nx\n", "\r\n\r\n", "0123456789\n0123456789X"} {
		f.Add([]byte(s), uint8(10), false)
	}
	f.Fuzz(func(t *testing.T, in []byte, max uint8, oneByte bool) {
		var want []readLine
		rest := in
		for no := 1; len(rest) > 0; no++ {
			line, after, found := bytes.Cut(rest, []byte{'\n'})
			rest = after
			if len(line) > int(max) {
				want = append(want, readLine{no: no, tooLong: true})
				continue
			}
			want = append(want, readLine{text: string(line), no: no, complete: found})
		}
		var r io.Reader = bytes.NewReader(in)
		if oneByte {
			r = iotest.OneByteReader(r)
		}
		got := readAll(t, r, int(max))
		if len(got) != len(want) {
			t.Fatalf("%d lines, want %d", len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("line %d: %+v, want %+v", i+1, got[i], want[i])
			}
		}
	})
}
