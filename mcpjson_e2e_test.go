package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/internal/testbin"
)

// runRelavium runs the built binary headless (CI=1) in dir and returns
// stdout, stderr and the exit code.
func runRelavium(t *testing.T, bin, home, dir string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "RELAVIUM_HOME="+home, "CI=1")
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

type envelope struct {
	OK    bool            `json:"ok"`
	Data  json.RawMessage `json:"data"`
	Error *struct {
		Code string          `json:"code"`
		Data json.RawMessage `json:"data"`
	} `json:"error"`
}

func decodeEnvelope(t *testing.T, stdout string) envelope {
	t.Helper()
	var env envelope
	if err := json.Unmarshal([]byte(stdout), &env); err != nil {
		t.Fatalf("stdout is not an envelope: %v\n%s", err, stdout)
	}
	return env
}

func writeClientFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// An imported stdio server asks for consent like any other: headless, a
// project whose only declaration is .mcp.json (and a --config file in an
// empty project) exits 2 with the digest — the very digest of the same
// server written in config.toml — and that digest lets it run.
func TestImportedStdioServerHeadlessConsent(t *testing.T) {
	bin := testbin.Relavium(t)
	home := t.TempDir()
	entry := `{"mcpServers": {"demo": {"command": ` + jsonString(bin) + `, "args": ["demo-server", "--transport", "${DEMO_TRANSPORT:-stdio}"], "env": {"LEVEL": "${LEVEL:-info}"}}}}`

	twin := "[[mcp_servers]]\nname = \"demo\"\ntransport = \"stdio\"\ncommand = " + jsonString(bin) +
		"\nargs = [\"demo-server\", \"--transport\", \"{{env.DEMO_TRANSPORT:-stdio}}\"]\nenv = { LEVEL = \"{{env.LEVEL:-info}}\" }\n"
	discovered := t.TempDir()
	writeClientFile(t, filepath.Join(discovered, ".mcp.json"), entry)
	flagged := t.TempDir()
	writeClientFile(t, filepath.Join(flagged, "elsewhere", "claude_desktop_config.json"), entry)

	pending := func(dir string, extra ...string) string {
		t.Helper()
		stdout, stderr, code := runRelavium(t, bin, home, dir, append([]string{"mcp", "ls", "--json"}, extra...)...)
		env := decodeEnvelope(t, stdout)
		if code != 2 || env.Error == nil || env.Error.Code != "E301" {
			t.Fatalf("exit %d, envelope %s, stderr %s: want exit 2 with E301", code, stdout, stderr)
		}
		var data struct {
			Pending []struct {
				Server, Digest string
			} `json:"pending"`
		}
		if err := json.Unmarshal(env.Data, &data); err != nil || len(data.Pending) != 1 || data.Pending[0].Server != "demo" {
			t.Fatalf("pending %s (%v)", env.Data, err)
		}
		return data.Pending[0].Digest
	}
	// Each project's digest is compared with that of its TOML twin in the
	// same project (cwd, the project directory, is digested).
	d1 := pending(discovered)
	dFlag := pending(flagged, "--config", filepath.Join("elsewhere", "claude_desktop_config.json"))
	writeClientFile(t, filepath.Join(flagged, ".relavium", "config.toml"), twin)
	if got := pending(flagged); got != dFlag || !strings.HasPrefix(got, "v1:") {
		t.Fatalf("--config: the TOML twin's digest %s differs from the imported %s", got, dFlag)
	}
	writeClientFile(t, filepath.Join(discovered, ".relavium", "config.toml"), twin)
	if got := pending(discovered); got != d1 {
		t.Fatalf(".mcp.json: the TOML twin's digest %s differs from the imported %s", got, d1)
	}
	if err := os.RemoveAll(filepath.Join(discovered, ".relavium")); err != nil {
		t.Fatal(err)
	}

	stdout, stderr, code := runRelavium(t, bin, home, discovered, "mcp", "ls", "--allow-mcp-stdio", d1)
	if code != 0 || !strings.Contains(stdout, "demo") {
		t.Fatalf("with the digest: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "IMPORTED\n  demo  from .mcp.json:1:17") {
		t.Errorf("mcp ls does not show where the server came from:\n%s", stdout)
	}
}

// What does not translate fails only its server: mcp ls lists it failed
// with its problem at its place (the listing's data), nothing of it runs,
// and the failure decides the exit as a server failing to start does.
func TestImportRefusalHeadless(t *testing.T) {
	bin := testbin.Relavium(t)
	dir := t.TempDir()
	writeClientFile(t, filepath.Join(dir, "c.json"), "{\"mcpServers\": {\n  \"s\": {\"command\": \"npx -y pkg\"}\n}}\n")
	stdout, _, code := runRelavium(t, bin, t.TempDir(), dir, "mcp", "ls", "--json", "--config", "c.json")
	env := decodeEnvelope(t, stdout)
	if code != 1 || env.Error == nil || env.Error.Code != "E500" {
		t.Fatalf("exit %d: %s", code, stdout)
	}
	var data struct {
		Servers []struct {
			Name      string `json:"name"`
			State     string `json:"state"`
			ErrorCode string `json:"error_code"`
			Error     string `json:"error"`
			PID       int    `json:"pid"`
		} `json:"servers"`
	}
	if err := json.Unmarshal(env.Data, &data); err != nil || len(data.Servers) != 1 {
		t.Fatalf("servers %s", env.Data)
	}
	s := data.Servers[0]
	if s.Name != "s" || s.State != "failed" || s.ErrorCode != "E236" || s.PID != 0 ||
		!strings.Contains(s.Error, "c.json:2:20: mcpServers.s.command") {
		t.Errorf("failed server %+v", s)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
