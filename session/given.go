package session

import (
	"slices"
	"sync"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/host"
)

// givenSecrets are the secrets a person typed in this session (a VS Code
// input an imported server names, asked for by the workbench): kept in
// memory for the session only, never written, consulted before the
// environment and the secrets file.
type givenSecrets struct {
	mu   sync.Mutex
	vals map[string]string
	by   map[string][]string // server → the names typed for it
}

// Secret implements secrets.SecretStore.
func (g *givenSecrets) Secret(name string) (string, bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	v, ok := g.vals[name]
	return v, ok, nil
}

// typedFor are the secrets typed for server so far.
func (g *givenSecrets) typedFor(server string) []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.by[server])
}

// typed notes that name was typed for server.
func (g *givenSecrets) typed(server, name string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.by == nil {
		g.by = map[string][]string{}
	}
	if !slices.Contains(g.by[server], name) {
		g.by[server] = append(g.by[server], name)
	}
}

func (g *givenSecrets) set(name, value string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.vals == nil {
		g.vals = map[string]string{}
	}
	g.vals[name] = value
}

// ProvideSecret gives this session the value of {{secrets.name}}, typed
// by the person for server: the next connect of a server that names it
// injects it (and redacts it wherever the server's text would show it), as
// a stored secret would be. The typing binds the secret to server's origin
// for this session (a network server's; a stdio server's env is bound by
// its consent); another origin is asked about as for a stored secret.
func (s *Session) ProvideSecret(server, name, value string) {
	s.given.set(name, value)
	s.given.typed(server, name)
	s.opts.Redact.Add(name, value)
	for _, srv := range s.decl.all() {
		if srv.Name == server && srv.Transport != host.TransportStdio {
			u, _ := s.originOf(srv)
			origin, err := consent.Origin(u)
			if err != nil {
				continue // a host not typed yet: bound once it is (below)
			}
			// Everything typed for this server is bound to its origin now:
			// a host typed after a token makes the origin the token's
			// typing meant.
			for _, typed := range s.given.typedFor(server) {
				_ = s.decider.BindTyped(typed, origin) // a name SecretRef accepts always has a digest
			}
		}
	}
}
