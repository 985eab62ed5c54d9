package tui

import (
	"encoding/json"

	"github.com/relavium/relavium/tui/asker"
	"github.com/relavium/relavium/tui/render"

	"github.com/charmbracelet/bubbles/key"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/tui/dialog"
)

// The workbench's questions as dialogs (package tui/dialog draws them and
// takes their keys), and the actions each answer comes back as; apply
// (update_backend.go) carries them out.

// pendingCall is a call waiting for the person's go-ahead.
type pendingCall struct {
	tool  engine.ToolDef
	args  json.RawMessage
	task  bool // as a task (tasks.go)
	bench bool // a load: the rate and duration are asked next (bench.go)
}

// consentAction is the person's answer to a consent dialog.
type consentAction struct {
	server string
	answer backend.Answer
}

// toolConfirmAction answers a tool call's confirmation.
type toolConfirmAction struct {
	call   pendingCall
	allow  bool
	always bool // remember an approval of this exact definition
}

// acceptAction accepts tool's definition as it is now.
type acceptAction struct{ tool engine.ToolDef }

// secretsAction carries the secrets typed for a server's inputs.
type secretsAction struct {
	server string
	values map[string]string
}

// elicitAction answers an elicitation request.
type elicitAction struct {
	req  *asker.Request
	resp engine.ElicitResponse
}

func newConsentDialog(d consent.Decision) *dialog.Consent {
	name := d.Server.Name
	return dialog.NewConsent(d, consentAction{server: name, answer: backend.ApproveRemember},
		consentAction{server: name, answer: backend.ApproveOnce}, consentAction{server: name, answer: backend.DenyConsent})
}

// newToolConfirmDialog asks before call runs (or its replay), "no" focused.
func newToolConfirmDialog(call pendingCall) *dialog.ToolConfirm {
	return &dialog.ToolConfirm{Tool: call.tool, Args: call.args, Focus: 2,
		Once:   toolConfirmAction{call: call, allow: true},
		Always: toolConfirmAction{call: call, allow: true, always: true},
		No:     toolConfirmAction{call: call}}
}

// newAcceptDialog shows a flagged tool's field diff, "not now" focused.
func newAcceptDialog(tool engine.ToolDef, changes []discovery.FieldChange) *dialog.Accept {
	return &dialog.Accept{Tool: tool, Changes: changes, Focus: 1, Yes: acceptAction{tool: tool},
		No: statusAction{text: tool.Name + " stays flagged until you accept its definition"}}
}

func newElicitDialog(st *themes.Styles, rawJSON key.Binding, r *asker.Request) *dialog.Elicit {
	return dialog.NewElicit(st, r.Elicit, rawJSON, func(resp engine.ElicitResponse) dialog.Action {
		return elicitAction{req: r, resp: resp}
	})
}

// dialogLayer is the overlay: the dialog stack, the guard that times keys
// against the dialog on top, and the servers whose consent waits its turn.
type dialogLayer struct {
	stack        dialog.Stack
	guard        dialog.Guard
	consentQueue []string
}

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
