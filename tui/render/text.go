package render

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/relavium/relavium/engine/sanitize"
)

// Every string a server wrote goes through sanitize before it is drawn
// (escape sequences, bidi and invisible characters removed), and every
// line of a frame is cut and padded to its exact width, so no content can
// wrap, scroll or break the frame.

// ServerLine cleans server text for a one-line slot.
func ServerLine(s string) string { return sanitize.Line(s) }

// FirstLine is the first line of server text, cleaned.
func FirstLine(s string) string {
	s, _, _ = strings.Cut(ServerLine(s), "\n")
	return s
}

// LogData is a log notification's data on one line: a JSON string as its
// text, anything else as compact JSON; always cleaned.
func LogData(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return ServerLine(s)
	}
	return ServerLine(strings.TrimSpace(string(raw)))
}

// ServerText cleans multi-line server text.
func ServerText(s string) string { return sanitize.Text(s) }

// Width is the display width of a (possibly styled) string.
func Width(s string) int { return ansi.StringWidth(s) }

// Fit cuts s to w cells (with an ellipsis when cut) and pads it to exactly w.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := Width(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = Width(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// Cut cuts s to at most w cells without padding.
func Cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if Width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// Wrap word-wraps s (already clean) to w cells, breaking words longer than
// w, and returns its lines. Nothing is dropped.
func Wrap(s string, w int) []string {
	if w < 1 {
		w = 1
	}
	if len(s) <= w && !strings.ContainsAny(s, "\n\x1b") {
		return []string{s} // fits: no rune takes more cells than bytes
	}
	return strings.Split(ansi.Wrap(s, w, ""), "\n")
}

// WrapIndent wraps s to w cells with every line after the first indented.
func WrapIndent(s string, w int, indent string) []string {
	lines := Wrap(s, max(1, w-Width(indent)))
	for i := range lines {
		if i > 0 {
			lines[i] = indent + lines[i]
		}
	}
	return lines
}

// PadLines makes lines exactly h long (cutting or adding blank lines) and
// every line exactly w cells.
func PadLines(lines []string, w, h int) []string {
	out := make([]string, h)
	blank := strings.Repeat(" ", max(0, w))
	for i := range out {
		if i < len(lines) {
			out[i] = Fit(lines[i], w)
		} else {
			out[i] = blank
		}
	}
	return out
}

// StyledWrap wraps plain text and styles each line (styling per line
// keeps every frame line self-contained).
func StyledWrap(style lipgloss.Style, text string, w int) []string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		for _, l := range Wrap(para, w) {
			out = append(out, style.Render(l))
		}
	}
	return out
}

// HumanBytes renders a size for a person.
func HumanBytes(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1024*1024))
}

// HumanDuration renders an elapsed time: 412ms, 3.2s, 1m05s.
func HumanDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// SpaceBetween puts left and right on one line of w cells, cutting left
// when both do not fit.
func SpaceBetween(left, right string, w int) string {
	rw := Width(right)
	if rw >= w {
		return Fit(right, w)
	}
	return Fit(Cut(left, w-rw-1), w-rw) + right
}

// SplitLines splits text into lines (one empty line for empty text).
func SplitLines(s string) []string { return strings.Split(s, "\n") }

// StripANSI removes escape sequences (to restyle a line as a whole).
func StripANSI(s string) string { return ansi.Strip(s) }

// WrapPath wraps a path or command line (already clean) to w cells,
// breaking only after a '/' or a space, so a path is never cut at a hyphen
// or a dot; a segment longer than w is cut at w. Nothing is dropped.
func WrapPath(s string, w int) []string {
	if w < 1 {
		w = 1
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		line, lineW := "", 0
		for _, seg := range pathSegments(para) {
			sw := Width(seg)
			if lineW+sw <= w {
				line, lineW = line+seg, lineW+sw
				continue
			}
			if line != "" {
				out = append(out, strings.TrimRight(line, " "))
				line, lineW = "", 0
			}
			for sw > w { // a segment longer than the line: cut it
				head := ansi.Truncate(seg, w, "")
				if head == "" { // a rune wider than the line: it goes alone
					_, n := utf8.DecodeRuneInString(seg)
					head = seg[:n]
				}
				out = append(out, head)
				seg = seg[len(head):]
				sw = Width(seg)
			}
			line, lineW = seg, sw
		}
		out = append(out, strings.TrimRight(line, " "))
	}
	return out
}

// pathSegments splits s after every '/' and every space.
func pathSegments(s string) []string {
	var segs []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '/' || s[i] == ' ' {
			segs = append(segs, s[start:i+1])
			start = i + 1
		}
	}
	if start < len(s) {
		segs = append(segs, s[start:])
	}
	return segs
}

// Counted is "1 server" or "n servers".
func Counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
