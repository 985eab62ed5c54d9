package shellcmd

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/relavium/relavium/tui/render"
)

// The copy fallback never breaks inside a flag: at any width, every line
// fits, a flag starts its value's line, and the lines a person selects
// are, to a real shell, the very words of the command — a value longer
// than a line included (cut with a backslash outside the quotes).
func TestShellLinesAreTheCommandAtEveryWidth(t *testing.T) {
	words := []string{"relavium", "--agent", "ops", "mcp", "call", "mcp_demo_echo",
		"--args", `{"message":"a long message with spaces, it's quoted, and ünïcode — ` + strings.Repeat("x", 90) + `"}`,
		"--yes", "--allow-mcp-stdio", "v1:" + strings.Repeat("0123456789abcdef", 4)}
	for _, w := range []int{24, 40, 52, 74, 104} {
		lines := Lines(words, w)
		for _, l := range lines {
			if render.Width(l) > w {
				t.Fatalf("width %d: a line is %d cells: %q", w, render.Width(l), l)
			}
			if f := strings.Fields(strings.TrimSuffix(l, " \\")); len(f) > 0 && strings.HasPrefix(f[len(f)-1], "--") && f[len(f)-1] != "--yes" {
				t.Fatalf("width %d: a flag is parted from its value: %q", w, lines)
			}
		}
		script := "set -- " + strings.Join(lines, "\n") + "\nfor a; do printf '%s\\0' \"$a\"; done\n"
		out, err := exec.Command("sh", "-c", script).Output()
		if err != nil {
			t.Fatalf("width %d: sh: %v\n%s", w, err, strings.Join(lines, "\n"))
		}
		if got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00"); strings.Join(got, "\x00") != strings.Join(words, "\x00") {
			t.Fatalf("width %d: the shell reads %q\nfrom\n%s", w, got, strings.Join(lines, "\n"))
		}
		if one := Command(words); !bytes.Equal([]byte(strings.Join(lines, "")), []byte(one)) && len(lines) == 1 {
			t.Fatalf("width %d: one line differs from the command: %q", w, lines[0])
		}
	}
}
