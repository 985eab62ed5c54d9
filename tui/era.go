package tui

import (
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/tui/render"
)

// eraDetails are the server dialog's lines that say which protocol era the
// connection runs (with auto: that it was negotiated) and what that means
// for the features that differ between eras: elicitation, logs, sampling.
func (p *serversPane) eraDetails(r *serverRow, w int) []string {
	era := host.EraOf(r.protocol)
	if era == nil || r.state != engine.StateReady {
		return nil
	}
	st := p.st
	head := "protocol " + r.protocol + " · " + era.Name + " era"
	if r.spec.Protocol == host.ProtocolAuto {
		head += " (negotiated: protocol = auto)"
	}
	var out []string
	add := func(s string) { out = append(out, render.WrapIndent(s, w, "  ")...) }
	add(st.Accent.Render(render.ServerLine(head)))
	add(st.Muted.Render("elicitation: " + era.Elicitation))
	add(st.Muted.Render("logs: " + era.Logs))
	add(st.Muted.Render("sampling: " + era.Sampling))
	return out
}
