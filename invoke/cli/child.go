package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/relavium/relavium/fault"
)

// The child side of the machine surface. `relavium mcp serve` runs every
// request as a child of the same binary with these variables set; the child
// is an ordinary relavium command line, and Main honours them before the
// command runs: the path check (E421) and the early deadline.
const (
	// EnvInvokePath is the command path the invoker checked; the child must
	// resolve exactly that path from its own argv.
	EnvInvokePath = "RELAVIUM_INVOKE_PATH"
	// EnvDeadlineMS is the time the invoker gives the child, in ms.
	EnvDeadlineMS = "RELAVIUM_INVOKE_DEADLINE_MS"
)

// CodeNotExposed is E421: refused by the exposure rules, the gate or the
// audit check. The machine surface raises it for a request it will not
// run; a child raises it when its own argv resolved another command than
// the one the invoker checked.
const CodeNotExposed fault.Code = "E421"

// CheckInvokePath is the child side of the invoker's path check: when
// RELAVIUM_INVOKE_PATH is set, the command this process resolved from its
// own argv must be exactly that path (E421 otherwise). The variable is then
// removed from env and from the process environment, so nothing the command
// spawns inherits it.
func CheckInvokePath(env *Env, inv *Invocation) (*Env, error) {
	want, ok := "", false
	if env.LookupEnv != nil {
		want, ok = env.LookupEnv(EnvInvokePath)
	}
	if !ok {
		return env, nil
	}
	_ = os.Unsetenv(EnvInvokePath)
	clean := *env
	clean.Environ = nil
	for _, kv := range env.Environ {
		if name, _, _ := strings.Cut(kv, "="); name != EnvInvokePath {
			clean.Environ = append(clean.Environ, kv)
		}
	}
	parent := env.LookupEnv
	clean.LookupEnv = func(name string) (string, bool) {
		if name == EnvInvokePath {
			return "", false
		}
		return parent(name)
	}
	if inv != nil {
		inv.Env = &clean
	}
	got := ""
	if inv != nil && inv.Cmd != nil {
		got = inv.Cmd.Name()
	}
	if inv == nil || inv.Cmd == nil || inv.Cmd.Run == nil || got != want {
		return &clean, &Error{ErrCode: CodeNotExposed, Exit: ExitUsage,
			Msg: fmt.Sprintf("this process resolved %q, not the %q the invoker checked; nothing ran (was the binary replaced while the server ran?)", got, want)}
	}
	return &clean, nil
}

// errRequestDeadline is why a machine child stops early: the invoker's
// timeout is about to kill its process group.
var errRequestDeadline = errors.New("the machine request's timeout is near: stopped before the server kills this command")

// childDeadline gives a machine child (one run with RELAVIUM_INVOKE_DEADLINE_MS
// set) a context that ends a little before the invoker's timeout, so a long
// command (a tool call, a workflow) stops by itself and answers with its own
// envelope rather than being killed into E423. The margin is a fifth of the
// time left, at most 2 s. Without the variable (a person's command, an NDJSON
// request) ctx is returned as it is.
func childDeadline(ctx context.Context, env *Env, now time.Time) (context.Context, context.CancelFunc) {
	if env == nil || env.LookupEnv == nil {
		return ctx, func() {}
	}
	v, ok := env.LookupEnv(EnvDeadlineMS)
	if !ok {
		return ctx, func() {}
	}
	ms, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || ms <= 0 {
		return ctx, func() {}
	}
	left := time.Duration(ms) * time.Millisecond
	return context.WithDeadlineCause(ctx, now.Add(left-min(2*time.Second, left/5)), errRequestDeadline)
}
