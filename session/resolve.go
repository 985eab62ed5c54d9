package session

import (
	"fmt"
	"strings"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/sandbox"
)

// resolveStdio resolves every declared stdio server: the absolute command
// its digest names and that is later spawned. A server that does not
// resolve is in failed (the error names its source), not in resolved.
func (s *Session) resolveStdio() (resolved []*consent.Resolved, byName map[string]*consent.Resolved, failed map[string]error) {
	byName, failed = map[string]*consent.Resolved{}, map[string]error{}
	for _, srv := range s.decl.all() {
		if srv.Transport != host.TransportStdio {
			continue
		}
		r, err := consent.Resolve(Declaration(srv, s.opts.Sandbox), s.opts.getenv("PATH"))
		if err != nil {
			failed[srv.Name] = withSource(err, srv)
			continue
		}
		resolved = append(resolved, r)
		byName[srv.Name] = r
	}
	return resolved, byName, failed
}

// Resolved returns the resolution of one declared stdio server.
func (s *Session) Resolved(name string) (*consent.Resolved, error) {
	for _, srv := range s.decl.all() {
		if srv.Name == name && srv.Transport == host.TransportStdio {
			r, err := consent.Resolve(Declaration(srv, s.opts.Sandbox), s.opts.getenv("PATH"))
			if err != nil {
				return nil, withSource(err, srv)
			}
			return r, nil
		}
	}
	return nil, fmt.Errorf("no stdio server %q is declared", name)
}

// Declaration is a config server as consent resolves it: every stdio
// server has a sandbox (the default one when its declaration says
// nothing). Every command that prints or grants a digest resolves through
// here, so the digest it shows is the one a session asks about.
func Declaration(s config.Server, sb Sandboxing) consent.Declaration {
	env := make([]consent.EnvVar, len(s.Env))
	for i, e := range s.Env {
		env[i] = consent.EnvVar{Name: e.Name, Value: e.Value}
	}
	decl := sandbox.Decl{}
	if s.Sandbox != nil {
		decl = *s.Sandbox
	}
	return consent.Declaration{Name: s.Name, Command: s.Command, Args: s.Args, Env: env, Cwd: s.Dir,
		Sandbox: &decl, Home: sb.UserHome, EnvFile: s.EnvFile, Getenv: sb.Getenv}
}

// anyDeclared reports whether a pending server comes from a config or agent
// file (which `consent grant` can remember), not the demo or an ad-hoc
// --stdio server (which carry no source position).
func (s *Session) anyDeclared(pending []consent.Decision) bool {
	for _, d := range pending {
		for _, srv := range s.decl.all() {
			if srv.Name == d.Server.Name && srv.Pos.File != "" {
				return true
			}
		}
	}
	return false
}

// adhocOptIn rewords the guard's remedies for the ad-hoc --url server,
// whose local opt-in is the --allow-local-endpoint flag, not a config field
// a person would look for and not find.
var adhocOptIn = strings.NewReplacer(
	"the server does not set allow_local_endpoint", "--allow-local-endpoint was not given",
	"set allow_local_endpoint = true on this server", "pass --allow-local-endpoint",
	"set allow_local_endpoint = true", "pass --allow-local-endpoint",
	"declared local (allow_local_endpoint)", "opted in with --allow-local-endpoint",
)

// adhocRefusal is err, with the remedy of a guard refusal of the ad-hoc
// --url server in the flag's terms.
func (s *Session) adhocRefusal(err error, srv config.Server) error {
	ge, ok := netguard.AsRefusal(err)
	if !ok || srv.Pos.File != "" || !(s.decl.isAdhoc(srv.Name) || s.opts.AdhocName != "" && srv.Name == s.opts.AdhocName) {
		return err
	}
	r := *ge
	r.Msg, r.Remedy = adhocOptIn.Replace(r.Msg), adhocOptIn.Replace(r.Remedy)
	return &r
}
