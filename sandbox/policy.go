package sandbox

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Network is what a sandboxed server may reach.
type Network string

// Network modes, from tightest to loosest.
const (
	// NetNone: no network at all (TCP refused by Landlock, and a network
	// namespace of its own with nothing in it where the kernel allows one).
	NetNone Network = "none"
	// NetGuarded: TCP only to relavium's local CONNECT proxy, which admits
	// each target through the network guard.
	NetGuarded Network = "guarded"
	// NetOpen: the network is not confined.
	NetOpen Network = "open"
)

// rank orders the modes by how much they allow.
func (n Network) rank() int {
	switch n {
	case NetNone:
		return 0
	case NetGuarded:
		return 1
	}
	return 2
}

// Valid reports whether n is one of the three modes.
func (n Network) Valid() bool { return n == NetNone || n == NetGuarded || n == NetOpen }

// Decl is a server's authored sandbox.
//   - The zero Decl is the default: confined with the default policy.
//   - Off is `sandbox = false`: not confined (shown, and in the digest).
//   - Required is `sandbox = "required"` (or required = true in the table):
//     the defaults, and refuse to start where the machine cannot confine.
//   - Read and Write add paths (relative ones against the server's cwd, so
//     write = ["."] makes the cwd writable); Network sets the mode ("" is
//     open); Allow is host:port targets a guarded server may reach even
//     when the guard would refuse their address (a private or loopback one).
type Decl struct {
	Off      bool     `json:"off,omitempty"`
	Required bool     `json:"required,omitempty"`
	Read     []string `json:"read,omitempty"`
	Write    []string `json:"write,omitempty"`
	Network  Network  `json:"network,omitempty"`
	Allow    []string `json:"allow,omitempty"`
}

// Policy is a server's effective sandbox: what the consent digest covers,
// what every surface shows and what sandbox-exec applies.
type Policy struct {
	// Enabled is false for `sandbox = false`; nothing below applies then.
	Enabled bool `json:"enabled"`
	// Required: refuse to start where the machine cannot confine.
	Required bool `json:"required,omitempty"`
	// Read are the paths the server may read (and execute) below.
	Read []string `json:"read"`
	// Write are the paths the server may read and write below.
	Write []string `json:"write"`
	// Tmp: a private temp dir of its own (TMPDIR), writable, removed with it.
	Tmp bool `json:"tmp"`
	// Project: the project directory may be read, whichever it is.
	Project bool `json:"project"`
	// Roots: the roots the session offers servers may be written, whichever
	// they are (so --root does not change what was consented to: writing
	// the roots the person chose).
	Roots bool `json:"roots"`
	// Network is the network mode; Allow the guarded exceptions.
	Network Network  `json:"network"`
	Allow   []string `json:"allow"`
}

// Off is the policy of `sandbox = false`.
func Off() Policy { return Policy{Network: NetOpen} }

