package machine

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/relavium/relavium/invoke/cli"
)

// pathWord is what a registry path word may look like; anything that could be
// read as a flag never reaches argv.
var pathWord = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// argvPlan says which invoker-owned flags an exec adds to the request's own.
type argvPlan struct {
	plan    bool   // --<plan flag>=true: the read-only plan form
	planID  string // --<id flag>=<id>
	consent bool   // --<consent flag>=true for every consent flag
}

// BuildArgv turns a checked request into the child's argv (after the
// executable): <path> --json --project=<dir> <flags sorted by name> -- <args>.
// Every request value is exactly one element; names come from the registry
// only; a boolean is always --name=true or --name=false; a list is one
// --name=value per item; positionals always follow --. A bad request is E420
// naming the flag, never its value.
func BuildArgv(t *cli.Table, cmd *cli.Command, req *Request, projectDir string) ([]string, error) {
	return buildArgv(t, cmd, req, projectDir, argvPlan{})
}

func buildArgv(t *cli.Table, cmd *cli.Command, req *Request, projectDir string, p argvPlan) ([]string, error) {
	for _, w := range cmd.Path {
		if !pathWord.MatchString(w) {
			return nil, badRequest("command path word %s is not a valid argv word", quoteName(w))
		}
	}
	if req.Confirm != "" && cmd.Confirm == nil {
		return nil, badRequest("confirm is only for commands with a confirm block")
	}
	argv := append(append([]string{}, cmd.Path...), "--json", "--project="+projectDir)
	if len(req.Argv) > 0 {
		if !takesArgv(t, cmd) {
			return nil, &cli.Error{ErrCode: cli.CodeNotExposed, Exit: cli.ExitUsage,
				Msg: "argv is only for a leaf command that takes free-form words; relavium's commands take args and flags"}
		}
		if len(req.Args) > 0 || len(req.Flags) > 0 {
			return nil, badRequest("this command takes argv, not args or flags")
		}
		for _, a := range req.Argv {
			if rootSwitch(t, a) {
				return nil, badRequest("an argv item names a root flag; root flags belong to the invoker")
			}
		}
		argv = append(argv, "--")
		argv = append(argv, req.Argv...)
		return argv, checkArgv(argv)
	}
	flags, err := flagArgv(cmd, req.Flags, p)
	if err != nil {
		return nil, err
	}
	argv = append(argv, flags...)
	if err := checkArgCount(cmd, len(req.Args)); err != nil {
		return nil, err
	}
	if len(req.Args) > 0 {
		argv = append(argv, "--")
		argv = append(argv, req.Args...)
	}
	return argv, checkArgv(argv)
}

// rootSwitch reports whether an argv word names a root flag or --help.
func rootSwitch(t *cli.Table, w string) bool {
	name, ok := strings.CutPrefix(w, "--")
	if !ok {
		return w == "-h"
	}
	name, _, _ = strings.Cut(name, "=")
	if name == "help" {
		return true
	}
	for _, g := range t.Globals {
		if g.Name == name {
			return true
		}
	}
	return false
}

// checkArgv refuses NUL bytes and oversized elements or argv.
func checkArgv(argv []string) error {
	total := 0
	for _, a := range argv {
		if strings.IndexByte(a, 0) >= 0 {
			return badRequest("a value contains a NUL byte")
		}
		if len(a) > MaxElementBytes {
			return badRequest("a value is longer than %d bytes", MaxElementBytes)
		}
		total += len(a) + 1
	}
	if total > MaxArgvBytes {
		return badRequest("the arguments are larger than %d bytes in all", MaxArgvBytes)
	}
	return nil
}

func checkArgCount(cmd *cli.Command, n int) error {
	required, variadic := 0, false
	for _, a := range cmd.Args {
		if a.Required {
			required++
		}
		variadic = variadic || a.Variadic
	}
	switch {
	case n < required:
		return badRequest("too few args: %d given, %d required", n, required)
	case !variadic && n > len(cmd.Args):
		return badRequest("too many args: %d given, at most %d", n, len(cmd.Args))
	}
	return nil
}

