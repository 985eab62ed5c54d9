package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/wire"
	"github.com/relavium/relavium/themes"
)

// HumanWriter is implemented by results (and errors) that have a human
// rendering. Without it a result is printed as indented JSON.
type HumanWriter interface {
	WriteHuman(w io.Writer) error
}

// Dispatch parses args against the command table t, runs the command and
// writes its result. It returns the process exit code.
func Dispatch(ctx context.Context, env *Env, t *Table, args []string) int {
	inv, err := t.Parse(env, args)
	machineChild := false
	if cenv, cerr := CheckInvokePath(env, inv); cenv != env { // a machine child (child.go)
		env, machineChild = cenv, true
		if inv != nil {
			inv.machine = true
		}
		if err == nil {
			err = cerr
		}
	}
	if err != nil {
		return Finish(env, inv, nil, err)
	}
	if inv.Cmd.Run == nil { // help
		return Finish(env, inv, nil, UsageErr(CodeGroupCommand, "%q needs a subcommand: %s", inv.Cmd.Name(), childNames(t, inv.Cmd.Path)))
	}
	// From here on every byte the command writes passes the session's one
	// redactor (redact.go): human output, the envelope, events, warnings.
	env = env.redacting()
	inv.Env = env
	// The home is checked once, here, before any command reads or writes
	// it (the TUI and mcp serve included): a home someone else can write
	// could have its grants, config or token replaced (consent.CheckHome).
	if err := consent.CheckHome(env.Home); err != nil {
		return Finish(env, inv, nil, err)
	}
	lock, err := holdOpLock(inv) // mutations serialise per project (oplock.go)
	if err != nil {
		return Finish(env, inv, nil, err)
	}
	defer lock.Release()
	if machineChild {
		var cancel context.CancelFunc
		ctx, cancel = childDeadline(ctx, env, time.Now())
		defer cancel()
	}
	inv.Wire = wire.NewHubFor(inv.Global.Record, env.Now)
	data, err := inv.Cmd.Run(ctx, inv)
	if werr := inv.Wire.Close(); werr != nil && err == nil {
		data, err = nil, werr
	}
	return Finish(env, inv, data, err)
}

func childNames(t *Table, path []string) string {
	var names []string
	for _, c := range t.Children(path) {
		if !c.Hidden {
			names = append(names, c.Path[len(c.Path)-1])
		}
	}
	return strings.Join(names, ", ")
}

// Finish writes the envelope (--json) or the human rendering, and maps the
// error to an exit code.
func Finish(env *Env, inv *Invocation, data any, err error) int {
	jsonMode := inv != nil && inv.Global.JSON
	if err != nil {
		if jsonMode {
			_ = WriteEnvelope(env.Stdout, ErrorEnvelope(err))
		} else if p, ok := data.(interface{ PartialHuman() bool }); ok && p.PartialHuman() {
			// What did work (the healthy servers of mcp ls) is shown, then
			// what failed; the error decides the exit.
			if h, ok := data.(HumanWriter); ok {
				_ = h.WriteHuman(sanitize.NewWriter(env.Stdout))
			}
		}
		writeHumanError(sanitize.NewWriter(env.Stderr), err)
		return fault.ExitOf(err)
	}
	if jsonMode {
		if data == nil {
			data = struct{}{}
		}
		if werr := WriteEnvelope(env.Stdout, Envelope{OK: true, Data: data}); werr != nil {
			return ExitFailure
		}
		return ExitOK
	}
	if data == nil {
		return ExitOK
	}
	if h, ok := data.(HumanWriter); ok {
		// Human output is cleaned at this boundary whether or not stdout is
		// a terminal: a pipe to less -R, tee or a file that is cat later
		// delivers escapes just the same.
		if werr := h.WriteHuman(sanitize.NewWriter(env.Stdout)); werr != nil {
			return ExitFailure
		}
		return ExitOK
	}
	b, _ := json.MarshalIndent(data, "", "  ")
	fmt.Fprintln(env.Stdout, string(sanitize.EscapeJSON(b)))
	return ExitOK
}

func writeHumanError(w io.Writer, err error) {
	var h HumanWriter
	if errors.As(err, &h) {
		_ = h.WriteHuman(w)
		return
	}
	fmt.Fprintf(w, "relavium: %s\n", err.Error())
}

