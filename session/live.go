package session

import (
	"context"
	"fmt"
	"slices"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/netguard"
)

// Live is a session whose servers connect, disconnect and reconnect one at
// a time while it runs, over one host whose server set changes: one
// catalogue, one tool lookup, ids that stay while a connection stays.
// The workbench sits on it.
type Live struct {
	s     *Session
	guard *netguard.Guard
	h     *host.Host
}

// Open starts the session's host with no server in it; Connect adds them.
// It asks no one: consent is the face's to ask before Connect (Decide,
// Record), and a server still needing it fails its connect (E301).
func (s *Session) Open(ctx context.Context) (*Live, error) {
	live := &Session{opts: s.opts, decl: s.decl, decider: s.decider, given: s.given}
	live.opts.Asker, live.opts.Warn = nil, nil
	opts := live.hostOptions()
	opts.Guard = live.guard() // every url this session connects is admitted by it
	h, err := host.Start(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &Live{s: live, h: h, guard: opts.Guard}, nil
}

// Session is the session the live host connects for.
func (l *Live) Session() *Session { return l.s }

// Host is the one host: its catalogue, calls, browsing, accept.
func (l *Live) Host() *host.Host { return l.h }

// Connect connects one declared server: resolved and decided (a stdio
// server only once consent approved it), admitted by the guard, then added
// to the host. A server in the set already is left as it is.
func (l *Live) Connect(ctx context.Context, name string) error {
	if !l.s.declared(name) {
		return fmt.Errorf("no server %q is declared in this session", name)
	}
	if l.h.Has(name) {
		if !l.h.Failed(name) {
			return nil
		}
		// A server that failed while it ran (it exited, or its session was
		// lost) is connected afresh: out of the set, then in again.
		if err := l.h.Remove(name); err != nil {
			return err
		}
	}
	opts, err := l.s.admit(ctx, func(n string) bool { return n == name }, l.guard)
	if err != nil {
		return err
	}
	if len(opts.Servers) == 0 && len(opts.NotStarted) > 0 {
		ns := opts.NotStarted[0]
		return &consent.Error{ErrCode: ns.Code, Msg: fmt.Sprintf("%s was not started: %s", ns.Name, ns.Reason)}
	}
	return l.h.Add(ctx, opts.Servers[0])
}

// Disconnect takes one server out (a connect under way is called off) and
// returns once its processes are reaped.
func (l *Live) Disconnect(name string) error { return l.h.Remove(name) }

// Close tears every server down (children reaped).
func (l *Live) Close() error { return l.h.Close() }

// Catalogue is every connected server's admitted and skipped tools, in
// declaration order of the servers (whatever order they connected in),
// then each server's own order.
func (l *Live) Catalogue() ([]engine.ToolDef, []engine.SkippedTool) {
	rank := map[string]int{}
	for i, srv := range l.s.decl.all() {
		rank[srv.Name] = i
	}
	tools, skipped := l.h.Tools(), l.h.Skipped()
	slices.SortStableFunc(tools, func(a, b engine.ToolDef) int { return rank[a.Server] - rank[b.Server] })
	slices.SortStableFunc(skipped, func(a, b engine.SkippedTool) int { return rank[a.Server] - rank[b.Server] })
	return tools, skipped
}

func (s *Session) declared(name string) bool {
	for _, srv := range s.decl.all() {
		if srv.Name == name {
			return true
		}
	}
	return false
}
