package resultview

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/render"
)

func monoStyles() *themes.Styles {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	p, _ := themes.ByName(themes.Mono)
	return themes.NewStyles(r, p)
}

// A result part's identity (a resource's uri, a media part's type and
// size) is wrapped at any width, never cut: only whole-frame fitting may
// clip, and a line within the pane's width is never clipped.
func TestResultPartsWrapNeverCut(t *testing.T) {
	st := monoStyles()
	uri := "test://a/very/long/resource/uri/that/does/not/fit/in/a/narrow/pane/end-marker"
	parts := []engine.Content{
		{Type: "resource", URI: uri, MIMEType: "application/json", Text: `{"a":1}`},
		{Type: "resource", URI: uri, MIMEType: "application/octet-stream", Data: make([]byte, 2048)},
		{Type: "image", MIMEType: "image/png-with-a-long-vendor-suffix", Data: make([]byte, 70)},
		{Type: "audio", MIMEType: "audio/wav", Data: make([]byte, 3000)},
	}
	for _, w := range []int{20, 28, 40} {
		for _, c := range parts {
			lines := Content(st, c, w, st.Text)
			for _, l := range lines {
				if render.Width(l) > w {
					t.Fatalf("width %d: line %q is %d cells", w, l, render.Width(l))
				}
			}
			joined := strings.ReplaceAll(strings.Join(lines, ""), " ", "")
			for _, want := range []string{strings.ReplaceAll(c.URI, " ", ""), c.MIMEType, humanBytesNoSpace(c)} {
				if !strings.Contains(joined, want) {
					t.Fatalf("width %d: %s part lost %q:\n%s", w, c.Type, want, strings.Join(lines, "\n"))
				}
			}
		}
	}
}

func humanBytesNoSpace(c engine.Content) string {
	return strings.ReplaceAll(render.HumanBytes(len(c.Data)+len(c.Text)), " ", "")
}

// A failure names its code and keeps every line of its message; a
// cancelled job says so; a step's server text is cleaned.
func TestFailureAndStep(t *testing.T) {
	st := monoStyles()
	got := strings.Join(Failure(st, false, "E1", "first\nsecond", 40), "\n")
	if !strings.Contains(got, "✗ failed E1") || !strings.Contains(got, "first") || !strings.Contains(got, "second") {
		t.Fatalf("Failure = %q", got)
	}
	if got := Failure(st, true, "", "", 40); !strings.Contains(got[0], "⊘ cancelled") {
		t.Fatalf("cancelled Failure = %q", got)
	}
	if got := strings.Join(Step(st, "s1", "fs.read\x1b[2J", "calling", 0, 40), ""); strings.Contains(got, "\x1b[2J") || !strings.Contains(got, "step s1 → fs.read") {
		t.Fatalf("Step = %q", got)
	}
}
