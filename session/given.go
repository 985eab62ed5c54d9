package session

import "sync"

// givenSecrets are the secrets a person typed in this session (a VS Code
// input an imported server names, asked for by the workbench): kept in
// memory for the session only, never written, consulted before the
// environment and the secrets file.
type givenSecrets struct {
	mu   sync.Mutex
	vals map[string]string
}

// Secret implements host.SecretStore.
func (g *givenSecrets) Secret(name string) (string, bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	v, ok := g.vals[name]
	return v, ok, nil
}

func (g *givenSecrets) set(name, value string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.vals == nil {
		g.vals = map[string]string{}
	}
	g.vals[name] = value
}

// ProvideSecret gives this session the value of {{secrets.name}}: the next
// connect of a server that names it injects it (and redacts it wherever
// the server's text would show it), as a stored secret would be.
func (s *Session) ProvideSecret(name, value string) { s.given.set(name, value) }
