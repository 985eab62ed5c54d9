package session

import (
	"context"
	"errors"
	"fmt"
	"github.com/relavium/relavium/redact"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/headers"
	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/host/wire"
)

// Session is one face's session over a set of declared servers: their
// resolution, one consent Decider for all of its connects, and the
// connections themselves.
type Session struct {
	opts    Options
	decl    *declarations // the declared servers, and any added at run time
	decider *consent.Decider
	given   *givenSecrets // secrets typed in this session (ProvideSecret)
}

// New is a session over servers (in declaration order). Nothing is
// resolved, asked or connected yet.
func New(opts Options, servers []config.Server) *Session {
	if opts.Redact == nil {
		opts.Redact = redact.New()
	}
	return &Session{
		opts:    opts,
		decl:    &declarations{list: append([]config.Server(nil), servers...)},
		decider: consent.NewDecider(consent.Open(opts.Home), opts.AllowStdio, opts.Now).AllowSecrets(opts.AllowSecret).AllowLocal(opts.AllowLocal),
		given:   &givenSecrets{},
	}
}

// Servers are the declared servers, in declaration order.
func (s *Session) Servers() []config.Server { return s.decl.all() }

// Decider is the session's consent decider: every answer goes through it.
func (s *Session) Decider() *consent.Decider { return s.decider }

// Decide resolves every stdio server and decides each one's consent. A
// declaration that does not resolve has no decision: its error, naming
// where it is declared, is in failed. err is a decision that fails as a
// whole (an --allow-mcp-stdio digest matching nothing).
func (s *Session) Decide() (decisions []consent.Decision, failed map[string]error, err error) {
	resolved, _, failed := s.resolveStdio()
	decisions, err = s.decider.DecideWith(resolved, s.bindingsOf(s.decl.all()))
	return decisions, failed, err
}

// Start connects the selected servers (nil: every one) at once, fail-loud
// (host.Start): every stdio server is resolved and decided (an
// --allow-mcp-stdio digest is checked against all of them), the pending
// ones are put to the Asker, urls are admitted by the guard.
func (s *Session) Start(ctx context.Context, only func(name string) bool) (*host.Host, error) {
	selected := func(name string) bool { return only == nil || only(name) }
	opts, err := s.admit(ctx, selected, nil)
	if err != nil {
		return nil, err
	}
	return host.Start(ctx, opts)
}

