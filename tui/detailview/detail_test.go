package detailview

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/dialog"
)

// A template's details name its server and the variables it fills, and
// server text reaches the lines sanitized and marked as the server's.
func TestTemplateDetailsSanitizedAndMarked(t *testing.T) {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	p, _ := themes.ByName(themes.Mono)
	st := themes.NewStyles(r, p)
	d := Template("files", host.ResourceTemplate{Name: "doc", URITemplate: "file:///{path}", Description: "reads\x1b]52;c;AAAA\x07 a file"}, []string{"path"})
	text := strings.Join(d.(*dialog.Text).Lines(st, 60), "\n")
	for _, want := range []string{"files", "fills", "path", "file:///{path}", "reads"} {
		if !strings.Contains(text, want) {
			t.Fatalf("template details lack %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "\x1b]52") || strings.Contains(text, "\x07") {
		t.Fatalf("server text reached the lines raw:\n%q", text)
	}
	if !strings.Contains(text, "files") || strings.Count(text, "(no description)") != 0 {
		t.Fatalf("description not shown:\n%s", text)
	}
}