// flagArgv renders the request's flags plus the invoker's own, sorted by name.
func flagArgv(cmd *cli.Command, flags map[string]FlagValue, p argvPlan) ([]string, error) {
	exposed := map[string]cli.Flag{}
	for _, f := range ExposedFlags(cmd) {
		exposed[f.Name] = f
	}
	type item struct {
		name  string
		elems []string
	}
	var items []item
	for name, v := range flags {
		if strings.IndexByte(name, 0) >= 0 {
			return nil, badRequest("a flag name contains a NUL byte")
		}
		if invokerFlag(cmd, name) {
			return nil, &cli.Error{ErrCode: CodeInvokerFlag, Exit: cli.ExitUsage,
				Msg: "flag " + quoteName(name) + " belongs to the invoker: send the request without it and answer the confirmation with confirm"}
		}
		f, ok := exposed[name]
		if !ok {
			return nil, badRequest("flag %s is unknown or not exposed on the machine surface", quoteName(name))
		}
		elems, err := flagElems(f, v)
		if err != nil {
			return nil, err
		}
		items = append(items, item{name, elems})
	}
	if c := cmd.Confirm; c != nil {
		if p.plan && c.PlanFlag != "" {
			items = append(items, item{c.PlanFlag, []string{"--" + c.PlanFlag + "=true"}})
		}
		if p.planID != "" && c.IDFlag != "" {
			items = append(items, item{c.IDFlag, []string{"--" + c.IDFlag + "=" + p.planID}})
		}
		if p.consent {
			for _, n := range c.Consent {
				items = append(items, item{n, []string{"--" + n + "=true"}})
			}
		}
	}
	sort.Slice(items, func(i, j int) bool { return items[i].name < items[j].name })
	var out []string
	for _, it := range items {
		out = append(out, it.elems...)
	}
	return out, nil
}

// flagElems renders one flag value as its argv elements.
func flagElems(f cli.Flag, v FlagValue) ([]string, error) {
	bad := func(want string) ([]string, error) {
		return nil, badRequest("flag %s must be %s", quoteName(f.Name), want)
	}
	pre := "--" + f.Name + "="
	switch f.Type {
	case cli.Bool:
		if v.Kind != KindBool {
			return bad("a boolean")
		}
		if v.Bool {
			return []string{pre + "true"}, nil
		}
		return []string{pre + "false"}, nil
	case cli.Int:
		if v.Kind != KindNumber {
			return bad("an integer")
		}
		s, ok := canonNumber(v.Num)
		if !ok || strings.ContainsAny(s, ".eE") {
			return bad("an integer without a fraction")
		}
		return []string{pre + s}, nil
	case cli.String:
		if v.Kind != KindString {
			return bad("a string")
		}
		if len(f.Enum) > 0 && !slices.Contains(f.Enum, v.Str) {
			return bad("one of " + strings.Join(f.Enum, ", "))
		}
		return []string{pre + v.Str}, nil
	case cli.Duration:
		if v.Kind != KindString {
			return bad("a duration string such as 30s")
		}
		if _, err := time.ParseDuration(v.Str); err != nil {
			return bad("a duration string such as 30s")
		}
		return []string{pre + v.Str}, nil
	case cli.StringSlice, cli.StringArray:
		if v.Kind != KindList {
			return bad("an array of strings")
		}
		out := make([]string, 0, len(v.List))
		for _, s := range v.List {
			if f.Type == cli.StringSlice && strings.ContainsAny(s, ",\"\r\n") {
				return bad("a list whose items hold no comma, quote or newline (the child splits it on commas)")
			}
			out = append(out, pre+s)
		}
		return out, nil
	}
	return bad("a supported type")
}
