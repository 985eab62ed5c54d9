package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/internal/testbin"
)

// An ${input:id} that a client file does not declare is, headless, what a
// declared one is: the same consent digest (the template, never a value),
// E520 naming RELAVIUM_SECRET_<ID> when nothing holds it, the server run
// with it when the environment does — and the value, which the server
// repeats in every field it can, is never shown: not in --json, events,
// a recording, an error or a digest. The warning names the reference's
// place and says relavium asks for it as a hidden value.
func TestUndeclaredInputHeadless(t *testing.T) {
	const value = "typed-in-9d41c07e2b"
	bin := testbin.Relavium(t)
	echo := testbin.Build(t, "./testdata/servers/echosecrets")
	home, project, out := t.TempDir(), t.TempDir(), t.TempDir()
	undeclared := `{"mcpServers": {"loc": {"command": ` + jsonString(echo) + `, "args": ["API_TOKEN"],
  "env": {"API_TOKEN": "${input:stdio-token}"}}}}`
	declared := `{"inputs": [{"type": "promptString", "id": "stdio-token", "description": "the token", "password": true}],
 "servers": {"loc": {"type": "stdio", "command": ` + jsonString(echo) + `, "args": ["API_TOKEN"], "env": {"API_TOKEN": "${input:stdio-token}"}}}}`
	var shown []string
	run := func(want int, env []string, args ...string) (string, string) {
		t.Helper()
		stdout, stderr, code := runRelaviumEnv(t, bin, home, project, env, args...)
		shown = append(shown, strings.Join(args, " ")+"\n"+stdout+"\n"+stderr)
		if code != want {
			t.Fatalf("%v: exit %d, want %d\n%s\n%s", args, code, want, stdout, stderr)
		}
		return stdout, stderr
	}
	pending := func() string {
		t.Helper()
		stdout, _ := run(2, nil, "mcp", "ls", "--json")
		var data struct {
			Pending []struct{ Server, Digest string } `json:"pending"`
		}
		if err := json.Unmarshal(decodeEnvelope(t, stdout).Data, &data); err != nil || len(data.Pending) != 1 {
			t.Fatalf("pending %s (%v)", stdout, err)
		}
		return data.Pending[0].Digest
	}

	vscode := filepath.Join(project, ".vscode", "mcp.json")
	writeClientFile(t, vscode, declared)
	dDeclared := pending()
	if err := os.Remove(vscode); err != nil {
		t.Fatal(err)
	}
	writeClientFile(t, filepath.Join(project, ".mcp.json"), undeclared)
	d := pending()
	if d != dDeclared {
		t.Fatalf("the undeclared input's digest %s differs from the declared one's %s", d, dDeclared)
	}

	_, stderr := run(2, nil, "mcp", "ls", "--allow-mcp-stdio", d)
	for _, want := range []string{".mcp.json:2:24: mcpServers.loc.env.API_TOKEN", "${input:stdio-token} is not declared",
		"relavium will ask for it as a hidden value", "[E242]", "E520", "RELAVIUM_SECRET_STDIO_TOKEN"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("without the secret, stderr lacks %q:\n%s", want, stderr)
		}
	}

	env := []string{"RELAVIUM_SECRET_STDIO_TOKEN=" + value}
	ls, _ := run(0, env, "mcp", "ls", "--json", "--allow-mcp-stdio", d)
	if !strings.Contains(ls, `"state":"ready"`) || !strings.Contains(ls, "echo {{secrets.stdio-token}}") {
		t.Errorf("the server did not run with the secret, or its echo is not shown by reference: %s", ls)
	}
	call, _ := run(0, env, "mcp", "call", "mcp_loc_echo", "--yes", "--json", "--allow-mcp-stdio", d)
	if !strings.Contains(call, "result ") {
		t.Errorf("no echoed result to judge: %s", call)
	}
	run(0, env, "mcp", "call", "mcp_loc_echo", "--yes", "--events", "--allow-mcp-stdio", d)
	rec := filepath.Join(out, "rec.ndjson")
	run(0, env, "mcp", "call", "mcp_loc_echo", "--yes", "--record", rec, "--allow-mcp-stdio", d)
	run(1, env, "mcp", "call", "mcp_loc_fail", "--yes", "--json", "--allow-mcp-stdio", d)
	run(0, env, "session", "--json", "--allow-mcp-stdio", d)
	b, err := os.ReadFile(rec)
	if err != nil || len(b) == 0 {
		t.Fatalf("recording: %v (%d bytes)", err, len(b))
	}
	all := strings.Join(append(shown, string(b)), "\n----\n")
	for _, spelled := range []string{value, base64.StdEncoding.EncodeToString([]byte(value)), base64.RawURLEncoding.EncodeToString([]byte(value))} {
		if i := strings.Index(all, spelled); i >= 0 {
			t.Errorf("%q is shown: …%s…", spelled, all[max(0, i-300):min(len(all), i+100)])
		}
	}
}

// runRelaviumEnv is runRelavium with more environment.
func runRelaviumEnv(t *testing.T, bin, home, dir string, env []string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(append(os.Environ(), "RELAVIUM_HOME="+home, "CI=1"), env...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	return stdout.String(), stderr.String(), code
}

// A cloned project's .mcp.json that names the person's stored secret by an
// undeclared ${input:id} in a header is held exactly as a declared input
// is (issue 24's binding): headless, nothing is dialled until the secret
// is bound to that origin (E323, naming the way out), a binding to another
// origin matches nothing (E324), and the stored value is never shown.
func TestUndeclaredInputHeaderIsNotSentUnbound(t *testing.T) {
	const stored = "ghp-stored-5e0a9b1c44"
	bin := testbin.Relavium(t)
	home, project := t.TempDir(), t.TempDir()
	writeClientFile(t, filepath.Join(project, ".mcp.json"),
		`{"mcpServers": {"gh": {"type": "http", "url": "https://mcp.example.invalid/mcp", "headers": {"Authorization": "Bearer ${input:github_token}"}}}}`)
	writeClientFile(t, filepath.Join(home, "secrets.toml"), "github_token = \""+stored+"\"\n")
	stdout, stderr, code := runRelavium(t, bin, home, project, "mcp", "ls", "--json")
	env := decodeEnvelope(t, stdout)
	if code != 2 || env.Error == nil || env.Error.Code != "E323" || !strings.Contains(stdout, "--allow-secret github_token@https://mcp.example.invalid:443") {
		t.Fatalf("unbound: exit %d %s\n%s", code, stdout, stderr)
	}
	stdout2, stderr2, code := runRelavium(t, bin, home, project, "mcp", "ls", "--json", "--allow-secret", "github_token@https://elsewhere.example.invalid")
	if env := decodeEnvelope(t, stdout2); code != 2 || env.Error == nil || env.Error.Code != "E324" {
		t.Fatalf("another origin: exit %d %s", code, stdout2)
	}
	if all := stdout + stderr + stdout2 + stderr2; strings.Contains(all, stored) {
		t.Fatalf("the stored secret is shown:\n%s", all)
	}
}
