package consent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/filelock"
	"github.com/relavium/relavium/sandbox"
)

// EnvVar is one authored env entry, in authored order. Value may be a
// {{secrets.NAME}} reference; it is never logged.
type EnvVar struct {
	Name  string
	Value string
}

// Declaration is an authored stdio server as the config declares it.
type Declaration struct {
	Name    string
	Command string
	Args    []string
	Env     []EnvVar
	Cwd     string // the absolute directory the child will be spawned in
	// Sandbox is the declared sandbox (docs/sandbox.md); nil leaves the
	// server without a policy and its digest without one (a caller that
	// confines nothing). Home (the person's home directory) is never taken
	// for a program's installation by the default policy.
	Sandbox *sandbox.Decl
	Home    string
	// EnvFile is the absolute path of a dotenv file read into the child's
	// environment at spawn ("" for none): its path and names are
	// digested, its values never.
	EnvFile string
	// Getenv reads relavium's environment for an {{env.VAR}} in Command
	// or Cwd (nil: every variable unset).
	Getenv func(string) string
}

// Resolved is a declaration after resolution: the command is the absolute
// path of a regular executable file — what the digest names and what the host
// must spawn — and the env is tagged. Its JSON form carries no literal value.
type Resolved struct {
	Name     string     `json:"server"`
	Authored string     `json:"authored_command"`
	Command  string     `json:"command"`
	Args     []string   `json:"args"`
	Env      []EnvEntry `json:"env"`
	Cwd      string     `json:"cwd"`
	Digest   string     `json:"digest"`
	// Sandbox is the effective policy the digest covers (nil: none).
	Sandbox *sandbox.Policy `json:"sandbox,omitempty"`
	// EnvFile is the env file the digest covers (nil: none): path and
	// names, read when resolved; the host reads its values at spawn and
	// refuses it if its names changed (E326).
	EnvFile *EnvFile `json:"env_file,omitempty"`
}

// CommandLine is the resolved command and its arguments for display: every
// word shell-quoted when needed, control and bidi characters escaped, nothing
// truncated.
func (r *Resolved) CommandLine() string { return commandLine(r.Command, r.Args) }

// EnvNames returns the declared env names in authored order.
func (r *Resolved) EnvNames() []string {
	out := make([]string, len(r.Env))
	for i, e := range r.Env {
		out[i] = e.Name
	}
	return out
}

// Resolve turns a declaration into what is digested and later spawned.
//
//   - Every env entry passes CheckEnv (a declared PATH is refused) and is
//     tagged: solely {{secrets.NAME}} is a secret-ref, anything else a literal.
//     Names must be unique.
//   - cwd must be an absolute, existing directory; it is cleaned.
//   - A command holding a '/' is a path: absolute as written, relative against
//     cwd. A bare word is walked on ambientPATH; empty and relative PATH
//     entries are skipped, so a project cannot plant an "npx" that a "." entry
//     would find. The result must be a regular file with an execute bit.
//
// Errors are *Error values (exit 2) naming the server and the field.
func Resolve(d Declaration, ambientPATH string) (*Resolved, error) {
	who := "server " + quoteArg(d.Name)
	env := make([]EnvEntry, 0, len(d.Env))
	seen := make(map[string]bool, len(d.Env))
	var envErrs []error
	for _, e := range d.Env {
		if err := CheckEnv(e.Name, e.Value); err != nil {
			envErrs = append(envErrs, err)
			continue
		}
		if seen[e.Name] {
			envErrs = append(envErrs, usage(CodeBadDeclaration, "env %s is declared twice", quoteArg(e.Name)))
			continue
		}
		seen[e.Name] = true
		env = append(env, TagEnv(e.Name, e.Value))
	}
	if len(envErrs) > 0 {
		code := CodeBadDeclaration
		var ee *EnvError
		if errors.As(envErrs[0], &ee) {
			code = CodeEnvRefused
		}
		return nil, &Error{ErrCode: code, Msg: who + ": declared env refused", Cause: errors.Join(envErrs...), Exit: fault.ExitUsage}
	}

	dcwd, err := expandPath(who, "the working directory", d.Cwd, d.Getenv)
	if err != nil {
		return nil, err
	}
	if dcwd == "" || !filepath.IsAbs(dcwd) {
		return nil, usage(CodeBadDeclaration, "%s: the working directory %s is not an absolute path", who, quoteArg(dcwd))
	}
	cwd := filepath.Clean(dcwd)
	if st, err := os.Stat(cwd); err != nil || !st.IsDir() {
		e := usage(CodeBadDeclaration, "%s: the working directory %s is not a directory", who, quoteArg(cwd))
		e.Cause = err
		return nil, e
	}

	dcommand, err := expandPath(who, "command", d.Command, d.Getenv)
	if err != nil {
		return nil, err
	}
	command, err := resolveCommand(who, dcommand, cwd, ambientPATH)
	if err != nil {
		return nil, err
	}
	args := make([]string, len(d.Args))
	copy(args, d.Args)
	var policy *sandbox.Policy
	if d.Sandbox != nil {
		p := sandbox.Effective(*d.Sandbox, sandbox.Inputs{Command: command, Args: args, Cwd: cwd,
			PATH: ambientPATH, Home: d.Home})
		policy = &p
	}
	var envFile *EnvFile
	if d.EnvFile != "" {
		path, err := expandPath(who, "the env file", d.EnvFile, d.Getenv)
		if err != nil {
			return nil, err
		}
		if !filepath.IsAbs(path) {
			return nil, usage(CodeEnvFile, "%s: the env file %s is not an absolute path", who, quoteArg(path))
		}
		vars, err := ReadEnvFile(path)
		if err != nil {
			err.(*Error).Msg = who + ": " + err.(*Error).Msg
			return nil, err
		}
		envFile = NewEnvFile(filepath.Clean(path), vars)
	}
	digest, err := fileDigest(command, args, env, cwd, policy, envFile)
	if err != nil {
		var ce *Error
		if errors.As(err, &ce) {
			return nil, &Error{ErrCode: ce.ErrCode, Msg: who + ": " + ce.Msg, Exit: fault.ExitUsage}
		}
		return nil, err
	}
	return &Resolved{Name: d.Name, Authored: d.Command, Command: command, Args: args, Env: env, Cwd: cwd, Digest: digest, Sandbox: policy, EnvFile: envFile}, nil
}

