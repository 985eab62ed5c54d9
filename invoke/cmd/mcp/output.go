package mcp

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/relavium/relavium/atomicfile"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/invoke/cli"
)

// CallOutput says where `mcp call --output` wrote the result text.
type CallOutput struct {
	Path  string `json:"path"`  // absolute
	Bytes int    `json:"bytes"` // bytes written
}

// outputPath is the absolute --output path ("" without the flag), checked
// before anything is connected or called: its directory must exist and the
// path must not be a directory. Exit 2 otherwise.
func outputPath(inv *cli.Invocation) (string, error) {
	if !inv.Changed("output") {
		return "", nil
	}
	p := inv.String("output")
	if p == "" {
		return "", &cli.Error{ErrCode: cli.CodeOutputPath, Exit: cli.ExitUsage, Msg: "--output needs a file path"}
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(inv.Env.WorkDir, p)
	}
	p = filepath.Clean(p)
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		return "", &cli.Error{ErrCode: cli.CodeOutputPath, Exit: cli.ExitUsage, Msg: fmt.Sprintf("--output %s is a directory; name a file", p)}
	}
	dir := filepath.Dir(p)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", &cli.Error{ErrCode: cli.CodeOutputPath, Exit: cli.ExitUsage, Msg: fmt.Sprintf("--output %s: directory %s does not exist", p, dir), Cause: err}
	}
	return p, nil
}

// outputText is what --output writes: the result's text parts byte for
// byte (ToolResult.Text, exactly what the server sent, unsanitized: a file
// is not a terminal), or, when the result has no text part, its
// structured content as the server sent it. Image, audio and blob parts
// are only described on stdout.
func outputText(res *engine.ToolResult) []byte {
	if t := res.Text(); t != "" {
		return []byte(t)
	}
	for _, c := range res.Content {
		if c.Type == engine.ContentText {
			return nil // text parts, all empty
		}
	}
	return append([]byte(nil), res.Structured...)
}

// writeCallOutput writes the result text to path atomically: a temp file
// in the same directory (created 0600: a result can hold whatever the
// server saw), synced, then renamed over path. An existing file at path is
// replaced; a symlink at path is replaced itself, never followed. On any
// failure the temp file is removed and path is left as it was.
func writeCallOutput(path string, res *engine.ToolResult) (*CallOutput, error) {
	data := outputText(res)
	fail := func(err error) (*CallOutput, error) {
		return nil, &cli.Error{ErrCode: cli.CodeOutputWrite, Msg: fmt.Sprintf("cannot write the result to %s (left as it was)", path), Cause: err}
	}
	if err := atomicfile.Write(path, data); err != nil {
		return fail(err)
	}
	return &CallOutput{Path: path, Bytes: len(data)}, nil
}
