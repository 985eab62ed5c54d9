package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/relavium/relavium/sandbox"
)

func TestSandboxField(t *testing.T) {
	const head = "[[mcp_servers]]\nname = \"fs\"\ntransport = \"stdio\"\ncommand = \"/bin/sh\"\n"
	cases := []struct {
		name, src string
		want      *sandbox.Decl
	}{
		{"left out", "", nil},
		{"false", "sandbox = false\n", &sandbox.Decl{Off: true}},
		{"true", "sandbox = true\n", &sandbox.Decl{}},
		{"required", "sandbox = \"required\"\n", &sandbox.Decl{Required: true}},
		{"table", "sandbox = { read = [\"/opt/data\"], write = [\".\"], network = \"guarded\", allow = [\"127.0.0.1:8080\"], required = true }\n",
			&sandbox.Decl{Read: []string{"/opt/data"}, Write: []string{"."}, Network: sandbox.NetGuarded, Allow: []string{"127.0.0.1:8080"}, Required: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := loadOK(t, head+tc.src)
			got := cfg.Servers[0].Sandbox
			if (got == nil) != (tc.want == nil) || got != nil && (got.Off != tc.want.Off || got.Required != tc.want.Required ||
				got.Network != tc.want.Network || !slices.Equal(got.Read, tc.want.Read) || !slices.Equal(got.Write, tc.want.Write) || !slices.Equal(got.Allow, tc.want.Allow)) {
				t.Errorf("sandbox = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestSandboxFieldRefusals(t *testing.T) {
	const head = "[[mcp_servers]]\nname = \"fs\"\ntransport = \"stdio\"\ncommand = \"/bin/sh\"\n"
	for src, want := range map[string]string{
		"sandbox = \"maybe\"\n":                                  "E248",
		"sandbox = 3\n":                                          "E248",
		"sandbox = { network = \"sideways\" }\n":                 "E248",
		"sandbox = { allow = [\"127.0.0.1:80\"] }\n":             "allow is for network",
		"sandbox = { network = \"guarded\", allow = [\"x\"] }\n": "host:port",
		"sandbox = { read = [\"~/x\"] }\n":                       "starts with ~",
		"sandbox = { reed = [\"/x\"] }\n":                        "did you mean \"read\"",
	} {
		if msg := loadFails(t, head+src); !strings.Contains(msg, want) {
			t.Errorf("%s: %s, want %q", strings.TrimSpace(src), msg, want)
		}
	}
	net := "[[mcp_servers]]\nname = \"web\"\ntransport = \"http\"\nurl = \"https://example.com/mcp\"\nsandbox = false\n"
	if msg := loadFails(t, net); !strings.Contains(msg, "E209") {
		t.Errorf("sandbox on http: %s", msg)
	}
}

// loadOK loads src as the global config.toml and fails the test on a problem.
func loadOK(t *testing.T, src string) *Config {
	t.Helper()
	root := writeTree(t, map[string]string{globalTOML: src})
	cfg, err := Load(filepath.Join(root, "home"), filepath.Join(root, "project"))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// loadFails loads src and returns every problem's code and message.
func loadFails(t *testing.T, src string) string {
	t.Helper()
	root := writeTree(t, map[string]string{globalTOML: src})
	_, err := Load(filepath.Join(root, "home"), filepath.Join(root, "project"))
	if err == nil {
		t.Fatalf("loaded:\n%s", src)
	}
	var b strings.Builder
	for _, p := range problemsOf(t, err) {
		fmt.Fprintf(&b, "%s %s; ", p.Code, p.Message)
	}
	return b.String()
}