// expandPath reads each {{env.VAR}} / {{env.VAR:-default}} of a command
// or cwd ("{{env.HOME}}/.local/bin/server") from getenv, the default
// standing in for an unset or empty VAR. The expanded path is what is
// resolved, digested and spawned, as a command found on PATH is: consent
// names the program that runs, and the sandbox policy is made of real
// paths. A secret cannot name a program or a directory; an unset VAR with
// no default is refused (E306), naming it.
func expandPath(who, what, text string, getenv func(string) string) (string, error) {
	spans, ok := RefsIn(text)
	if !ok {
		return "", usage(CodeBadDeclaration, "%s: %s %s holds a malformed {{env.…}} or {{secrets.…}}", who, what, quoteArg(text))
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		if sp.Secret != "" {
			return "", usage(CodeBadDeclaration, "%s: %s names a secret ({{secrets.%s}}); a secret is passed in env or an argument, never as a path", who, what, sp.Secret)
		}
		v := ""
		if getenv != nil {
			v = getenv(sp.Name)
		}
		if v == "" && sp.HasDefault {
			v = sp.Def
		}
		if v == "" {
			return "", usage(CodeBadDeclaration, "%s: %s reads {{env.%s}}, and %s is not set in relavium's environment (set it, or give a default, {{env.%s:-…}})", who, what, sp.Name, sp.Name, sp.Name)
		}
		b.WriteString(text[last:sp.Start])
		b.WriteString(v)
		last = sp.End
	}
	b.WriteString(text[last:])
	return b.String(), nil
}

// resolveCommand finds the absolute path of the program d.Command names.
func resolveCommand(who, command, cwd, ambientPATH string) (string, error) {
	if command == "" {
		return "", usage(CodeBadDeclaration, "%s: command is empty", who)
	}
	if strings.IndexByte(command, 0) >= 0 {
		return "", usage(CodeBadDeclaration, "%s: command holds a NUL byte", who)
	}
	if strings.ContainsRune(command, filepath.Separator) {
		p := command
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		p = filepath.Clean(p)
		if err := checkExecutable(p); err != nil {
			return "", commandError(who, command, p, err)
		}
		return p, nil
	}
	var searched []string
	var notExec error
	var notExecPath string
	for _, dir := range filepath.SplitList(ambientPATH) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // never resolve a bare word into the working directory
		}
		searched = append(searched, dir)
		p := filepath.Join(dir, command)
		err := checkExecutable(p)
		if err == nil {
			return p, nil
		}
		if notExec == nil && !errors.Is(err, fs.ErrNotExist) {
			notExec, notExecPath = err, p
		}
	}
	if notExec != nil {
		return "", commandError(who, command, notExecPath, notExec)
	}
	if len(searched) == 0 {
		return "", usage(CodeCommandNotFound, "%s: command %s cannot be looked up: PATH has no absolute directory (relative entries are ignored)", who, quoteArg(command))
	}
	return "", usage(CodeCommandNotFound, "%s: command %s not found on PATH (searched %s; relative PATH entries are ignored)",
		who, quoteArg(command), quoteArg(strings.Join(searched, string(filepath.ListSeparator))))
}

// errNotRegular and errNoExecBit explain why an existing path cannot be run.
var (
	errNotRegular = errors.New("not a regular file")
	errNoExecBit  = errors.New("no execute bit")
)

func checkExecutable(p string) error {
	st, err := os.Stat(p)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%w (%s)", errNotRegular, st.Mode().Type())
	}
	if filelock.ModeBitsMeaningful && st.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("%w (mode %04o)", errNoExecBit, st.Mode().Perm())
	}
	return nil
}

func commandError(who, authored, p string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		e := usage(CodeCommandNotFound, "%s: command %s not found at %s", who, quoteArg(authored), quoteArg(p))
		return e
	}
	e := usage(CodeNotExecutable, "%s: command %s resolves to %s, which cannot be run", who, quoteArg(authored), quoteArg(p))
	e.Cause = err
	return e
}
