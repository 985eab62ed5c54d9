package host

import (
	"context"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/host/proc"
	"github.com/relavium/relavium/sandbox"
)

// sandboxStatus is what the server's sandbox comes to on this machine
// (nil: the declaration carries no policy, as in tests that build a
// Resolved without one).
func (h *Host) sandboxStatus(r *consent.Resolved) *sandbox.Status {
	if r == nil || r.Sandbox == nil {
		return nil
	}
	st := sandbox.StatusOf(*r.Sandbox, h.sandboxSupport())
	if r.Sandbox.Enabled {
		if r.Sandbox.Project {
			st.Project = h.opts.SandboxProject
		}
		if r.Sandbox.Roots {
			st.Roots = h.rootPaths()
		}
	}
	return &st
}

// sandboxSupport is the kernel's support, and the launcher's: without
// relavium's own executable there is no sandbox-exec to run.
func (h *Host) sandboxSupport() sandbox.Support {
	s := h.support
	if s.OK() && h.opts.SandboxLauncher == "" {
		s.Reason = "no sandbox launcher was given (relavium's own executable runs sandbox-exec)"
	}
	return s
}

// sandboxError is a server that may not start: sandbox = "required" where
// nothing can confine it (E340), or what the confined spawn needs could
// not be made (E341).
type sandboxError struct {
	code fault.Code
	msg  string
	err  error
}

func (e *sandboxError) Error() string { return e.msg }
func (e *sandboxError) Unwrap() error { return e.err }

// confinement is one confined spawn: the command line that runs the server
// through sandbox-exec, the environment with TMPDIR (and the proxy) set,
// and what to release once the child is gone.
type confinement struct {
	argv    []string
	env     []string
	policy  *sandbox.Policy
	release func()
}

// confine prepares a stdio spawn of r. A server without a policy, with
// sandbox = false, or on a machine that cannot confine (and not required)
// is spawned as it is (argv nil).
func (c *conn) confine(r *consent.Resolved, args, env []string) (*confinement, error) {
	st := c.h.sandboxStatus(r)
	if st == nil || !st.Sandboxed {
		if st != nil && r.Sandbox.Enabled && r.Sandbox.Required {
			return nil, &sandboxError{code: sandbox.CodeRequired, msg: fmt.Sprintf(
				`sandbox = "required", and this server cannot be confined here (%s); it is not started`, st.Reason)}
		}
		return &confinement{release: func() {}}, nil
	}
	p := *r.Sandbox
	a := sandbox.Applied{Policy: p, Project: c.h.opts.SandboxProject}
	if p.Roots {
		a.Roots = c.h.rootPaths()
	}
	var undo []func()
	release := func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	out := &confinement{env: env, policy: &p}
	if p.Tmp {
		dir, err := proc.TempDir(c.srv.Name)
		if err != nil {
			return nil, &sandboxError{code: sandbox.CodeApply, msg: "cannot make the server's private temp dir", err: err}
		}
		undo = append(undo, func() { _ = os.RemoveAll(dir) })
		a.TmpDir = dir
		out.env = proc.SetEnv(out.env, "TMPDIR", dir)
	}
	if p.Network == sandbox.NetGuarded {
		px, err := c.startProxy(p.Allow)
		if err != nil {
			release()
			return nil, &sandboxError{code: sandbox.CodeApply, msg: "cannot start the guarded network's proxy", err: err}
		}
		undo = append(undo, px.Close)
		a.ProxyPort = px.Port()
		u := "http://127.0.0.1:" + strconv.Itoa(int(px.Port()))
		for _, k := range []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"} {
			out.env = proc.SetEnv(out.env, k, u)
		}
		out.env = proc.SetEnv(proc.SetEnv(out.env, "NO_PROXY", ""), "no_proxy", "")
	}
	out.argv = sandbox.Argv(c.h.opts.SandboxLauncher, a, r.Command, args)
	out.release = release
	return out, nil
}

// startProxy starts the guarded network's CONNECT proxy for this server:
// each target passes the network guard, as relavium's own dials do; a
// host:port in allow may be a local or private address the guard would
// otherwise refuse. A refusal is noted on the server's row once.
func (c *conn) startProxy(allow []string) (*sandbox.Proxy, error) {
	g := c.h.opts.Guard
	if g == nil {
		g = netguard.New()
	}
	dial := func(ctx context.Context, target string) (net.Conn, error) {
		allowed := false
		for _, a := range allow {
			if strings.EqualFold(a, target) {
				allowed = true
			}
		}
		conn, err := g.DialTunnel(ctx, target, allowed)
		if r, ok := netguard.AsRefusal(err); ok {
			c.noteSandbox(fmt.Sprintf("sandbox: guarded network refused %s (%s)", target, r.Message()))
		}
		return conn, err
	}
	return sandbox.StartProxy(c.ctx, dial)
}

// sandboxNote is the first explanation of a denial the server reported,
// kept on the row (sandbox.Explain); one per server.
type sandboxNote struct {
	mu   sync.Mutex
	text string
}

// SandboxNoteData is the payload of engine.EventSandbox: the first
// refusal by a server's sandbox that the server reported, explained.
type SandboxNoteData struct {
	Server string `json:"server"`
	Note   string `json:"note"`
}

// noteSandbox keeps the first explanation on the server's row and reports
// it once (engine.EventSandbox).
func (c *conn) noteSandbox(text string) {
	c.note.mu.Lock()
	first := c.note.text == ""
	if first {
		c.note.text = text
	}
	c.note.mu.Unlock()
	if first {
		c.h.em.Emit(engine.Event{Type: engine.EventSandbox, Data: SandboxNoteData{Server: c.srv.Name, Note: text}})
	}
}

func (c *conn) sandboxNoteText() string {
	c.note.mu.Lock()
	defer c.note.mu.Unlock()
	return c.note.text
}

// explainDenial looks at a failed call's text: the first EACCES a
// confined server reports is explained on its row.
func (c *conn) explainDenial(text string) {
	if c.srv.Stdio == nil || c.srv.Stdio.Sandbox == nil {
		return
	}
	if st := c.h.sandboxStatus(c.srv.Stdio); st == nil || !st.Sandboxed {
		return
	}
	if why := sandbox.Explain(*c.srv.Stdio.Sandbox, text); why != "" {
		c.noteSandbox(why)
	}
}

// rootPaths are the roots offered now: what a sandbox's "the roots" may
// write in a server spawned now (a server already running keeps the roots
// it was spawned with: its Landlock domain cannot grow).
func (h *Host) rootPaths() []string {
	var out []string
	for _, r := range h.Roots() {
		out = append(out, r.Path)
	}
	return out
}

// policyOf is the policy of a status (nil for none).
func policyOf(st *sandbox.Status) *sandbox.Policy {
	if st == nil {
		return nil
	}
	p := st.Policy
	return &p
}