// admit runs everything before a connect: resolution, consent (asking the
// Asker), guard admission. It returns the host options for the selected
// servers that may connect; a denied one is in NotStarted. Urls are
// admitted by guard (nil: one made on first need).
func (s *Session) admit(ctx context.Context, selected func(string) bool, guard *netguard.Guard) (host.Options, error) {
	em := s.opts.events()
	servers := s.decl.all()
	for _, srv := range servers {
		if srv.Transport == host.TransportStdio && selected(srv.Name) {
			em.Emit(engine.Event{Type: engine.EventServer, Data: engine.ServerData{Server: srv.Name, State: engine.StateResolving, Transport: srv.Transport}})
		}
	}
	resolved, byName, failed := s.resolveStdio()
	for _, srv := range servers {
		if err, ok := failed[srv.Name]; ok && selected(srv.Name) {
			return host.Options{}, err // a server not connected here needs no digest
		}
	}
	if r := byName[s.opts.TypedStdio]; r != nil && s.opts.TypedStdio != "" && !s.decl.isAdhoc(s.opts.TypedStdio) {
		s.decider.ApproveOnce(r.Digest) // the person's own command line
	}
	decisions, err := s.decider.DecideWith(resolved, s.bindingsOf(servers))
	if err != nil {
		return host.Options{}, err
	}
	var pending []consent.Decision
	for _, d := range decisions {
		if d.State == consent.NeedsConsent && selected(d.Server.Name) {
			pending = append(pending, d)
			em.Emit(engine.Event{Type: engine.EventServer, Data: engine.ServerData{Server: d.Server.Name, State: engine.StateNeedsConsent,
				Transport: host.TransportStdio, Digest: d.Server.Digest}})
		}
	}
	bdecs, bpending, err := s.decideBindings(servers, selected)
	if err != nil {
		return host.Options{}, err
	}
	if err := consent.RequireAll(pending, bpending, s.opts.Asker != nil); err != nil {
		var pe *consent.PendingError
		if errors.As(err, &pe) {
			pe.Undeclared = len(pending) > 0 && !s.anyDeclared(pending)
		}
		return host.Options{}, err
	}
	if len(pending) == 0 && len(bpending) == 0 {
		s.warnStore(decisions)
	}
	denied := map[string]bool{}
	for _, d := range decisions {
		if d.State == consent.Denied {
			denied[d.Server.Digest] = true
		}
	}
	for _, d := range pending {
		ok, err := s.ask(ctx, d)
		if err != nil {
			return host.Options{}, err
		}
		if !ok {
			denied[d.Server.Digest] = true
		}
	}

	unbound, err := s.askBindings(ctx, bdecs, bpending)
	if err != nil {
		return host.Options{}, err
	}
	if len(bpending) > 0 { // the answers are the Decider's now
		if bdecs, err = s.decider.DecideBindings(s.bindingsOf(servers)); err != nil {
			return host.Options{}, err
		}
	}

	opts := s.hostOptions()
	opts.Guard = guard
	for _, srv := range servers {
		if !selected(srv.Name) {
			continue
		}
		if b := unbound[srv.Name]; b != nil {
			reason := "sending " + b.Ref() + " to " + b.Origin + " was denied"
			if b.Local {
				reason = "dialling its local address " + b.Origin + " was denied"
			}
			if b.Helper != nil {
				reason = "running its headers helper was denied"
			}
			opts.NotStarted = append(opts.NotStarted, host.NotStarted{Name: srv.Name, Transport: srv.Transport, Digest: b.Digest,
				Code: consent.CodeDenied, Reason: reason})
			em.Emit(engine.Event{Type: engine.EventServer, Data: engine.ServerData{Server: srv.Name, State: engine.StateFailed,
				Transport: srv.Transport, Digest: b.Digest, ErrorCode: consent.CodeDenied, Error: reason}})
			continue
		}
		if srv.Transport == host.TransportStdio && denied[byName[srv.Name].Digest] {
			r := byName[srv.Name]
			opts.NotStarted = append(opts.NotStarted, host.NotStarted{Name: srv.Name, Transport: srv.Transport, Digest: r.Digest,
				Code: consent.CodeDenied, Reason: "consent denied"})
			em.Emit(engine.Event{Type: engine.EventServer, Data: engine.ServerData{Server: srv.Name, State: engine.StateFailed,
				Transport: srv.Transport, Digest: r.Digest, ErrorCode: consent.CodeDenied, Error: "consent denied"}})
			continue
		}
		// A held local address is opened only by an approved decision;
		// otherwise the guard refuses it as it refuses any local address.
		srv.AllowLocalEndpoint = localOpened(srv, bdecs)
		hs, err := s.hostServer(srv, byName, boundSecrets(srv.Name, bdecs), &opts)
		if err == nil && srv.HeadersHelper != "" {
			// Its helper is its credential, as a static Authorization is:
			// it is never probed for OAuth.
			hs.OAuth = nil
			hs.HeadersHelper, err = s.headersHelper(srv, hs, bdecs)
		}
		if err != nil {
			// Said on the event stream too, as host says a failed connect: a
			// face that shows the server sees it fail (a secret its url
			// carries in no store is E520, which the workbench asks for).
			em.Emit(engine.Event{Type: engine.EventServer, Data: engine.ServerData{Server: srv.Name, State: engine.StateFailed,
				Transport: srv.Transport, ErrorCode: fault.CodeOf(err, failure.CodeStartFailed), Error: fault.MessageOf(err)}})
			return host.Options{}, err
		}
		opts.Servers = append(opts.Servers, hs)
	}
	return opts, nil
}

// guard is the network guard of this session: it reaches targets through
// the HTTPS_PROXY / HTTP_PROXY / NO_PROXY of the environment the session
// was given (never the process's own, read behind its back).
func (s *Session) guard() *netguard.Guard {
	return netguard.New(netguard.WithProxy(netguard.ProxyFromEnv(s.opts.LookupEnv)))
}

// hostOptions are the host's options without servers.
func (s *Session) hostOptions() host.Options {
	return host.Options{
		Home:            s.opts.Home,
		Environ:         s.opts.Environ,
		Secrets:         s.secretStore(),
		Redact:          s.opts.Redact,
		Emitter:         s.opts.events(),
		Elicitor:        s.opts.Elicitor,
		URLElicitation:  s.opts.URLElicitation,
		Sampler:         s.opts.Sampler,
		Roots:           s.opts.Roots,
		SandboxLauncher: s.opts.Sandbox.Launcher,
		SandboxProject:  s.opts.Sandbox.Project,
		CallCap:         s.opts.CallCap,
		ClientVersion:   s.opts.Version,
		Timeouts:        s.opts.Timeouts,
		Wire:            s.opts.Wire,
		LogLevel:        s.opts.LogLevel,
		Reconnect:       s.opts.Reconnect,
	}
}

// Wire is the session's wire recorder (nil when nothing is recorded): a
// protocol view subscribes to it.
func (s *Session) Wire() *wire.Hub { return s.opts.Wire }

