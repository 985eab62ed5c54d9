package session

import (
	"context"
	"slices"
	"strings"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/secrets"
)

// A network server's header that names {{secrets.NAME}} sends a secret
// of the person's stores to the server's origin: it may do so only once
// that secret is bound to that origin (package consent's secret
// bindings). The session decides every binding with its Decider, puts a
// pending one to the Asker (or refuses headless with the stdio servers in
// one PendingError, E323 when only bindings are pending), and tells host
// which secrets each server may carry (Endpoint.BoundSecrets), which host
// enforces again before reading any value.

// A server of another client's file whose url names a loopback or
// private address (config.Server.LocalHeld) is decided the same way: its
// local endpoint (consent.NewLocalEndpoint) is one more binding, and only
// an approved one lets the guard open that host:port (localOpened).

// BindingsOf lists the binding of every secret a declared network
// server's headers name, and of every value its url's path or query
// carries (a {{secrets.NAME}}, or an {{env.VAR}} bound as env.VAR, the
// carrier "url"): one per (server, name), with what carries it, after
// the server's held local endpoint if it has one. The origin is the
// url's, its own references expanded from lookupEnv (the person's
// environment choosing where to go). A server whose url has no origin has
// none (the guard refuses it when it is admitted).
func BindingsOf(servers []config.Server, lookupEnv func(string) (string, bool)) []*consent.Binding {
	return bindingsOf(servers, lookupEnv, nil)
}

// bindingsOf is BindingsOf, a host the person types (TypedHost) read by
// typed: the origin of the bindings of a server whose host is typed is
// known once it is typed (nil: never, so such a server has none yet).
func bindingsOf(servers []config.Server, lookupEnv, typed func(string) (string, bool)) []*consent.Binding {
	var out []*consent.Binding
	for _, srv := range servers {
		if srv.Transport == host.TransportStdio {
			continue
		}
		if u, ok := originURL(srv, lookupEnv, typed); ok && srv.LocalHeld && !srv.AllowLocalEndpoint {
			if b, err := consent.NewLocalEndpoint(srv.Name, srv.Pos.String(), u); err == nil {
				out = append(out, b)
			}
		}
		if srv.HeadersHelper != "" {
			if u, ok := originURL(srv, lookupEnv, typed); ok {
				path := ""
				if lookupEnv != nil {
					path, _ = lookupEnv("PATH")
				}
				if b, err := consent.NewHeadersHelper(srv.Name, srv.Pos.String(), srv.HeadersHelper, "sh", srv.HelperDir, u, path); err == nil {
					out = append(out, b)
				}
			}
		}
		carriers := map[string][]string{}
		var order []string
		carry := func(name, by string) {
			if _, seen := carriers[name]; !seen {
				order = append(order, name)
			}
			if !slices.Contains(carriers[name], by) {
				carriers[name] = append(carriers[name], by)
			}
		}
		for _, h := range srv.Headers {
			_, refs, ok := consent.SecretTemplate(h.Value)
			if !ok {
				continue // refused as a header when it is resolved (E594)
			}
			for _, ref := range refs {
				carry(ref, h.Name)
			}
		}
		for _, name := range urlCarried(srv) {
			carry(name, consent.URLCarrier)
		}
		if len(order) == 0 {
			continue
		}
		u, ok := originURL(srv, lookupEnv, typed)
		if !ok {
			continue
		}
		for _, name := range order {
			b, err := consent.NewBinding(srv.Name, name, u, carriers[name])
			if err != nil {
				continue
			}
			out = append(out, b)
		}
	}
	return out
}

// decideBindings decides every declared binding (an --allow-secret value
// is checked against all of them) and returns the decisions and those of
// the selected servers still needing consent whose secret is in a store
// (one that is in none fails its connect with E520 naming it: there is
// nothing to bind).
func (s *Session) decideBindings(servers []config.Server, selected func(string) bool) (decs, pending []consent.BindingDecision, err error) {
	decs, err = s.decider.DecideBindings(s.bindingsOf(servers))
	if err != nil {
		return nil, nil, err
	}
	store := s.secretStore()
	em := s.opts.events()
	for _, d := range decs {
		if d.State != consent.NeedsConsent || !selected(d.Binding.Server) {
			continue
		}
		if d.Binding.IsSecret() && !s.holds(store, d.Binding.Secret) {
			continue
		}
		pending = append(pending, d)
		em.Emit(engine.Event{Type: engine.EventServer, Data: engine.ServerData{Server: d.Binding.Server, State: engine.StateNeedsConsent,
			Transport: transportOf(servers, d.Binding.Server), Digest: d.Binding.Digest}})
	}
	return decs, pending, nil
}

// bindingsOf is every declared binding with the session's environment and
// typed values.
func (s *Session) bindingsOf(servers []config.Server) []*consent.Binding {
	return bindingsOf(servers, s.opts.LookupEnv, s.typedValue)
}

// holds reports whether there is a value to bind under name: a secret in
// a store, or (env.VAR) a variable set in the session's environment. One
// with none fails its connect naming it (E520, E880): nothing to bind.
func (s *Session) holds(store secrets.SecretStore, name string) bool {
	if v, ok := strings.CutPrefix(name, consent.EnvBindingPrefix); ok {
		val, set := "", false
		if s.opts.LookupEnv != nil {
			val, set = s.opts.LookupEnv(v)
		}
		return set && val != ""
	}
	_, ok, err := store.Secret(name)
	return err == nil && ok
}

