package invoke

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/internal/testbin"
)

// The harness of the `relavium run` end-to-end tests (cmd_run_test.go): the
// real binary, a real project (testdata/workflows/project) and the embedded
// demo server as a real stdio child, no TTY (pipes) unless tmux is used.

type runE2E struct {
	bin, home, project string
}

// newE2E builds the binary and copies the fixture project into a temp dir,
// registering the demo server (this very binary, `demo-server`) as "demo".
func newE2E(t *testing.T) *runE2E {
	t.Helper()
	dir := t.TempDir()
	bin := testbin.Relavium(t)
	e := &runE2E{bin: bin, home: filepath.Join(dir, "home"), project: filepath.Join(dir, "project")}
	if err := os.MkdirAll(e.home, 0o700); err != nil {
		t.Fatal(err)
	}
	copyTree(t, filepath.Join("..", "testdata", "workflows", "project"), e.project)
	e.writeConfig(t, "")
	return e
}

func (e *runE2E) writeConfig(t *testing.T, extraArg string) {
	t.Helper()
	args := `["demo-server"]`
	if extraArg != "" {
		args = fmt.Sprintf(`["demo-server", %q]`, extraArg)
	}
	cfg := fmt.Sprintf("[[mcp_servers]]\nname = \"demo\"\ntransport = \"stdio\"\ncommand = %q\nargs = %s\n", e.bin, args)
	if err := os.WriteFile(filepath.Join(e.project, ".relavium", "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (e *runE2E) cmd(ctx context.Context, args ...string) *exec.Cmd {
	c := exec.CommandContext(ctx, e.bin, append([]string{"--project", e.project}, args...)...)
	c.Env = []string{"RELAVIUM_HOME=" + e.home, "PATH=" + os.Getenv("PATH"), "HOME=" + e.home}
	c.Dir = e.project
	return c
}

type runOutcome struct {
	stdout, stderr string
	code           int
}

func (e *runE2E) run(t testing.TB, args ...string) runOutcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	c := e.cmd(ctx, args...)
	var so, se bytes.Buffer
	c.Stdout, c.Stderr = &so, &se
	err := c.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("relavium %v: %v", args, err)
	}
	return runOutcome{so.String(), se.String(), code}
}

// envelope decodes exactly one JSON document from stdout.
func runEnvelope(t *testing.T, o runOutcome) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(o.stdout))
	var env map[string]any
	if err := dec.Decode(&env); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\nstdout: %s\nstderr: %s", err, o.stdout, o.stderr)
	}
	if dec.More() {
		t.Fatalf("stdout holds more than one JSON document: %s", o.stdout)
	}
	return env
}

func runErrCode(env map[string]any) fault.Code {
	e, _ := env["error"].(map[string]any)
	s, _ := e["code"].(string)
	return fault.Code(s)
}

func runData(env map[string]any) map[string]any {
	d, _ := env["data"].(map[string]any)
	return d
}

// ndjson decodes every stdout line as one event.
func runNDJSON(t *testing.T, stdout string) []map[string]any {
	t.Helper()
	var out []map[string]any
	var prev float64
	for _, line := range strings.Split(strings.TrimRight(stdout, "\n"), "\n") {
		if line == "" {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("not an NDJSON event: %q (%v)", line, err)
		}
		seq, _ := ev["seq"].(float64)
		if seq <= prev {
			t.Fatalf("seq %v after %v", seq, prev)
		}
		prev = seq
		out = append(out, ev)
	}
	if len(out) == 0 {
		t.Fatalf("no events on stdout")
	}
	return out
}

func runTypesOf(evs []map[string]any) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e["type"].(string))
	}
	return out
}

// digest reads the demo server's consent digest from `consent digest
// --json`, and checks that the plan form names the same one.
func (e *runE2E) digest(t *testing.T) string {
	t.Helper()
	o := e.run(t, "consent", "digest", "--json")
	servers, _ := runData(runEnvelope(t, o))["servers"].([]any)
	if o.code != 0 || len(servers) != 1 {
		t.Fatalf("consent digest: exit %d %s\n%s", o.code, o.stdout, o.stderr)
	}
	d, _ := servers[0].(map[string]any)["digest"].(string)
	o = e.run(t, "run", "greet", "--plan", "--json", "--input", "name=x")
	ds, _ := runData(runEnvelope(t, o))["digests"].([]any)
	if o.code != 0 || len(ds) != 1 || ds[0] != d {
		t.Fatalf("the plan's digests %v are not consent's %s (exit %d)\n%s", ds, d, o.code, o.stderr)
	}
	return d
}