// hostServer is srv as host connects it: a stdio server by its approved
// resolution, a network one by the url the guard admitted (the guard is
// made on first need and kept in opts), expanded with the values bound
// to its origin (urls.go) and shown as written.
func (s *Session) hostServer(srv config.Server, byName map[string]*consent.Resolved, bound []string, opts *host.Options) (host.Endpoint, error) {
	hs := host.Endpoint{Name: srv.Name, Transport: srv.Transport, ConnectTimeout: srv.ConnectTimeout, CallTimeout: srv.CallTimeout, ToolsAllowlist: srv.ToolsAllowlist, ToolsDenylist: srv.ToolsDenylist, Protocol: srv.Protocol,
		BoundSecrets: bound}
	if srv.Transport == host.TransportStdio {
		hs.Stdio = byName[srv.Name]
		return hs, nil
	}
	if opts.Guard == nil {
		opts.Guard = s.guard()
	}
	dial, err := s.dialURL(srv, bound)
	if err != nil {
		return hs, withSource(err, srv)
	}
	if dial != srv.URL {
		hs.URL = srv.URL
	}
	t, err := opts.Guard.Admit(dial, srv.Transport, srv.AllowLocalEndpoint)
	if err != nil {
		return hs, withSource(s.adhocRefusal(err, srv), srv)
	}
	hs.Target = t
	for _, h := range srv.Headers {
		hs.Headers = append(hs.Headers, host.Header{Name: h.Name, Value: h.Value})
	}
	hs.OAuth = asHandler(s.oauthHandler(srv, opts.Guard, s.opts.SignIn))
	return hs, nil
}

// headersHelper is srv's approved headers helper as host runs it: the
// line, shell and cwd its consent digest names; CLAUDE_CODE_MCP_SERVER_URL
// is the url as written when it holds references (a value it carries goes
// only to its origin), else the url dialled. A helper with no approved
// decision (its shell not found on PATH, E304) fails the server: it never
// connects without the headers its declaration asks for.
func (s *Session) headersHelper(srv config.Server, hs host.Endpoint, decs []consent.BindingDecision) (*headers.Helper, error) {
	b := helperOf(srv, decs)
	if b == nil {
		path, _ := s.opts.LookupEnv("PATH")
		u, _ := originURL(srv, s.opts.LookupEnv, s.typedValue)
		if _, err := consent.NewHeadersHelper(srv.Name, srv.Pos.String(), srv.HeadersHelper, "sh", srv.HelperDir, u, path); err != nil {
			return nil, withSource(err, srv)
		}
		return nil, withSource(&consent.Error{ErrCode: consent.CodeDenied, Msg: "server " + consent.Display(srv.Name) + ": its headers helper is not approved, so it is not connected"}, srv)
	}
	u := hs.URL
	if u == "" {
		u = hs.Target.URL()
	}
	return &headers.Helper{Line: b.Helper.Line, Shell: b.Helper.Shell, Cwd: b.Helper.Cwd, URL: u, Timeout: s.opts.HelperTimeout}, nil
}

// ask puts one pending stdio server to the Asker and records the answer
// through the session's Decider. End of input, and anything but an
// approval, is a denial.
func (s *Session) ask(ctx context.Context, d consent.Decision) (bool, error) {
	a, err := s.opts.Asker.Consent(ctx, d)
	if err != nil {
		return false, err
	}
	if err := s.Record(d.Server, a); err != nil {
		return false, err
	}
	s.opts.Asker.Recorded(d, a)
	return a == ApproveRemember || a == ApproveOnce, nil
}

// Record records the person's answer for the resolved server r: remember
// writes a grant; once and deny hold for this session only. A server
// added at run time (Declare) is never remembered: remember is once.
func (s *Session) Record(r *consent.Resolved, a Answer) error {
	if a == ApproveRemember && s.decl.isAdhoc(r.Name) {
		a = ApproveOnce
	}
	switch a {
	case ApproveRemember:
		return s.decider.Remember(r)
	case ApproveOnce:
		s.decider.ApproveOnce(r.Digest)
	default:
		s.decider.Deny(r.Digest)
	}
	return nil
}

// warnStore says, once, that the grant store could not be trusted when no
// question or pending list is there to say it (every server was approved
// some other way, e.g. --allow-mcp-stdio): a fold failure is never silent.
func (s *Session) warnStore(decisions []consent.Decision) {
	for _, d := range decisions {
		if d.StoreErr != nil {
			s.warn(fmt.Sprintf("no remembered consent grant was trusted: %s", sanitize.Line(d.StoreErr.Error())))
			return
		}
	}
}

// warn passes a warning to Options.Warn, if any.
func (s *Session) warn(msg string) {
	if s.opts.Warn != nil {
		s.opts.Warn(msg)
	}
}

// Using is the session with events going to em and elicitation answered by
// el, sharing its declarations and Decider; it asks no one (a server still
// needing consent fails its connect) and warns no one.
func (s *Session) Using(em engine.Emitter, el engine.Elicitor) *Session {
	c := *s
	c.opts.Events, c.opts.Asker, c.opts.Warn = em, nil, nil
	if el != nil {
		c.opts.Elicitor = el
	}
	return &c
}

// Redactor is the session's one redactor (Options.Redact).
func (s *Session) Redactor() *redact.Set { return s.opts.Redact }

// Home is the relavium home the session reads and writes.
func (s *Session) Home() string { return s.opts.Home }
