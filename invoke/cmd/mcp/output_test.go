package mcp

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/invoke/cli"
)

func TestWriteCallOutput(t *testing.T) {
	dir := t.TempDir()
	res := &engine.ToolResult{Content: []engine.Content{{Type: "text", Text: "a\x1b[2J"}, {Type: "image", Data: []byte{1}}, {Type: "text", Text: "b\u202e"}}}

	// A new file, then the same path replaced; a symlink at the path is
	// replaced itself, its target left alone.
	dest := filepath.Join(dir, "out")
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, dest); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		out, err := writeCallOutput(dest, res)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(dest)
		if string(got) != "a\x1b[2Jb\u202e" || out.Bytes != len(got) || out.Path != dest {
			t.Fatalf("wrote %q, %+v", got, out)
		}
		fi, _ := os.Lstat(dest)
		if !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
			t.Fatalf("mode %v, want a regular 0600 file", fi.Mode())
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Fatalf("the symlink's target was written: %q", b)
	}

	// A failure leaves the path as it was and no temp file: E531.
	sub := filepath.Join(dir, "isdir")
	if err := os.MkdirAll(filepath.Join(sub, "inner"), 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := writeCallOutput(sub, res)
	var ie *cli.Error
	if !errors.As(err, &ie) || ie.ErrCode != cli.CodeOutputWrite {
		t.Fatalf("err = %v, want %s", err, cli.CodeOutputWrite)
	}
	if fi, err := os.Stat(filepath.Join(sub, "inner")); err != nil || !fi.IsDir() {
		t.Fatal("the directory at the path was touched")
	}
	_, err = writeCallOutput(filepath.Join(dir, "gone", "out"), res)
	if !errors.As(err, &ie) || ie.ErrCode != cli.CodeOutputWrite {
		t.Fatalf("err = %v, want %s", err, cli.CodeOutputWrite)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if len(left) != 0 {
		t.Fatalf("temp files left: %v", left)
	}
}

func TestOutputText(t *testing.T) {
	structured := &engine.ToolResult{Content: []engine.Content{}, Structured: []byte(`{"k":"\u009b"}`)}
	if got := string(outputText(structured)); got != `{"k":"\u009b"}` {
		t.Fatalf("structured only: %q", got)
	}
	empty := &engine.ToolResult{Content: []engine.Content{{Type: "text"}}, Structured: []byte(`{}`)}
	if got := outputText(empty); len(got) != 0 {
		t.Fatalf("an empty text part: %q", got)
	}
}
