package cli

import (
	"context"
	"fmt"
	"io"
	"time"
)

// ServeConfig is `relavium mcp serve`'s flags, checked.
type ServeConfig struct {
	Transport    string // stdio | sse | http
	Host         string
	Port         int
	AllowedHosts []string
	Timeout      time.Duration
}

// ServeFunc runs the machine surface (package machine) until ctx ends. main
// injects it so that invoke never imports the machine surface, which sits
// on invoke's command table.
type ServeFunc func(ctx context.Context, inv *Invocation, cfg ServeConfig) error

// RunMCPServe is `relavium mcp serve`: relavium's exposed commands and the
// project's mcp_call workflows as an MCP server. It checks the flags and
// hands them to Env.Serve.
func RunMCPServe(ctx context.Context, inv *Invocation) (any, error) {
	if inv.Global.JSON && inv.String("transport") == "stdio" { // stdout is the MCP stream
		return nil, UsageErr(CodeUnknownFlag, "mcp serve --transport stdio speaks MCP on stdout, so it takes no --json (a document after the stream would corrupt it); drop --json")
	}
	cfg := ServeConfig{
		Transport:    inv.String("transport"),
		Host:         inv.String("host"),
		Port:         inv.Int("port"),
		AllowedHosts: inv.Strings("allowed-host"),
		Timeout:      inv.Duration("timeout"),
	}
	if cfg.Port < 0 || cfg.Port > 65535 {
		return nil, UsageErr(CodeBadFlag, "--port %d is not a port (0-65535)", cfg.Port)
	}
	if cfg.Timeout <= 0 {
		return nil, UsageErr(CodeBadFlag, "--timeout must be positive, e.g. 300s")
	}
	if inv.Env.Serve == nil {
		return nil, &Error{ErrCode: CodeInternal, Msg: "this build has no machine surface wired in (Env.Serve is unset)"}
	}
	if err := inv.Env.Serve(ctx, inv, cfg); err != nil {
		return nil, err
	}
	if cfg.Transport != "stdio" {
		fmt.Fprintln(inv.Env.Stderr, "relavium mcp serve: stopped")
	}
	return nil, nil
}

// NopWriteCloser keeps the process's stdout open when a served session
// closes (demo-server, replay).
type NopWriteCloser struct{ io.Writer }

// Close does nothing.
func (NopWriteCloser) Close() error { return nil }
