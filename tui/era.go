package tui

import (
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/era"
	"github.com/relavium/relavium/tui/render"
)

// eraDetails are the server dialog's lines that say which protocol era the
// connection runs (with auto: that it was negotiated) and what that means
// for the features that differ between eras: elicitation, logs, sampling.
func (p *serversPane) eraDetails(r *serverRow, w int) []string {
	e := era.EraOf(r.protocol)
	if e == nil || r.state != engine.StateReady {
		return nil
	}
	st := p.st
	head := "protocol " + r.protocol + " · " + e.Name + " era"
	if r.spec.Protocol == era.ProtocolAuto {
		head += " (negotiated: protocol = auto)"
	}
	var out []string
	add := func(s string) { out = append(out, render.WrapIndent(s, w, "  ")...) }
	add(st.Accent.Render(render.ServerLine(head)))
	add(st.Muted.Render("elicitation: " + e.Elicitation))
	add(st.Muted.Render("logs: " + e.Logs))
	add(st.Muted.Render("sampling: " + e.Sampling))
	return out
}