// askBindings puts each pending binding to the Asker (a digest answered
// once is not asked again for a second server) and returns the servers
// whose binding was denied.
func (s *Session) askBindings(ctx context.Context, decs, pending []consent.BindingDecision) (map[string]*consent.Binding, error) {
	denied := map[string]*consent.Binding{}
	for _, d := range decs {
		if d.State == consent.Denied {
			denied[d.Binding.Server] = d.Binding
		}
	}
	answered := map[string]bool{}
	for _, d := range pending {
		if ok, seen := answered[d.Binding.Digest]; seen {
			if !ok {
				denied[d.Binding.Server] = d.Binding
			}
			continue
		}
		a, err := s.opts.Asker.Bind(ctx, d)
		if err != nil {
			return nil, err
		}
		if err := s.RecordBinding(d.Binding, a); err != nil {
			return nil, err
		}
		s.opts.Asker.BindRecorded(d, a)
		ok := a == ApproveRemember || a == ApproveOnce
		answered[d.Binding.Digest] = ok
		if !ok {
			denied[d.Binding.Server] = d.Binding
		}
	}
	return denied, nil
}

// RecordBinding records the person's answer to a binding: remember writes
// a grant; once and deny hold for this session only.
func (s *Session) RecordBinding(b *consent.Binding, a Answer) error {
	switch a {
	case ApproveRemember:
		return s.decider.RememberBinding(b)
	case ApproveOnce:
		s.decider.ApproveOnce(b.Digest)
	default:
		s.decider.Deny(b.Digest)
	}
	return nil
}

// Bindings decides every declared binding afresh (a face that asks in its
// own way, the workbench, reads them before a connect).
func (s *Session) Bindings() ([]consent.BindingDecision, error) {
	return s.decider.DecideBindings(s.bindingsOf(s.decl.all()))
}

// boundSecrets are the secrets decs approve for server.
func boundSecrets(server string, decs []consent.BindingDecision) []string {
	var out []string
	for _, d := range decs {
		if d.Binding.Server == server && d.State == consent.Approved && d.Binding.IsSecret() {
			out = append(out, d.Binding.Secret)
		}
	}
	return out
}

// helperOf is srv's headers helper as host runs it, when the person
// approved it (nil otherwise: a server whose helper is not approved is not
// connected, E301/denied, so nil here means it has none).
func helperOf(srv config.Server, decs []consent.BindingDecision) *consent.Binding {
	for _, d := range decs {
		if d.Binding.Helper != nil && d.Binding.Server == srv.Name && d.State == consent.Approved {
			return d.Binding
		}
	}
	return nil
}

// localOpened reports whether srv's url may be dialled at its loopback or
// private address: the author's allow_local_endpoint (relavium's own
// config, or --allow-local on config import), or, for a server held for
// the person's word, an approved local-endpoint decision.
func localOpened(srv config.Server, decs []consent.BindingDecision) bool {
	if srv.AllowLocalEndpoint {
		return true
	}
	for _, d := range decs {
		if d.Binding.Local && d.Binding.Server == srv.Name {
			return d.State == consent.Approved
		}
	}
	return false
}

// secretStore is the session's chain of secret stores: typed in this
// session, then RELAVIUM_SECRET_*, then the home's secrets file.
func (s *Session) secretStore() secrets.SecretChain {
	return secrets.SecretChain{s.given, secrets.EnvSecrets{LookupEnv: s.opts.LookupEnv}, secrets.NewFileSecrets(s.opts.Home)}
}

func transportOf(servers []config.Server, name string) string {
	for _, srv := range servers {
		if srv.Name == name {
			return srv.Transport
		}
	}
	return ""
}

// bindFor decides, asks (or refuses headless) and returns the secrets
// bound for the one server name, and whether its url may be dialled at a
// loopback or private address (localOpened): the path of a connect that
// is not admit's (a sign-in).
func (s *Session) bindFor(ctx context.Context, servers []config.Server, name string) ([]string, bool, error) {
	only := func(n string) bool { return n == name }
	decs, pending, err := s.decideBindings(servers, only)
	if err != nil {
		return nil, false, err
	}
	if err := consent.RequireAll(nil, pending, s.opts.Asker != nil); err != nil {
		return nil, false, err
	}
	denied, err := s.askBindings(ctx, decs, pending)
	if err != nil {
		return nil, false, err
	}
	if b := denied[name]; b != nil {
		return nil, false, consent.BindingDeniedError(b)
	}
	if len(pending) > 0 {
		if decs, err = s.decider.DecideBindings(s.bindingsOf(servers)); err != nil {
			return nil, false, err
		}
	}
	for _, srv := range servers {
		if srv.Name == name {
			return boundSecrets(name, decs), localOpened(srv, decs), nil
		}
	}
	return boundSecrets(name, decs), false, nil
}

// ReaskBindings forgets this session's denials of server's secret
// bindings, so its next connect asks again (the workbench's a on a
// denied network server).
func (s *Session) ReaskBindings(server string) {
	for _, b := range s.bindingsOf(s.decl.all()) {
		if b.Server == server {
			s.decider.Reask(b.Digest)
		}
	}
}
