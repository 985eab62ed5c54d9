package headers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/expand"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/host/proc"
	"github.com/relavium/relavium/redact"
)

// Bounds of a headers helper's run (Claude Code's: 10 s).
const (
	HelperTimeout   = 10 * time.Second
	HelperMaxOutput = 64 << 10
)

// Helper is a network server's approved headers helper (consent's
// headers-helper decision): Shell -c Line in Cwd, before each connect.
type Helper struct {
	Line  string // as written: each {{env.VAR}} becomes the shell's ${VAR}
	Shell string // absolute
	Cwd   string
	// URL is what CLAUDE_CODE_MCP_SERVER_URL says: the server's url (as
	// written when it holds references, so no value it carries leaves).
	URL string
	// Timeout bounds the run (0: HelperTimeout).
	Timeout time.Duration
}

// String names the helper without its line's values (there are none: the
// line is as written).
func (h *Helper) String() string { return "headers helper " + h.Line }

// shellLine is the line the shell runs: each {{env.VAR}} (or
// {{env.VAR:-default}}) the shell's own ${VAR} (${VAR:-default}), read
// from the helper's environment, so a value is never parsed as shell
// text; declared are the variables it reads that it does not inherit.
func (h *Helper) shellLine() (line string, declared []consent.EnvEntry, ok bool) {
	spans, ok := consent.RefsIn(h.Line)
	if !ok {
		return "", nil, false
	}
	var b strings.Builder
	last := 0
	seen := map[string]bool{}
	for _, sp := range spans {
		if sp.Secret != "" {
			return "", nil, false
		}
		b.WriteString(h.Line[last:sp.Start])
		b.WriteString("${" + sp.Name)
		if sp.HasDefault {
			b.WriteString(":-" + sp.Def)
		}
		b.WriteString("}")
		last = sp.End
		if !consent.Inherited(sp.Name) && !seen[sp.Name] {
			seen[sp.Name] = true
			declared = append(declared, consent.EnvEntry{Name: sp.Name, Kind: consent.KindEnvRef, Value: h.Line[sp.Start:sp.End],
				Var: sp.Name, Default: sp.Def, HasDefault: sp.HasDefault})
		}
	}
	b.WriteString(h.Line[last:])
	return b.String(), declared, true
}

// Run runs the helper for server: sh -c LINE in its cwd, in its own
// process group, with the environment a stdio server inherits (the
// ambient names of environ, consent.Inherited), the variables its line
// reads, and CLAUDE_CODE_MCP_SERVER_NAME and CLAUDE_CODE_MCP_SERVER_URL
// (Claude Code's); stdin is empty, stdout bounded, stderr kept in a ring
// whose tail (redacted by red) a failure shows. Whatever happens, the
// helper's process group is gone when Run returns. Its stdout must be a
// JSON object of header names to string values that pass the header
// rules; each value is added to red, the session's redactor, and secrets
// receives the environment values its line read (env.VAR). No value is
// ever put in an error. stderr is what it wrote there (the ring's tail,
// redacted and cleaned), for the server's log.
func (h *Helper) Run(ctx context.Context, server string, environ []string, secrets map[string]string, red *redact.Set) (http.Header, string, *failure.Error) {
	hs, ch, f := h.run(ctx, server, environ, secrets, red)
	if f != nil || ch == nil {
		return nil, "", f
	}
	return hs, ch.Ring.Tail(red), nil // after its values joined red
}