// Parse resolves the command path and parses every flag with pflag. Global
// flags are accepted before or after the path.
func (t *Table) Parse(env *Env, args []string) (*Invocation, error) {
	path, rest, words := t.splitPath(args)
	defaulted := false
	if len(path) == 0 {
		if len(words) > 0 {
			inv := &Invocation{Env: env, Table: t, Global: Globals{JSON: hasJSONFlag(args)}}
			return inv, unknownCommand(t, words[0])
		}
		path = []string{"session"} // the bare binary opens the session
		defaulted = true
	}
	cmd := t.Lookup(path)
	inv := &Invocation{Env: env, Table: t, Global: Globals{JSON: hasJSONFlag(args)}}
	if cmd == nil {
		cmd = &Command{Path: path} // a strict prefix with no row of its own
	}
	if cmd.Run == nil {
		if len(words) > 0 {
			return inv, unknownCommand(t, strings.Join(append(append([]string{}, path...), words[0]), " "))
		}
	}
	inv.Cmd = cmd
	fs, err := t.flagSet(cmd)
	if err != nil {
		return inv, err
	}
	help := fs.BoolP("help", "h", false, "show help")
	if err := fs.Parse(rest); err != nil {
		return inv, flagError(t, cmd, err)
	}
	inv.flags = fs
	g, err := globalsFrom(env, fs)
	if err != nil {
		return inv, err
	}
	inv.Global = g
	inv.Args = fs.Args()
	if *help {
		helpPath := cmd.Path
		if defaulted {
			helpPath = nil
		}
		inv.Cmd = t.helpCommand(helpPath)
		return inv, nil
	}
	if v, _ := fs.GetBool("version"); v {
		// --version on any command is `relavium version`, whatever else
		// the line holds: the question is always "which build is this".
		inv.Cmd, inv.Args = t.Lookup([]string{"version"}), nil
		return inv, nil
	}
	if cmd.Run != nil {
		if err := checkArgs(cmd, inv.Args); err != nil {
			return inv, err
		}
		if err := t.checkEnums(cmd, fs); err != nil {
			return inv, err
		}
	}
	return inv, nil
}

// splitPath is Parse's first pass: it finds the command path among the
// non-flag words. rest is what the flag set parses (flags, their values,
// the positionals); words are the positionals after the path (global flag
// values excluded).
func (t *Table) splitPath(args []string) (path, rest, words []string) {
	globalTakesValue := map[string]bool{}
	for _, g := range t.Globals {
		if g.Type != Bool {
			globalTakesValue["--"+g.Name] = true
			if g.Short != "" {
				globalTakesValue["-"+g.Short] = true
			}
		}
	}
	pathDone := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			rest = append(rest, a)
			if globalTakesValue[a] && i+1 < len(args) {
				i++
				rest = append(rest, args[i])
			}
			continue
		}
		if !pathDone && t.isPrefix(append(append([]string{}, path...), a)) {
			path = append(path, a)
			continue
		}
		pathDone = true
		rest = append(rest, a)
		words = append(words, a)
	}
	return path, rest, words
}

