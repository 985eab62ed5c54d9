package sandbox

// minABI is the lowest Landlock ABI relavium confines with: ABI 4 is the
// first that can refuse TCP connections, without which network "none" and
// "guarded" could not be kept.
const minABI = 4

// Support is what this machine can confine.
type Support struct {
	// ABI is the kernel's Landlock ABI version (0: none).
	ABI int `json:"landlock_abi"`
	// Reason is why a server is not sandboxed here ("" when it can be).
	Reason string `json:"reason,omitempty"`
}

// OK reports whether servers can be confined.
func (s Support) OK() bool { return s.Reason == "" }

// Scoped reports whether signals and abstract sockets can be scoped to
// the server (Landlock ABI 6).
func (s Support) Scoped() bool { return s.ABI >= 6 }

// Status is a server's sandbox as every surface reports it.
type Status struct {
	// Policy is the effective policy (what the digest covers).
	Policy Policy `json:"policy"`
	// Sandboxed says the policy is applied.
	Sandboxed bool `json:"sandboxed"`
	// Reason is "not sandboxed: …" when it is not: sandbox = false, or the
	// machine cannot confine.
	Reason string `json:"reason,omitempty"`
	// Note is the first refusal by the sandbox the server reported (an
	// EACCES in its error text, a target the guarded network refused),
	// explained once ("sandbox: write outside the roots refused (…)").
	Note string `json:"note,omitempty"`
	// Project and Roots are what the policy's "the project directory" and
	// "the roots" are in this session.
	Project string   `json:"project,omitempty"`
	Roots   []string `json:"roots,omitempty"`
}

// StatusOf is what p comes to on a machine with s.
func StatusOf(p Policy, s Support) Status {
	switch {
	case !p.Enabled:
		return Status{Policy: p, Reason: "not sandboxed: sandbox = false"}
	case !s.OK():
		return Status{Policy: p, Reason: "not sandboxed: " + s.Reason}
	}
	return Status{Policy: p, Sandboxed: true}
}

// Word is the status in a few words for a server's row: the network mode
// when confined ("open", "guarded", "none"), else the reason it is not.
func (st Status) Word() string {
	if st.Sandboxed {
		return string(st.Policy.Network)
	}
	return st.Reason
}
