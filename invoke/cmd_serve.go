package invoke

import (
	"context"
	"fmt"
)

// runMCPServe is `relavium mcp serve`: relavium's exposed commands and the
// project's mcp_call workflows as an MCP server (serve_*.go).
func runMCPServe(ctx context.Context, inv *Invocation) (any, error) {
	if inv.Global.JSON && inv.String("transport") == "stdio" { // stdout is the MCP stream
		return nil, usageErr(CodeUnknownFlag, "mcp serve --transport stdio speaks MCP on stdout, so it takes no --json (a document after the stream would corrupt it); drop --json")
	}
	cfg := ServeConfig{
		Transport:    inv.String("transport"),
		Host:         inv.String("host"),
		Port:         inv.Int("port"),
		AllowedHosts: inv.Strings("allowed-host"),
		Timeout:      inv.Duration("timeout"),
	}
	if cfg.Port < 0 || cfg.Port > 65535 {
		return nil, usageErr(CodeBadFlag, "--port %d is not a port (0-65535)", cfg.Port)
	}
	if cfg.Timeout <= 0 {
		return nil, usageErr(CodeBadFlag, "--timeout must be positive, e.g. 300s")
	}
	env := inv.Env
	if env.Executable == "" {
		return nil, &Error{ErrCode: CodeNotExposed, Msg: "cannot locate the relavium binary to run commands as children"}
	}
	iv := &Invoker{
		Table:   Commands(),
		Exe:     env.Executable,
		Project: inv.Global.Project,
		Environ: env.Environ,
		Timeout: cfg.Timeout,
		Nonces:  NewNonceStore(env.Now),
		Audit:   NewAuditLog(env.Home),
		Stderr:  env.Stderr,
		Now:     env.Now,
	}
	if err := Serve(ctx, env, iv, cfg); err != nil {
		return nil, err
	}
	if cfg.Transport != "stdio" {
		fmt.Fprintln(env.Stderr, "relavium mcp serve: stopped")
	}
	return nil, nil
}