func (h *Helper) run(ctx context.Context, server string, environ []string, secrets map[string]string, red *redact.Set) (http.Header, *proc.Child, *failure.Error) {
	line, declared, ok := h.shellLine()
	if !ok {
		return nil, nil, helperErr(server, failure.CodeHelperFailed, "its line holds a reference that is not {{env.VAR}}", nil)
	}
	for _, e := range declared {
		if _, set := expand.AmbientValue(environ, e.Var); !set && !e.HasDefault {
			return nil, nil, helperErr(server, failure.CodeEnvRefUnset, "its headers helper's line reads {{env."+e.Var+"}} from relavium's environment, and "+e.Var+" is not set: set it", nil)
		}
	}
	env, err := expand.ChildEnv(server, environ, nil, declared, nil, secrets)
	var fe *failure.Error
	if errors.As(err, &fe) {
		return nil, nil, fe
	}
	if err != nil { // a variable's value the env denylist refuses
		return nil, nil, helperErr(server, fault.CodeOf(err, failure.CodeHelperFailed), "its headers helper's environment: "+fault.MessageOf(err), nil)
	}
	env = append(env, "CLAUDE_CODE_MCP_SERVER_NAME="+server, "CLAUDE_CODE_MCP_SERVER_URL="+h.URL)
	d := h.Timeout
	if d <= 0 {
		d = HelperTimeout
	}
	rctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	ch, err := proc.Spawn(h.Shell, []string{"-c", line}, env, h.Cwd, nil)
	if err != nil {
		return nil, nil, helperErr(server, failure.CodeHelperFailed, "cannot start "+h.Shell, err)
	}
	_ = ch.Stdin.Close() // the helper reads nothing
	type read struct {
		b   []byte
		err error
	}
	got := make(chan read, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(ch.Stdout, HelperMaxOutput+1))
		got <- read{b, err}
	}()
	var out read
	gotOut, timedOut := false, false
	select {
	case out = <-got:
		gotOut = true
		if len(out.b) > HelperMaxOutput {
			break // too much: stopped at once, not waited for
		}
		select { // stdout ended: the helper has exited, or is about to
		case <-ch.Exited:
		case <-rctx.Done():
			timedOut = true
		}
	case <-rctx.Done():
		timedOut = true
	}
	status := ch.ExitStatus()
	ch.Terminate(0, 200*time.Millisecond) // the group, anything it left running, reaped; stdout closed
	if !gotOut {
		<-got
	}
	switch {
	case timedOut && ctx.Err() != nil:
		return nil, nil, helperErr(server, failure.CodeCallCancelled, "the connect was cancelled while its headers helper ran", nil)
	case timedOut:
		return nil, nil, withTail(helperErr(server, failure.CodeHelperFailed, fmt.Sprintf("its headers helper did not answer within %s (it was stopped): make it print its headers sooner", d), nil), ch, red)
	case len(out.b) > HelperMaxOutput:
		return nil, nil, helperErr(server, failure.CodeHelperOutput, fmt.Sprintf("its headers helper printed more than %d KiB (it was stopped); it must print one JSON object of headers", HelperMaxOutput>>10), nil)
	}
	if status != "exit status 0" {
		e := withTail(helperErr(server, failure.CodeHelperFailed, "its headers helper failed ("+status+"); run it yourself to see why", nil), ch, red)
		e.ExitStatus = status
		return nil, nil, e
	}
	hs, perr := parseHelperOutput(server, out.b)
	if perr != nil {
		return nil, nil, perr
	}
	for _, v := range hs {
		red.AddAll(v...) // every value is a secret of the session
	}
	return hs, ch, nil
}

// parseHelperOutput reads a helper's stdout: exactly one JSON object (white
// space around it) of at most netguard.MaxHeaders members, each a header
// name the guard lets a person set, given once, whose value is a string
// the header rules accept; at most netguard.MaxHeaderTotalSize in all. A
// name is shown only once it is a valid, unreserved token; a value never.
func parseHelperOutput(server string, b []byte) (http.Header, *failure.Error) {
	bad := func(why string) *failure.Error {
		return helperErr(server, failure.CodeHelperOutput, "its headers helper's output "+why+`; it must print one JSON object of header names to string values, e.g. {"Authorization": "Bearer …"}`, nil)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, bad("is not a JSON object")
	}
	out := http.Header{}
	total := 0
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, bad("is not valid JSON")
		}
		name, _ := t.(string)
		if len(out) == netguard.MaxHeaders {
			return nil, bad(fmt.Sprintf("holds more than %d headers", netguard.MaxHeaders))
		}
		switch f, _ := netguard.CheckHeaderName(name); f {
		case netguard.HeaderOK:
		case netguard.HeaderReserved:
			return nil, bad(fmt.Sprintf("names %s, a header relavium may not send for you (hop-by-hop, framing, Host, Proxy-*, the protocol's own)", consent.Display(name)))
		default:
			return nil, bad("holds a name that is not an HTTP header name (not shown)")
		}
		canon := http.CanonicalHeaderKey(name)
		if _, dup := out[canon]; dup {
			return nil, bad("gives " + canon + " twice")
		}
		t, err = dec.Token()
		if err != nil {
			return nil, bad("is not valid JSON")
		}
		v, isString := t.(string)
		if !isString {
			return nil, bad("gives " + canon + " a value that is not a string")
		}
		if f, why := netguard.CheckHeaderValue(v); f != netguard.HeaderOK {
			return nil, bad("gives " + canon + " a value that cannot be sent: " + why + " (the value is not shown)")
		}
		total += len(canon) + len(v)
		out[canon] = []string{v}
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return nil, bad("is not valid JSON")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, bad("holds more than one JSON value")
	}
	if total > netguard.MaxHeaderTotalSize {
		return nil, bad(fmt.Sprintf("comes to %d bytes of headers; a server's headers are at most %d", total, netguard.MaxHeaderTotalSize))
	}
	return out, nil
}

// Merge is static with the helper's headers over it: a helper's header
// overrides a static header of the same name.
func Merge(static, helper http.Header) http.Header {
	out := static.Clone()
	if out == nil {
		out = http.Header{}
	}
	for k, v := range helper {
		out[k] = v
	}
	return out
}

func helperErr(server string, code fault.Code, msg string, cause error) *failure.Error {
	return &failure.Error{Base: fault.Base{ErrCode: code, Msg: msg, Cause: cause}, Server: server}
}

func withTail(e *failure.Error, ch *proc.Child, red *redact.Set) *failure.Error {
	e.StderrTail = ch.Ring.Tail(red)
	return e
}
