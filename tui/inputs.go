package tui

import (
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/tui/dialog"
	"github.com/relavium/relavium/tui/render"
)

// askInputs opens the secret prompt for a server whose connect failed for
// want of a secret that its file (VS Code's inputs) says to ask for: once
// per failure, so cancelling leaves the row failed with its reason, and r
// (reconnect) asks again if it fails again.
func (m *Model) askInputs(r *serverRow) {
	if r.asked || r.errCode != failure.CodeSecretMissing || len(r.spec.Inputs) == 0 {
		return
	}
	r.asked = true
	server := r.spec.Name
	if m.dialogs.stack.Any(func(d dialog.Dialog) bool { s, ok := d.(*dialog.Secret); return ok && s.Server == server }) {
		return // already asking (the failure was told twice: its event and the connect's answer)
	}
	fields := make([]dialog.SecretField, len(r.spec.Inputs))
	for i, in := range r.spec.Inputs {
		fields[i] = dialog.SecretField{ID: in.ID, Label: in.Description}
	}
	m.pushDialog(&dialog.Secret{Title: "Secrets for " + render.ServerLine(server), Server: server, Fields: fields,
		Answer: func(v map[string]string) dialog.Action { return secretsAction{server: server, values: v} }})
}
