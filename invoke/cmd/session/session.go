package session

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/wire"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/invoke/cmd/mcp"
	"github.com/relavium/relavium/session"
)

// RunSession opens the interactive workbench on a TTY (the Session main
// injects: package tui). With no one to ask — no TTY, --json, CI — it
// prints the inventory instead, exactly as `mcp ls` connects and reports
// it (consent no one can give exits 2 with the digests).
func RunSession(ctx context.Context, inv *cli.Invocation) (any, error) {
	if inv.CanPrompt() && inv.Env.Session != nil {
		return nil, openWorkbench(ctx, inv, false)
	}
	return mcp.RunMCPList(ctx, inv)
}

// RunDemo is the session on the embedded demo agent: this binary's own
// demo-server over stdio, no config needed. Headless, its inventory.
func RunDemo(ctx context.Context, inv *cli.Invocation) (any, error) {
	if inv.CanPrompt() && inv.Env.Session != nil {
		return nil, openWorkbench(ctx, inv, true)
	}
	servers, err := DemoServers(inv.Env.Executable)
	if err != nil {
		return nil, err
	}
	return mcp.Inventory(ctx, inv, servers)
}

// DemoServers is the embedded demo agent: one stdio server, "demo", that
// runs `<executable> demo-server` in the executable's own directory (so its
// consent digest is the same from every project).
func DemoServers(executable string) ([]config.Server, error) {
	if executable == "" || !filepath.IsAbs(executable) {
		return nil, &cli.Error{ErrCode: cli.CodeInternal, Msg: fmt.Sprintf("the running binary's path is unknown (%q): the demo server cannot be started", executable)}
	}
	return []config.Server{{Name: "demo", Transport: host.TransportStdio, Command: executable,
		Args: []string{"demo-server"}, Dir: filepath.Dir(executable)}}, nil
}

// openWorkbench hands the session to the interactive face main injected.
func openWorkbench(ctx context.Context, inv *cli.Invocation, demo bool) error {
	wb, err := Workbench(inv, demo)
	if err != nil {
		return err
	}
	return inv.Env.Session(ctx, wb)
}

// Workbench loads what the interactive session will show: the demo agent,
// or the config's declared servers (every authored problem is an error,
// exit 2, before anything is spawned or dialled), over a session core that
// asks no one in the terminal: a server that still needs consent fails its
// connect, and the workbench asks in its own dialog.
func Workbench(inv *cli.Invocation, demo bool) (session.Workbench, error) {
	wb := session.Workbench{Project: inv.Global.Project, Agent: inv.Global.Agent, Demo: demo, ThemeFlag: inv.Global.Theme,
		Getenv: inv.Env.Getenv, Stdin: inv.Env.Stdin, Stdout: inv.Env.TerminalOut(), Now: inv.Env.Now}
	var servers []config.Server
	if demo {
		ds, err := DemoServers(inv.Env.Executable)
		if err != nil {
			return wb, err
		}
		servers, wb.Agent = ds, "demo"
	} else {
		cfg, err := inv.LoadConfig()
		if err != nil {
			return wb, err
		}
		declared, err := cfg.Declared(inv.Global.Agent)
		if err != nil {
			return wb, err
		}
		servers, wb.ConfigTheme = declared, cfg.Theme
		for _, w := range cfg.Warnings {
			wb.Warnings = append(wb.Warnings, sanitize.Line(fmt.Sprint(w)))
		}
		for _, o := range cfg.Offered {
			wb.Warnings = append(wb.Warnings, sanitize.Line(mcp.OfferedNote(inv.Global.Project, o)))
		}
		wb.Failed = cfg.Failed // listed failed beside the servers that run
	}
	opts := cli.SessionOptions(inv)
	opts.Warn = nil // the workbench shows a store problem in its consent dialog
	if err := cli.ClientOptions(inv, &opts); err != nil {
		return wb, err
	}
	// The workbench lives on: a network server that goes away is dialled
	// again with backoff (host.ReconnectPolicy's defaults).
	opts.Reconnect = &host.ReconnectPolicy{}
	if opts.Wire == nil {
		// The protocol view reads the wire whether or not --record was
		// given: an in-memory hub, bounded like every hub (its last 1024
		// records, 16 MiB), that writes no file.
		opts.Wire = wire.NewHub("", inv.Env.Now)
	}
	wb.Session = session.New(opts, servers)
	return wb, nil
}
