package cli

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/clientside"
	"github.com/relavium/relavium/regularfile"
	"github.com/relavium/relavium/session"
)

// The command line's answers to what servers ask of the client: sampling
// (--sampling-reply TEXT|@FILE; without it every request is declined with
// E901), roots (--root DIR, repeatable; the project directory by default;
// both on mcp call and run)
// and the session's call cap (--timeout on session and demo).

// CodeSamplingReply: --sampling-reply @FILE that cannot be read or is too
// big (in the client side's range E901–E919).
const CodeSamplingReply fault.Code = "E905"

// MaxSamplingReply bounds a --sampling-reply @FILE.
const MaxSamplingReply = 64 << 10

// ClientOptions fills opts from the invocation's flags, checking them
// before anything is spawned or dialled (a bad --root or reply file is a
// usage error, exit 2).
func ClientOptions(inv *Invocation, opts *session.Options) error {
	if has(inv, "sampling-reply") && inv.Changed("sampling-reply") {
		text, err := samplingReply(inv, inv.String("sampling-reply"))
		if err != nil {
			return err
		}
		opts.Sampler = clientside.ReplySampler{Text: text}
	}
	dirs, err := rootsOf(inv)
	if err != nil {
		return err
	}
	opts.Roots = dirs
	if has(inv, "timeout") && inv.Changed("timeout") && inv.Duration("timeout") > 0 {
		opts.CallCap = inv.Duration("timeout")
	}
	return nil
}

// rootsOf are the roots offered to servers: --root (relative to where the
// person typed it), else the project directory. A stdio server's default
// sandbox may write them.
func rootsOf(inv *Invocation) ([]string, error) {
	var dirs []string
	if has(inv, "root") {
		for _, d := range inv.Strings("root") {
			if !filepath.IsAbs(d) {
				d = filepath.Join(inv.Env.WorkDir, d) // relative to where the person typed it
			}
			dirs = append(dirs, d)
		}
	}
	if len(dirs) == 0 && inv.Global.Project != "" {
		dirs = []string{inv.Global.Project}
	}
	for _, d := range dirs {
		if _, err := clientside.ResolveRoot(d); err != nil {
			return nil, err
		}
	}
	if dirs == nil {
		dirs = []string{}
	}
	return dirs, nil
}

// Sandboxing is what this invocation's stdio servers' sandboxes are derived
// from and applied by.
func Sandboxing(inv *Invocation) session.Sandboxing {
	return session.Sandboxing{Project: inv.Global.Project, UserHome: inv.Env.UserHome, Launcher: inv.Env.Executable, Getenv: inv.Env.Getenv}
}

// has reports whether the command takes the flag.
func has(inv *Invocation, name string) bool {
	return inv.flags != nil && inv.flags.Lookup(name) != nil
}

// samplingReply is the reply text: the flag's value, or the content of
// @FILE (relative to the working directory, at most 64 KiB).
func samplingReply(inv *Invocation, v string) (string, error) {
	name, ok := strings.CutPrefix(v, "@")
	if !ok {
		return v, nil
	}
	if !filepath.IsAbs(name) {
		name = filepath.Join(inv.Env.WorkDir, name)
	}
	b, _, err := regularfile.Read(name, MaxSamplingReply, regularfile.Options{})
	switch tl := (*regularfile.TooLargeError)(nil); {
	case errors.As(err, &tl):
		return "", UsageErr(CodeSamplingReply, "--sampling-reply %s: the file is over %d bytes", v, MaxSamplingReply)
	case err != nil:
		return "", UsageErr(CodeSamplingReply, "--sampling-reply %s: %v", v, err)
	}
	return string(b), nil
}

// SamplingReplyFlag is --sampling-reply, shared by the commands that take
// it (mcp call, run).
func SamplingReplyFlag() Flag {
	return Flag{Name: "sampling-reply", Type: String, CLIOnly: true,
		Usage: "answer every sampling request with this TEXT, or the content of @FILE (default: decline, E901)"}
}

// RootFlag is --root, shared by the commands that take it.
func RootFlag() Flag {
	return Flag{Name: "root", Type: StringArray, CLIOnly: true,
		Usage: "offer DIR to servers as a root (repeatable; default: the project directory)"}
}

// SessionTimeoutFlag is session's and demo's --timeout.
func SessionTimeoutFlag() Flag {
	return Flag{Name: "timeout", Type: Duration,
		Usage: "cap on a call's active time (default 10m; time a dialog is open does not count)"}
}
