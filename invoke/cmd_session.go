package invoke

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
)

// runSession opens the interactive workbench on a TTY (the Session main
// injects: package tui). With no one to ask — no TTY, --json, CI — it
// prints the inventory instead, exactly as `mcp ls` connects and reports
// it (consent no one can give exits 2 with the digests).
func runSession(ctx context.Context, inv *Invocation) (any, error) {
	if inv.CanPrompt() && inv.Env.Session != nil {
		return nil, inv.Env.Session(ctx, inv, false)
	}
	return runMCPList(ctx, inv)
}

// runDemo is the session on the embedded demo agent: this binary's own
// demo-server over stdio, no config needed. Headless, its inventory.
func runDemo(ctx context.Context, inv *Invocation) (any, error) {
	if inv.CanPrompt() && inv.Env.Session != nil {
		return nil, inv.Env.Session(ctx, inv, true)
	}
	servers, err := DemoServers(inv.Env.Executable)
	if err != nil {
		return nil, err
	}
	return inventory(ctx, inv, servers)
}

// DemoServers is the embedded demo agent: one stdio server, "demo", that
// runs `<executable> demo-server` in the executable's own directory (so its
// consent digest is the same from every project).
func DemoServers(executable string) ([]config.Server, error) {
	if executable == "" || !filepath.IsAbs(executable) {
		return nil, &Error{ErrCode: CodeInternal, Msg: fmt.Sprintf("the running binary's path is unknown (%q): the demo server cannot be started", executable)}
	}
	return []config.Server{{Name: "demo", Transport: host.TransportStdio, Command: executable,
		Args: []string{"demo-server"}, Dir: filepath.Dir(executable)}}, nil
}

// inventory connects servers the way `mcp ls` does and lists them.
func inventory(ctx context.Context, inv *Invocation, servers []config.Server) (*MCPList, error) {
	h, err := connectWith(ctx, inv, servers, nil, connectOptions{})
	if err != nil {
		return nil, err
	}
	defer h.Close()
	list := &MCPList{Servers: h.Servers(), Tools: []MCPTool{}, Skipped: h.Skipped()}
	if list.Skipped == nil {
		list.Skipped = []engine.SkippedTool{}
	}
	tools := h.Tools()
	for _, d := range tools {
		t := MCPTool{Name: d.Name, Server: d.Server, Tool: d.Tool, Title: d.Title,
			Description: d.Description, Annotations: d.Annotations, Args: argSummary(d.InputSchema), Changed: d.Changed, Digest: d.Digest}
		if d.Changed {
			t.Changes, _ = h.Changes(d.ID)
		}
		list.Tools = append(list.Tools, t)
	}
	list.markApprovals(inv, servers, tools)
	return list, nil
}

// Session is the interactive workbench's handle on the connect path every
// command takes (connectWith): the declared servers, their resolution and
// consent decisions through ONE Decider for the whole session (so approve
// once and deny hold until the person changes them), and connecting one
// server at a time. It never prompts in the terminal: a server that still
// needs consent fails its connect, and the TUI asks in its own dialog.
type Session struct {
	inv     *Invocation
	servers []config.Server
	decider *consent.Decider
	// Config is the loaded configuration (nil for the demo).
	Config *config.Config
	// Agent names what was loaded: the --agent, "demo", or "" for every
	// registered server.
	Agent string
}

// OpenSession loads what the session will show: the demo agent, or the
// config's declared servers (every authored problem is an error, exit 2,
// before anything is spawned or dialled).
func OpenSession(inv *Invocation, demo bool) (*Session, error) {
	s := &Session{inv: inv, Agent: inv.Global.Agent}
	if demo {
		servers, err := DemoServers(inv.Env.Executable)
		if err != nil {
			return nil, err
		}
		s.servers, s.Agent = servers, "demo"
	} else {
		cfg, err := config.Load(inv.Env.Home, inv.Global.Project)
		if err != nil {
			return nil, err
		}
		servers, err := cfg.Declared(inv.Global.Agent)
		if err != nil {
			return nil, err
		}
		s.Config, s.servers = cfg, servers
	}
	s.decider = consent.NewDecider(consent.Open(inv.Env.Home), inv.Global.AllowStdio, inv.Env.Now)
	return s, nil
}

// Servers are the declared servers, in declaration order.
func (s *Session) Servers() []config.Server { return append([]config.Server(nil), s.servers...) }

// Warnings are the config's deprecation warnings, one line each.
func (s *Session) Warnings() []string {
	if s.Config == nil {
		return nil
	}
	out := make([]string, 0, len(s.Config.Warnings))
	for _, w := range s.Config.Warnings {
		out = append(out, sanitize.Line(fmt.Sprint(w)))
	}
	return out
}

// Decide resolves every stdio server and decides each one's consent. A
// declaration that does not resolve (a command not on PATH) has no decision:
// its error, naming where it is declared, is in failed. err is a decision
// that fails as a whole (an --allow-mcp-stdio digest matching nothing).
func (s *Session) Decide() (decisions []consent.Decision, failed map[string]error, err error) {
	resolved, _, failed := resolveStdio(s.inv, s.servers)
	decisions, err = s.decider.Decide(resolved)
	return decisions, failed, err
}

// Resolved returns the resolution of one stdio server.
func (s *Session) Resolved(name string) (*consent.Resolved, error) {
	for _, srv := range s.servers {
		if srv.Name == name && srv.Transport == host.TransportStdio {
			r, err := consent.Resolve(declarationOf(srv), s.inv.Env.Getenv("PATH"))
			if err != nil {
				return nil, withSource(err, srv)
			}
			return r, nil
		}
	}
	return nil, &Error{ErrCode: CodeInternal, Msg: fmt.Sprintf("no stdio server %q is declared", name)}
}

// Clearance says whether a call of def may go ahead without asking: the
// session's tools_auto_approve or an approval remembered for def's exact
// definition (never the server's annotations; for a definition changed
// since it was accepted, nothing). "" means ask; err is an approval store
// that could not be read (it clears nothing).
func (s *Session) Clearance(def engine.ToolDef) (consent.Clearance, error) {
	return clearCall(consent.OpenApprovals(s.inv.Env.Home, s.inv.Env.Now), s.servers, def, false, false)
}

// Approve remembers "always for this definition" for def. A definition
// changed since it was accepted is refused (E548): accept it first.
func (s *Session) Approve(def engine.ToolDef) error {
	if def.Changed {
		return &host.Error{ErrCode: host.CodeApproveChanged, Exit: ExitUsage, Server: def.Server,
			Msg: def.Name + "'s definition changed since you accepted it: accept it before remembering an approval"}
	}
	return consent.OpenApprovals(s.inv.Env.Home, s.inv.Env.Now).Approve(toolKey(def))
}

// Decider is the session's consent decider: every answer the person gives
// goes through it.
func (s *Session) Decider() *consent.Decider { return s.decider }

// Connect connects the one server name through connectWith, with the
// session's decider and the TUI's elicitor; em receives its events.
func (s *Session) Connect(ctx context.Context, name string, em engine.Emitter, el engine.Elicitor) (*host.Host, error) {
	return connectWith(ctx, s.inv, s.servers, em, connectOptions{
		only:     func(n string) bool { return n == name },
		decider:  s.decider,
		elicitor: el,
		noPrompt: true,
	})
}
