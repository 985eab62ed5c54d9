package invoke_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/relavium/relavium/gates/lock"
	"github.com/relavium/relavium/internal/testbin"
	"github.com/relavium/relavium/invoke"
)

// complete runs the generated bash function in a real bash on words (the
// last one is the word under the cursor) and returns what it offers.
func complete(t *testing.T, bin, dir string, words ...string) []string {
	t.Helper()
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + w + "'"
	}
	script := `source <("$BIN" completion bash) || exit 9
COMP_WORDS=("$BIN" ` + strings.Join(q, " ") + `); COMP_CWORD=` + strconv.Itoa(len(words)) + `
_relavium; echo "${COMPREPLY[@]}"`
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "BIN="+bin, "RELAVIUM_HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	return strings.Fields(string(out))
}

func TestCompletionBashCompletesInARealBash(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal("bash must exist on the test machine")
	}
	bin := testbin.Relavium(t)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".relavium"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The server would leave a marker if anything spawned it: completion
	// reads the config and the lock, and never starts a server.
	marker := filepath.Join(dir, "spawned")
	cfg := fmt.Sprintf("[[mcp_servers]]\nname = \"fsx\"\ntransport = \"stdio\"\ncommand = \"touch\"\nargs = [%q]\n", marker)
	if err := os.WriteFile(filepath.Join(dir, ".relavium", "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(complete(t, bin, dir, "mcp", "call", ""), " "); got != "" {
		t.Errorf("without a lock, mcp call completes %q: tools are known only from the lock", got)
	}
	def := []byte(`{"name":"read"}`)
	locked := &lock.File{V: lock.Version, Servers: []lock.Server{
		{Name: "fsx", Transport: "stdio", Protocol: "2025-11-25", Capabilities: []byte(`{}`),
			Tools: []lock.Item{{Name: "read", Digest: lock.Digest(def), Def: def}}},
		{Name: "gone", Transport: "stdio", Protocol: "2025-11-25", Capabilities: []byte(`{}`),
			Tools: []lock.Item{{Name: "x", Digest: lock.Digest(def), Def: def}}},
	}}
	if err := lock.Write(filepath.Join(dir, lock.FileName), locked); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		words []string
		want  string
	}{
		{[]string{"mc"}, "mcp"},
		{[]string{"mcp", "li"}, "lint"},
		{[]string{"mcp", "lint", "--format", ""}, "human sarif"},
		{[]string{"--th"}, "--theme"},
		{[]string{"completion", ""}, "bash zsh fish"},
		{[]string{"mcp", "read", ""}, "fsx"},
		{[]string{"mcp", "tasks", "--json", ""}, "fsx"},
		{[]string{"mcp", "bench", "--server", ""}, "fsx"},
		{[]string{"mcp", "call", ""}, "mcp_fsx_read"}, // a locked server no longer declared is not offered
	}
	for _, c := range cases {
		if got := strings.Join(complete(t, bin, dir, c.words...), " "); got != c.want {
			t.Errorf("completing %q: %q, want %q", c.words, got, c.want)
		}
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Errorf("completion started the declared server (%s: %v)", marker, err)
	}
}

func TestCompletionOtherShellsParse(t *testing.T) {
	bin := testbin.Relavium(t)
	for _, sh := range []struct{ shell, check string }{{"zsh", "zsh -n"}, {"fish", "fish --no-execute"}} {
		if _, err := exec.LookPath(sh.shell); err != nil {
			t.Logf("%s is not installed here: its script is not parsed (bash is)", sh.shell)
			continue
		}
		f := filepath.Join(t.TempDir(), "c")
		out, err := exec.Command(bin, "completion", sh.shell).Output()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, out, 0o600); err != nil {
			t.Fatal(err)
		}
		args := strings.Fields(sh.check)
		if o, err := exec.Command(args[0], append(args[1:], f)...).CombinedOutput(); err != nil {
			t.Errorf("%s does not parse its script: %v\n%s", sh.shell, err, o)
		}
	}
}

func TestCompletionAndManNameEveryCommand(t *testing.T) {
	bin := testbin.Relavium(t)
	bashOut, err := exec.Command(bin, "completion", "bash").Output()
	if err != nil {
		t.Fatal(err)
	}
	manOut, err := exec.Command(bin, "man").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range invoke.Commands().Commands {
		if c.Hidden {
			continue
		}
		leaf := c.Path[len(c.Path)-1]
		if !strings.Contains(string(bashOut), leaf) {
			t.Errorf("the bash script lacks %q", c.Name())
		}
		if c.Run != nil && !strings.Contains(string(manOut), `\fBrelavium `+strings.ReplaceAll(c.Name(), "-", `\-`)+`\fR`) {
			t.Errorf("the man page lacks %q", c.Name())
		}
	}
	if groff, err := exec.LookPath("groff"); err == nil {
		cmd := exec.Command(groff, "-man", "-Tutf8", "-ww")
		cmd.Stdin = strings.NewReader(string(manOut))
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "EXIT STATUS") && !strings.Contains(string(out), "E\bEX") {
			t.Errorf("groff: %v\n%s", err, out)
		}
		if strings.Contains(string(out), "warning") {
			t.Errorf("groff warns:\n%s", out)
		}
	} else {
		t.Log("groff is not installed here: the page is not rendered")
	}
}