// Digested is the policy's canonical form inside the consent digest: a
// value package canonjson encodes. Required is left out (it decides
// whether to start, not what the server may touch).
func (p Policy) Digested() map[string]any {
	if !p.Enabled {
		return map[string]any{"enabled": false}
	}
	return map[string]any{
		"enabled": true,
		"read":    nonNil(p.Read),
		"write":   nonNil(p.Write),
		"tmp":     p.Tmp,
		"project": p.Project,
		"roots":   p.Roots,
		"network": string(p.Network),
		"allow":   nonNil(p.Allow),
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Marshal is the policy's JSON (what sandbox-exec reads and what a grant
// line keeps for the next diff).
func (p Policy) Marshal() []byte {
	b, _ := json.Marshal(p) // a struct of strings and bools cannot fail
	return b
}

// Parse reads a policy written by Marshal.
func Parse(b []byte) (Policy, error) {
	var p Policy
	if err := json.Unmarshal(b, &p); err != nil {
		return Policy{}, err
	}
	if p.Enabled && !p.Network.Valid() {
		return Policy{}, fmt.Errorf("network %q is not none, guarded or open", p.Network)
	}
	return p, nil
}

// Covers reports whether granted allows everything p allows, so a grant of
// granted still holds for p (p is the same or tighter). A disabled sandbox
// covers everything and is covered by nothing but itself.
func (granted Policy) Covers(p Policy) bool {
	if !granted.Enabled {
		return true
	}
	if !p.Enabled {
		return false
	}
	for _, r := range p.Read {
		if !under(r, granted.Read) && !under(r, granted.Write) {
			return false
		}
	}
	for _, w := range p.Write {
		if !under(w, granted.Write) {
			return false
		}
	}
	if p.Tmp && !granted.Tmp || p.Roots && !granted.Roots || p.Project && !granted.Project && !granted.Roots {
		return false
	}
	if p.Network.rank() > granted.Network.rank() {
		return false
	}
	if p.Network == NetGuarded && granted.Network == NetGuarded {
		for _, a := range p.Allow {
			if !slices.Contains(granted.Allow, a) {
				return false
			}
		}
	}
	return true
}

// under reports whether path is one of dirs or below one of them.
func under(path string, dirs []string) bool {
	for _, d := range dirs {
		if path == d || d == "/" || strings.HasPrefix(path, d+"/") {
			return true
		}
	}
	return false
}

// Mode is the policy in a few words, for a server's row: "network open",
// "network none"…, or "off".
func (p Policy) Mode() string {
	if !p.Enabled {
		return "off"
	}
	return "network " + string(p.Network)
}

// Lines are the policy as a person reads it in the consent block: one path
// a line, then the network.
func (p Policy) Lines() []string {
	if !p.Enabled {
		return []string{"sandbox: off (sandbox = false): the server can read, write and reach whatever you can"}
	}
	out := []string{}
	if p.Project {
		out = append(out, "read   (the project directory)")
	}
	for _, r := range p.Read {
		out = append(out, "read   "+r)
	}
	for _, w := range p.Write {
		out = append(out, "write  "+w)
	}
	if p.Roots {
		out = append(out, "write  (the roots offered to servers)")
	}
	if p.Tmp {
		out = append(out, "write  (a private temp dir, TMPDIR, removed when the server ends)")
	}
	net := "network " + string(p.Network)
	switch p.Network {
	case NetNone:
		net += " (no connection at all)"
	case NetGuarded:
		net += " (through relavium's proxy, each target admitted by the network guard)"
		for _, a := range p.Allow {
			net += "\n       allow " + a
		}
	case NetOpen:
		net += " (not confined)"
	}
	return append(out, strings.Split(net, "\n")...)
}

// Diff lists what p allows that was does not (the loosening a person is
// asked about again), as lines "+ read /x", "+ network open (was none)".
func Diff(was, p Policy) []string {
	var out []string
	switch {
	case was.Enabled && !p.Enabled:
		return []string{"+ sandbox off (was on)"}
	case !was.Enabled && p.Enabled:
		return []string{"- sandbox on (was off)"}
	case !p.Enabled:
		return nil
	}
	for _, r := range p.Read {
		if !under(r, was.Read) && !under(r, was.Write) {
			out = append(out, "+ read "+r)
		}
	}
	for _, w := range p.Write {
		if !under(w, was.Write) {
			out = append(out, "+ write "+w)
		}
	}
	if p.Tmp && !was.Tmp {
		out = append(out, "+ write (private temp dir)")
	}
	if p.Roots && !was.Roots {
		out = append(out, "+ write (the roots offered to servers)")
	}
	if p.Project && !was.Project && !was.Roots {
		out = append(out, "+ read (the project directory)")
	}
	if p.Network != was.Network {
		sign := "+"
		if p.Network.rank() < was.Network.rank() {
			sign = "-"
		}
		out = append(out, fmt.Sprintf("%s network %s (was %s)", sign, p.Network, was.Network))
	}
	for _, a := range p.Allow {
		if !slices.Contains(was.Allow, a) {
			out = append(out, "+ allow "+a)
		}
	}
	return out
}

// clean makes every path absolute (relative ones against base), cleaned,
// sorted and without duplicates.
func clean(paths []string, base string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if p == "" {
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		out = append(out, filepath.Clean(p))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// prune drops every path that another path of the list already covers.
func prune(paths []string) []string {
	out := paths[:0:0]
	for _, p := range paths {
		covered := false
		for _, q := range paths {
			if q != p && under(p, []string{q}) {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, p)
		}
	}
	return out
}

// Words is the policy as a list of short strings ("on", "tmp", "network
// open", "read /usr", "write /x", "allow h:p"): how a grant line keeps the
// policy it was granted under, for the next diff and for a tighter policy
// to keep the grant.
func (p Policy) Words() []string {
	if !p.Enabled {
		return []string{"off"}
	}
	out := []string{"on", "network " + string(p.Network)}
	if p.Tmp {
		out = append(out, "tmp")
	}
	if p.Project {
		out = append(out, "project")
	}
	if p.Roots {
		out = append(out, "roots")
	}
	for _, r := range p.Read {
		out = append(out, "read "+r)
	}
	for _, w := range p.Write {
		out = append(out, "write "+w)
	}
	for _, a := range p.Allow {
		out = append(out, "allow "+a)
	}
	return out
}

// ParseWords reads what Words wrote; false for anything else.
func ParseWords(words []string) (Policy, bool) {
	if len(words) == 1 && words[0] == "off" {
		return Off(), true
	}
	if len(words) < 2 || words[0] != "on" {
		return Policy{}, false
	}
	p := Policy{Enabled: true}
	for _, w := range words[1:] {
		k, v, _ := strings.Cut(w, " ")
		switch {
		case k == "tmp" && v == "":
			p.Tmp = true
		case k == "project" && v == "":
			p.Project = true
		case k == "roots" && v == "":
			p.Roots = true
		case k == "network" && Network(v).Valid():
			p.Network = Network(v)
		case k == "read" && filepath.IsAbs(v):
			p.Read = append(p.Read, v)
		case k == "write" && filepath.IsAbs(v):
			p.Write = append(p.Write, v)
		case k == "allow" && v != "":
			p.Allow = append(p.Allow, v)
		default:
			return Policy{}, false
		}
	}
	return p, p.Network != ""
}
