package machine

import (
	"fmt"
	"strings"

	"github.com/relavium/relavium/invoke/cli"
)

// Transport names a machine surface. It is the audit log's transport value.
type Transport string

// Machine transports. Only an HTTP NDJSON surface may stream; relavium has
// none today, so every machine request is document-mode.
const (
	TransportMCPStdio   Transport = "mcp-stdio"
	TransportMCPSSE     Transport = "mcp-sse"
	TransportMCPHTTP    Transport = "mcp-http"
	TransportHTTPNDJSON Transport = "http-ndjson"
)

// invokedBy is the RELAVIUM_INVOKED_BY value of a transport.
func (t Transport) invokedBy() string {
	if strings.HasPrefix(string(t), "mcp") {
		return "mcp"
	}
	return "http"
}

func (t Transport) streams() bool { return t == TransportHTTPNDJSON }

// Verdict is the exposure decision for one request: the effective side
// effect and output after the request's flags escalate them.
type Verdict struct {
	SideEffect cli.SideEffect
	Output     cli.Output
}

// notExposed is the E421 refusal; reason goes in the cause so clients can
// tell the cases apart.
func notExposed(cmd *cli.Command, reason string) *cli.Error {
	return &cli.Error{ErrCode: cli.CodeNotExposed, Msg: fmt.Sprintf("%q is not served on the machine surface", cmd.Name()),
		Cause: fmt.Errorf("%s", reason), Exit: cli.ExitUsage}
}

// staticRefusal applies the exposure rules that do not depend on a request.
func staticRefusal(cmd *cli.Command) *cli.Error {
	switch {
	case cmd.Run == nil:
		return notExposed(cmd, "not runnable: a command group")
	case cmd.Hidden:
		return notExposed(cmd, "hidden command")
	case cmd.Deprecated:
		return notExposed(cmd, "deprecated command")
	case cmd.Surface == cli.CLIOnly:
		return notExposed(cmd, "cli-only command")
	case !cmd.JSON:
		return notExposed(cmd, "no JSON envelope")
	}
	return nil
}

// flagIsSet reports whether a request value turns a flag on: a boolean only
// when true, anything else whenever present.
func flagIsSet(v FlagValue) bool {
	return v.Kind != KindBool || v.Bool
}

// Exposure decides whether cmd may run for req on transport, and on what
// effective side effect and output. projectDir feeds a command's
// SideEffectFor column. A refusal is E421 with the reason in its cause.
func Exposure(cmd *cli.Command, req *Request, transport Transport, projectDir string) (Verdict, error) {
	v := Verdict{SideEffect: cmd.SideEffect, Output: cmd.Output}
	if err := staticRefusal(cmd); err != nil {
		return v, err
	}
	if cmd.SideEffectFor != nil && req != nil {
		se, err := cmd.SideEffectFor(projectDir, req.Args)
		if err != nil || !se.Known() {
			se = cli.Destructive // fail closed: what we cannot classify is the strongest
		}
		v.SideEffect = se
	}
	if req != nil {
		for _, name := range req.FlagNames() {
			f := cmd.Flag(name)
			if f == nil || !flagIsSet(req.Flags[name]) {
				continue
			}
			if f.Escalates != "" && f.Escalates.Rank() > v.SideEffect.Rank() {
				v.SideEffect = f.Escalates
			}
			if f.OutputOverride != "" {
				v.Output = f.OutputOverride
			}
		}
	}
	if v.Output == cli.Stream && (!transport.streams() || v.SideEffect != cli.Read) {
		return v, notExposed(cmd, "stream output is served only as HTTP NDJSON, and only for a read")
	}
	if (v.SideEffect == cli.Remote || v.SideEffect == cli.Destructive) && cmd.Confirm == nil {
		return v, notExposed(cmd, fmt.Sprintf("no gate: a %s command without a confirm block", v.SideEffect))
	}
	return v, nil
}

// Exposed lists the commands a machine surface publishes, in table order.
func Exposed(t *cli.Table) []*cli.Command {
	var out []*cli.Command
	for _, c := range t.Commands {
		if _, err := Exposure(c, nil, TransportMCPStdio, ""); err == nil {
			out = append(out, c)
		}
	}
	return out
}

// invokerFlag reports whether a flag belongs to the invoker: a consent flag,
// the plan flag or the plan-id flag of the confirm block.
func invokerFlag(cmd *cli.Command, name string) bool {
	if cmd.Confirm == nil {
		return false
	}
	if name == cmd.Confirm.PlanFlag || name == cmd.Confirm.IDFlag {
		return name != ""
	}
	for _, c := range cmd.Confirm.Consent {
		if c == name {
			return true
		}
	}
	return false
}

// ExposedFlags are the flags a request may set on a document surface: never
// --json, --help or a root switch (those are not command flags), never a
// hidden, deprecated or cli_only flag, never an invoker flag, and never a
// flag that switches the output to stream.
func ExposedFlags(cmd *cli.Command) []cli.Flag {
	var out []cli.Flag
	for _, f := range cmd.Flags {
		if f.Hidden || f.Deprecated || f.CLIOnly || invokerFlag(cmd, f.Name) || f.OutputOverride == cli.Stream ||
			f.Name == "json" || f.Name == "help" {
			continue
		}
		out = append(out, f)
	}
	return out
}

// takesArgv reports whether a request may carry `argv` for cmd: only a leaf
// marked Argv in the registry that declares no args and no flags. relavium
// has no plugin commands, so no built-in row qualifies (see doc.go).
func takesArgv(t *cli.Table, cmd *cli.Command) bool {
	return cmd.Argv && len(cmd.Args) == 0 && len(cmd.Flags) == 0 && len(t.Children(cmd.Path)) == 0
}
