package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/relavium/relavium/host/config/mcpjson"
)

// A client file over 4 MiB is E243 (the code whose meaning names a client
// file over 4 MiB, refused unread), not a config file's E222; a config file
// over its own bound stays E222.
func TestOversizedClientFileIsE243(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, mcpjson.MaxFileBytes+1); err != nil {
		t.Fatal(err)
	}
	_, err := LoadFrom(t.TempDir(), "/data/app", Sources{Files: []string{path}})
	var ce *Error
	if !errors.As(err, &ce) || len(ce.Problems) != 1 || ce.Problems[0].Code != mcpjson.CodeNesting || ce.Problems[0].File != path {
		t.Fatalf("a 4 MiB + 1 client file: %v", err)
	}
	if ce.Problems[0].Rule == "" {
		t.Fatalf("the problem has no rule name: %+v", ce.Problems[0])
	}
	home := t.TempDir()
	if err := os.WriteFile(GlobalFile(home), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(GlobalFile(home), maxConfigFileBytes+1); err != nil {
		t.Fatal(err)
	}
	_, err = LoadFrom(home, "", Sources{})
	if !errors.As(err, &ce) || len(ce.Problems) != 1 || ce.Problems[0].Code != CodeUnreadable {
		t.Fatalf("an oversized config.toml: %v", err)
	}
}
