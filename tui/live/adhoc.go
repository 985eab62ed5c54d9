package live

import (
	"github.com/relavium/relavium/session"
	"github.com/relavium/relavium/tui/backend"
)

// DeclareAdhoc implements adhocBackend: the server joins the session's
// declarations (adhoc, adhoc-2, …); a command runs in the project.
func (l *Adapter) DeclareAdhoc(line string) (backend.ServerSpec, error) {
	srv, err := session.ParseAdhoc(line, l.project)
	if err != nil {
		return backend.ServerSpec{}, err
	}
	srv.Name = l.core.Declare(srv)
	return backend.ServerSpec{Name: srv.Name, Transport: srv.Transport, Target: target(srv), Adhoc: true, AllowLocal: srv.AllowLocalEndpoint}, nil
}
