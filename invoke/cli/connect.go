package cli

import (
	"context"
	"fmt"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/clientside"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/session"
)

// LiveHost is a connected set of servers: the engine's ToolHost plus Close,
// which tears every session and child process down.
type LiveHost interface {
	engine.ToolHost
	Close() error
}

// ConnectServers is the one path every command (session, mcp ls/call, run)
// takes to connect declared servers: stdio commands are resolved and put to
// consent (asked on a TTY through inv.CanPrompt, else exit 2 with the
// digests), urls are admitted by the network guard, then host.Start
// connects everything concurrently, fail-loud. Elicitation follows the
// command's --elicit flag when it has one (decline otherwise).
func ConnectServers(ctx context.Context, inv *Invocation, servers []config.Server, em engine.Emitter) (LiveHost, error) {
	h, err := ConnectWith(ctx, inv, servers, em, ConnectOptions{})
	if err != nil {
		return nil, err
	}
	return h, nil
}

// ConnectOptions narrow what connectWith connects.
type ConnectOptions struct {
	// only, when set, selects the servers to connect; every declared stdio
	// server is still resolved and decided (an --allow-mcp-stdio digest is
	// checked against all of them).
	Only func(name string) bool
	// timeouts lowers the connect, discovery and call deadlines (tests).
	timeouts host.Timeouts
	// workbenchCapabilities declares what the workbench declares (url-mode
	// elicitation too), so a server that offers tools by the client's
	// capabilities offers the lock gates (mcp lock, mcp check) the list the
	// workbench sees: its drift flag and mcp check agree. No call is made
	// under it; a url elicitation would be declined.
	WorkbenchCapabilities bool
}

// ConnectWith connects servers through the session core: resolution,
// consent (asked on a TTY through inv.CanPrompt by the terminal's Asker,
// else exit 2 with the digests), guard admission, host.Start.
func ConnectWith(ctx context.Context, inv *Invocation, servers []config.Server, em engine.Emitter, co ConnectOptions) (*host.Host, error) {
	s, err := NewSession(inv, servers, em, co)
	if err != nil {
		return nil, err
	}
	return s.Start(ctx, co.Only)
}

// NewSession is the session core connectWith starts: this invocation's
// options, the terminal's Asker where someone can be asked.
func NewSession(inv *Invocation, servers []config.Server, em engine.Emitter, co ConnectOptions) (*session.Session, error) {
	opts := SessionOptions(inv)
	opts.Events, opts.Timeouts = em, co.timeouts
	opts.URLElicitation = co.WorkbenchCapabilities
	if err := ClientOptions(inv, &opts); err != nil {
		return nil, err
	}
	if inv.CanPrompt() {
		opts.Asker = &terminalAsker{w: inv.Env.Stderr, r: inv.Env.Stdin}
	}
	if inv.TypedStdio() {
		opts.TypedStdio = AdhocServer
	}
	return session.New(opts, servers), nil
}

// SessionOptions are the session core's options of this invocation: the
// home, the environment, --allow-mcp-stdio, the --elicit policy, and the
// grant store warning on stderr. No Asker: the caller says whether anyone
// can be asked.
func SessionOptions(inv *Invocation) session.Options {
	return session.Options{
		Home:        inv.Env.Home,
		Environ:     inv.Env.Environ,
		LookupEnv:   inv.Env.LookupEnv,
		AllowStdio:  inv.Global.AllowStdio,
		AllowSecret: inv.Global.AllowSecret,
		AllowLocal:  inv.Global.AllowLocal,
		Redact:      inv.Env.redact,
		Version:     inv.Env.Version,
		Now:         inv.Env.Now,
		Elicitor:    elicitorFor(inv),
		LogLevel:    logLevelFor(inv),
		AdhocName:   AdhocServer,
		Wire:        inv.Wire,
		Sandbox:     Sandboxing(inv),
		Warn: func(msg string) {
			fmt.Fprintf(inv.Env.Stderr, "relavium: warning: %s\n", msg)
		},
	}
}

// logLevelFor is the command's --log-level, when it has one ("" = info).
func logLevelFor(inv *Invocation) string {
	if inv.flags != nil && inv.flags.Lookup("log-level") != nil {
		return inv.String("log-level")
	}
	return ""
}

// elicitorFor is the headless elicitation policy of the command: --elicit
// decline (the default) or defaults.
func elicitorFor(inv *Invocation) engine.Elicitor {
	if inv.flags != nil && inv.flags.Lookup("elicit") != nil && inv.String("elicit") == "defaults" {
		return clientside.DefaultsElicitor{}
	}
	return clientside.DeclineElicitor{}
}

// AdhocServer is the name of the one unnamed server --url or --stdio
// targets (its tools are mcp_adhoc_<tool>, or just <tool>).
const AdhocServer = session.AdhocName
