package session

import (
	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
)

// HeadlessNeeds is what a headless `mcp call` of a tool needs on its
// command line to run as it stands, in a new process that asks no one:
// what this session approved for itself only (approve once, an
// --allow-mcp-stdio or --allow-secret of its own invocation, a secret's
// origin bound by typing) does not carry over; what is remembered in the
// home does.
type HeadlessNeeds struct {
	// Yes: the call would be asked about (consent.ClearCall clears it
	// neither by tools_auto_approve nor by a remembered approval of this
	// definition), so --yes.
	Yes bool `json:"yes"`
	// AllowStdio is the digest to pass with --allow-mcp-stdio: the tool's
	// declared stdio server is approved by no remembered grant ("" when it
	// is, and for any other server), or of its network server's headers
	// helper.
	AllowStdio string `json:"allow_mcp_stdio,omitempty"`
	// AllowSecret are the NAME@ORIGIN values to pass with --allow-secret:
	// the secrets its network server's headers send, bound by no
	// remembered grant.
	AllowSecret []string `json:"allow_secret,omitempty"`
	// AllowLocal are the server names to pass with --allow-local: its
	// server's loopback or private address, held, that no remembered
	// grant approves.
	AllowLocal []string `json:"allow_local,omitempty"`
}

// Headless decides, as a headless invocation would, what a call of def
// needs on the command line: the same decisions (Clearance, and a Decider
// over the home's grants with nothing approved on its command line) that
// `mcp call` makes, never derived again. adhoc is the call reaching its
// server with --stdio or --url (no remembered approvals, no
// tools_auto_approve; a typed --stdio command needs no digest).
func (s *Session) Headless(def engine.ToolDef, adhoc bool) (HeadlessNeeds, error) {
	var out HeadlessNeeds
	cleared, err := s.Clearance(def, false, adhoc)
	if err != nil {
		return out, err
	}
	out.Yes = cleared == ""
	if adhoc {
		return out, nil
	}
	fresh := consent.NewDecider(consent.Open(s.opts.Home), nil, s.opts.Now)
	for _, srv := range s.decl.all() {
		if srv.Name != def.Server {
			continue
		}
		if srv.Transport == host.TransportStdio {
			r, err := s.Resolved(srv.Name)
			if err != nil {
				return out, err
			}
			ds, err := fresh.Decide([]*consent.Resolved{r})
			if err != nil {
				return out, err
			}
			if len(ds) == 1 && ds[0].Why != consent.ByGrant {
				out.AllowStdio = r.Digest
			}
			continue
		}
		bds, err := fresh.DecideBindings(s.bindingsOf(s.decl.all()))
		if err != nil {
			return out, err
		}
		for _, d := range bds {
			switch {
			case d.Binding.Server != srv.Name || d.Why == consent.ByGrant:
			case d.Binding.Local:
				out.AllowLocal = append(out.AllowLocal, d.Binding.Server)
			case d.Binding.Helper != nil:
				out.AllowStdio = d.Binding.Digest // a headers helper is a local program
			default:
				out.AllowSecret = append(out.AllowSecret, d.Binding.Flag())
			}
		}
	}
	return out, nil
}