// flagSet defines the global flags and cmd's own on a fresh, silent set.
func (t *Table) flagSet(cmd *Command) (*pflag.FlagSet, error) {
	fs := pflag.NewFlagSet(cmd.Name(), pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.SortFlags = true
	for _, f := range append(append([]Flag{}, t.Globals...), cmd.Flags...) {
		if err := defineFlag(fs, f); err != nil {
			return nil, &Error{ErrCode: CodeInternal, Msg: "command table: " + err.Error()}
		}
	}
	return fs, nil
}

// helpCommand is what --help turns any command into: the help document of
// path (nil: the whole table).
func (t *Table) helpCommand(path []string) *Command {
	return &Command{Path: []string{"help"}, JSON: true, Output: Document, Surface: CLIOnly, SideEffect: Read,
		Run: func(context.Context, *Invocation) (any, error) { return t.Help(path), nil }}
}

// checkEnums refuses a flag given a value outside its enum.
func (t *Table) checkEnums(cmd *Command, fs *pflag.FlagSet) error {
	for _, f := range append(slices.Clone(t.Globals), cmd.Flags...) {
		if len(f.Enum) > 0 && fs.Changed(f.Name) {
			v, _ := fs.GetString(f.Name)
			if !contains(f.Enum, v) {
				return UsageErr(CodeBadFlag, "--%s must be one of %s, not %q", f.Name, strings.Join(f.Enum, "|"), v)
			}
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func hasJSONFlag(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--json" || a == "--json=true" {
			return true
		}
	}
	return false
}

func defineFlag(fs *pflag.FlagSet, f Flag) error {
	switch f.Type {
	case Bool:
		fs.BoolP(f.Name, f.Short, f.Default == "true", f.Usage)
	case String:
		fs.StringP(f.Name, f.Short, f.Default, f.Usage)
	case Int:
		fs.IntP(f.Name, f.Short, 0, f.Usage)
	case Duration:
		fs.DurationP(f.Name, f.Short, 0, f.Usage)
	case StringSlice:
		fs.StringSliceP(f.Name, f.Short, nil, f.Usage)
	case StringArray:
		fs.StringArrayP(f.Name, f.Short, nil, f.Usage)
	default:
		return fmt.Errorf("flag --%s has unknown type %q", f.Name, f.Type)
	}
	if f.Default != "" && f.Type != Bool && f.Type != String {
		if err := fs.Set(f.Name, f.Default); err != nil {
			return fmt.Errorf("flag --%s default %q: %w", f.Name, f.Default, err)
		}
		fs.Lookup(f.Name).Changed = false
		fs.Lookup(f.Name).DefValue = f.Default
	}
	if f.Hidden {
		_ = fs.MarkHidden(f.Name)
	}
	return nil
}

func globalsFrom(env *Env, fs *pflag.FlagSet) (g Globals, err error) {
	g.JSON, _ = fs.GetBool("json")
	g.Agent, _ = fs.GetString("agent")
	if isAgentFile(g.Agent) && !filepath.IsAbs(g.Agent) {
		g.Agent = filepath.Join(env.WorkDir, g.Agent) // a FILE is relative to where the person typed it
	}
	g.Theme, _ = fs.GetString("theme")
	if fs.Changed("theme") {
		// An unknown name is the themes package's own E700, on every
		// command, as RELAVIUM_THEME's and config's are.
		if _, err := themes.Choose(g.Theme, "", "", ""); err != nil {
			return g, err
		}
	}
	g.AllowStdio, _ = fs.GetStringArray("allow-mcp-stdio")
	g.AllowSecret, _ = fs.GetStringArray("allow-secret")
	g.AllowLocal, _ = fs.GetStringArray("allow-local")
	if g.Record, err = recordFlag(env, fs); err != nil {
		return g, err
	}
	g.Config, _ = fs.GetStringArray("config")
	for i, f := range g.Config {
		if !filepath.IsAbs(f) {
			g.Config[i] = filepath.Join(env.WorkDir, f) // relative to where the person typed it
		}
	}
	project, _ := fs.GetString("project")
	dir, err := projectDir(env, project)
	if err != nil {
		return g, err
	}
	g.Project = dir
	return g, nil
}

// isAgentFile reports whether --agent names a file rather than an agent name.
func isAgentFile(a string) bool {
	return strings.ContainsRune(a, filepath.Separator) || strings.HasSuffix(a, ".yaml") || strings.HasSuffix(a, ".yml")
}

// projectDir is --project when given, else the nearest ancestor of the
// working directory holding a .relavium folder (never the home itself),
// else the working directory.
func projectDir(env *Env, flag string) (string, error) {
	if flag != "" {
		abs := flag
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(env.WorkDir, abs)
		}
		st, err := os.Stat(abs)
		if err != nil || !st.IsDir() {
			return "", &Error{ErrCode: CodeBadFlag, Msg: fmt.Sprintf("--project %s is not a directory", flag), Cause: err, Exit: ExitUsage}
		}
		return filepath.Clean(abs), nil
	}
	home := filepath.Clean(env.Home)
	for dir := filepath.Clean(env.WorkDir); ; dir = filepath.Dir(dir) {
		cand := filepath.Join(dir, ".relavium")
		if cand != home {
			if st, err := os.Stat(cand); err == nil && st.IsDir() {
				return dir, nil
			}
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return filepath.Clean(env.WorkDir), nil
}

func checkArgs(cmd *Command, args []string) error {
	min, max := 0, 0
	for _, a := range cmd.Args {
		if a.Required {
			min++
		}
		if a.Variadic {
			max = -1
		} else if max >= 0 {
			max++
		}
	}
	switch {
	case len(args) < min:
		return UsageErr(CodeBadArgs, "%s needs %s (see relavium %s --help)", cmd.Name(), argSynopsis(cmd), cmd.Name())
	case max >= 0 && len(args) > max:
		takes, got := argSynopsis(cmd), fmt.Sprintf("%d arguments", len(args))
		if takes == "" {
			takes, got = "no arguments", strconv.Itoa(len(args))
		}
		return UsageErr(CodeBadArgs, "%s takes %s, got %s: %s", cmd.Name(), takes, got, strings.Join(args, " "))
	}
	return nil
}

func unknownCommand(t *Table, word string) error {
	var names []string
	for _, c := range t.Commands {
		if !c.Hidden {
			names = append(names, c.Name())
		}
	}
	msg := fmt.Sprintf("unknown command %q", word)
	if s := engine.Suggest(word, names); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return UsageErr(CodeUnknownCommand, "%s (see relavium help)", msg)
}

func flagError(t *Table, cmd *Command, err error) error {
	msg := err.Error()
	const unk = "unknown flag: --"
	if strings.HasPrefix(msg, unk) {
		name := strings.TrimPrefix(msg, unk)
		var names []string
		for _, f := range append(append([]Flag{}, t.Globals...), cmd.Flags...) {
			names = append(names, f.Name)
		}
		m := fmt.Sprintf("unknown flag --%s for %q", name, cmd.Name())
		if s := engine.Suggest(name, names); s != "" {
			m += fmt.Sprintf("; did you mean --%s?", s)
		}
		return UsageErr(CodeUnknownFlag, "%s", m)
	}
	if strings.HasPrefix(msg, "unknown shorthand flag") {
		return UsageErr(CodeUnknownFlag, "%s for %q", msg, cmd.Name())
	}
	return &Error{ErrCode: CodeBadFlag, Msg: msg, Exit: ExitUsage}
}
