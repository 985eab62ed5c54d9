package invoke

import (
	"context"
	"fmt"
	"github.com/relavium/relavium/invoke/cli"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/relavium/relavium/gates/lock"
	"github.com/relavium/relavium/host/discovery"
)

// Shell completion is generated from the command table (Commands), the one
// description help and dispatch read: a command, flag or enum value added
// there is completed with no edit here. Names a project declares (servers,
// tools) come at completion time from the hidden `__complete` command, which
// reads the config (and the lock file for tools) and never connects,
// spawns or dials anything.

var (
	completionShells = []string{"bash", "zsh", "fish"}
	completeKinds    = []string{"servers", "tools"}
)

// Script is a generated text (a completion script, the man page): printed
// as it is on a terminal, {"shell"|"format", "script"} under --json.
type Script struct {
	Format string `json:"format"`
	Text   string `json:"script"`
}

// WriteHuman prints the script byte for byte.
func (s *Script) WriteHuman(w io.Writer) error {
	_, err := io.WriteString(w, s.Text)
	return err
}

// Names are the names `__complete` prints, one a line.
type Names struct {
	Kind  string   `json:"kind"`
	Names []string `json:"names"`
}

// WriteHuman prints one name a line.
func (n *Names) WriteHuman(w io.Writer) error {
	for _, s := range n.Names {
		if _, err := fmt.Fprintln(w, s); err != nil {
			return err
		}
	}
	return nil
}

func runCompletion(_ context.Context, inv *cli.Invocation) (any, error) {
	shell := inv.Args[0]
	m := completionModel(Commands())
	switch shell {
	case "bash":
		return &Script{Format: shell, Text: m.bash()}, nil
	case "zsh":
		return &Script{Format: shell, Text: m.zsh()}, nil
	case "fish":
		return &Script{Format: shell, Text: m.fish()}, nil
	}
	return nil, cli.UsageErr(cli.CodeBadArgs, "completion: no shell %q (bash, zsh or fish)", shell)
}

// maxCompleteNames bounds what __complete prints: a config or lock file is
// untrusted, and a completion menu of more is no help anyway.
const maxCompleteNames = 1000

func runCompleteNames(_ context.Context, inv *cli.Invocation) (any, error) {
	kind := inv.Args[0]
	if !slices.Contains(completeKinds, kind) {
		return nil, cli.UsageErr(cli.CodeBadArgs, "__complete: no kind %q (servers or tools)", kind)
	}
	out := &Names{Kind: kind, Names: []string{}}
	cfg, err := inv.LoadConfig()
	if err != nil {
		return nil, err
	}
	var servers []string
	for _, s := range cfg.Servers {
		servers = append(servers, s.Name)
	}
	names := servers
	if kind == "tools" {
		// Tools come from the lock only: knowing them otherwise means
		// connecting, which completion never does.
		names = nil
		if f, err := lock.Read(filepath.Join(inv.Global.Project, lock.FileName)); err == nil {
			for _, s := range f.Servers {
				if !slices.Contains(servers, s.Name) {
					continue
				}
				for _, t := range s.Tools {
					names = append(names, discovery.NamespacedName(s.Name, t.Name))
				}
			}
		} else if !os.IsNotExist(err) {
			return nil, err
		}
	}
	for _, n := range names {
		if completable(n) && len(out.Names) < maxCompleteNames {
			out.Names = append(out.Names, n)
		}
	}
	slices.Sort(out.Names)
	out.Names = slices.Compact(out.Names)
	return out, nil
}

// completable keeps a name a shell may offer: printable, no white space, no
// shell or terminal metacharacters (a hostile config's names fail only
// themselves).
func completable(s string) bool {
	if s == "" || len(s) > 200 {
		return false
	}
	for _, r := range s {
		ok := r == '-' || r == '_' || r == '.' || r == ':' || r == '@' || r == '/' ||
			(r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
		if !ok {
			return false
		}
	}
	return true
}

// compNode is one command path of the table as completion sees it.
type compNode struct {
	path    string     // space-joined; "" is the root
	summary string     // the command's summary
	subs    []string   // the next words (subcommands), hidden ones left out
	flags   []cli.Flag // the command's own flags (the globals are added apart)
	args    []cli.Arg
}

type compModel struct {
	globals []cli.Flag
	nodes   []*compNode // root first, then table order
}

func completionModel(t *cli.Table) *compModel {
	m := &compModel{}
	for _, f := range t.Globals {
		if !f.Hidden {
			m.globals = append(m.globals, f)
		}
	}
	byPath := map[string]*compNode{"": {path: ""}}
	m.nodes = append(m.nodes, byPath[""])
	for _, c := range t.Commands {
		n := &compNode{path: c.Name(), summary: c.Summary, args: c.Args}
		for _, f := range c.Flags {
			if !f.Hidden {
				n.flags = append(n.flags, f)
			}
		}
		byPath[n.path] = n
		m.nodes = append(m.nodes, n)
		if c.Hidden {
			continue
		}
		parent := byPath[strings.Join(c.Path[:len(c.Path)-1], " ")]
		if parent != nil {
			parent.subs = append(parent.subs, c.Path[len(c.Path)-1])
		}
	}
	return m
}

// argSource says where a positional's values come from: an enum, the
// declared servers or the locked tools ("" when nothing is offered).
func argSource(a cli.Arg) (enum []string, dynamic string) {
	switch {
	case len(a.Enum) > 0:
		return a.Enum, ""
	case a.Name == "SERVER" || strings.HasPrefix(a.Name, "SERVER|") || strings.Contains(a.Name, "|SERVER"):
		return nil, "servers"
	case a.Name == "TOOL":
		return nil, "tools"
	}
	return nil, ""
}

func (m *compModel) bash() string {
	var b strings.Builder
	b.WriteString("# bash completion for relavium (generated by `relavium completion bash`)\n")
	b.WriteString("# source it: source <(relavium completion bash)\n\n")
	// the subcommands of a path
	b.WriteString("_relavium_subs() {\n  case \"$1\" in\n")
	for _, n := range m.nodes {
		if len(n.subs) > 0 {
			fmt.Fprintf(&b, "    %s) echo %s ;;\n", bashQuote(n.path), bashQuote(strings.Join(n.subs, " ")))
		}
	}
	b.WriteString("  esac\n}\n\n")
	// the flags of a path (the globals always)
	var globals []string
	for _, f := range m.globals {
		globals = append(globals, "--"+f.Name)
	}
	b.WriteString("_relavium_flags() {\n  case \"$1\" in\n")
	for _, n := range m.nodes {
		if len(n.flags) == 0 {
			continue
		}
		var fs []string
		for _, f := range n.flags {
			fs = append(fs, "--"+f.Name)
		}
		fmt.Fprintf(&b, "    %s) echo %s ;;\n", bashQuote(n.path), bashQuote(strings.Join(fs, " ")))
	}
	fmt.Fprintf(&b, "  esac\n  echo %s\n}\n\n", bashQuote(strings.Join(globals, " ")))
	// the values of a flag at a path: 0 when it takes one (enum values or
	// the dynamic kind printed), 1 when it takes none
	b.WriteString("_relavium_value() {\n  case \"$1|$2\" in\n")
	valueArm := func(pattern string, f cli.Flag) {
		if f.Type == cli.Bool {
			return
		}
		words := ""
		switch {
		case len(f.Enum) > 0:
			words = "echo " + bashQuote(strings.Join(f.Enum, " "))
		case f.Name == "server":
			words = "echo @servers"
		default:
			words = ":"
		}
		fmt.Fprintf(&b, "    %s) %s ;;\n", pattern, words)
	}
	for _, n := range m.nodes {
		for _, f := range n.flags {
			valueArm(bashQuote(n.path+"|--"+f.Name), f)
		}
	}
	for _, f := range m.globals {
		valueArm("*"+bashQuote("|--"+f.Name), f)
	}
	b.WriteString("    *) return 1 ;;\n  esac\n}\n\n")
	// the values of the Nth positional of a path
	b.WriteString("_relavium_arg() {\n  case \"$1|$2\" in\n")
	for _, n := range m.nodes {
		for i, a := range n.args {
			enum, dyn := argSource(a)
			pat := bashQuote(fmt.Sprintf("%s|%d", n.path, i))
			if a.Variadic {
				pat = bashQuote(n.path+"|") + "*"
			}
			switch {
			case len(enum) > 0:
				fmt.Fprintf(&b, "    %s) echo %s ;;\n", pat, bashQuote(strings.Join(enum, " ")))
			case dyn != "":
				fmt.Fprintf(&b, "    %s) echo @%s ;;\n", pat, dyn)
			}
		}
	}
	b.WriteString("  esac\n}\n\n")
	b.WriteString(bashMain)
	return b.String()
}

// bashMain walks the words before the cursor: flags (skipping the value of
// one that takes a value), the subcommand path, then positionals; it offers
// what the tables above give for the word under the cursor. Names a project
// declares come from `relavium __complete` (config only, never a connection).
const bashMain = `_relavium_names() {
  local -a pa=()
  [[ -n "$2" ]] && pa=(--project "$2")
  "$1" "${pa[@]}" __complete "$3" 2>/dev/null
}

_relavium() {
  local cur="${COMP_WORDS[COMP_CWORD]}" path="" npos=0 skip=0 project="" i w subs vals
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="${COMP_WORDS[i]}"
    if ((skip)); then skip=0; [[ "${COMP_WORDS[i-1]}" == --project ]] && project="$w"; continue; fi
    case "$w" in
      --*=*) [[ "$w" == --project=* ]] && project="${w#--project=}" ;;
      -*) _relavium_value "$path" "$w" >/dev/null && skip=1 ;;
      *)
        subs=" $(_relavium_subs "$path") "
        if ((npos == 0)) && [[ "$subs" == *" $w "* ]]; then path="${path:+$path }$w"; else npos=$((npos + 1)); fi ;;
    esac
  done
  COMPREPLY=()
  if ((skip)); then
    vals="$(_relavium_value "$path" "${COMP_WORDS[COMP_CWORD-1]}")"
  elif [[ "$cur" == -* ]]; then
    vals="$(_relavium_flags "$path")"
  elif ((npos == 0)) && [[ -n "$(_relavium_subs "$path")" ]]; then
    vals="$(_relavium_subs "$path")"
  else
    vals="$(_relavium_arg "$path" "$npos")"
  fi
  case "$vals" in
    @servers) vals="$(_relavium_names "${COMP_WORDS[0]}" "$project" servers)" ;;
    @tools) vals="$(_relavium_names "${COMP_WORDS[0]}" "$project" tools)" ;;
  esac
  COMPREPLY=($(compgen -W "$vals" -- "$cur"))
}

complete -F _relavium relavium
`

// bashQuote quotes s for a bash word (single quotes; the table's words
// never hold one, but a quote is closed and escaped all the same).
func bashQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// zsh runs the bash function through zsh's bashcompinit: one walk of the
// table, the same answers in both shells.
func (m *compModel) zsh() string {
	return "#compdef relavium\n# zsh completion for relavium (generated by `relavium completion zsh`)\n" +
		"# source it: source <(relavium completion zsh)\n" +
		"(( $+functions[compdef] )) || { autoload -U +X compinit && compinit; }\n" +
		"autoload -U +X bashcompinit && bashcompinit\n" +
		strings.TrimPrefix(m.bash(), "# bash completion for relavium (generated by `relavium completion bash`)\n")
}

func (m *compModel) fish() string {
	var b strings.Builder
	b.WriteString("# fish completion for relavium (generated by `relavium completion fish`)\n")
	b.WriteString("# source it: relavium completion fish | source\n\n")
	// __relavium_path prints the subcommand path the command line has so far.
	b.WriteString("function __relavium_subs\n    switch \"$argv[1]\"\n")
	for _, n := range m.nodes {
		if len(n.subs) > 0 {
			fmt.Fprintf(&b, "        case %s\n            printf '%%s\\n' %s\n", fishQuote(n.path), strings.Join(quoteAll(n.subs, fishQuote), " "))
		}
	}
	b.WriteString("    end\nend\n\n")
	b.WriteString(`function __relavium_path
    set -l path ""
    set -l words (commandline -opc)
    set -e words[1]
    for w in $words
        string match -q -- '-*' $w; and continue
        if contains -- $w (__relavium_subs "$path")
            set path (string trim -- "$path $w")
        end
    end
    echo $path
end

function __relavium_at
    set -l p (__relavium_path)
    test "$p" = "$argv[1]"
end

function __relavium_names
    relavium __complete $argv[1] 2>/dev/null
end

complete -c relavium -f
`)
	for _, n := range m.nodes {
		cond := fishQuote("__relavium_at " + fishQuote(n.path))
		for _, s := range n.subs {
			sum := ""
			if c := m.node(strings.TrimSpace(n.path + " " + s)); c != nil {
				sum = c.summary
			}
			fmt.Fprintf(&b, "complete -c relavium -n %s -a %s -d %s\n", cond, fishQuote(s), fishQuote(shortSummary(sum)))
		}
		for _, f := range n.flags {
			b.WriteString(fishFlag(cond, f))
		}
		for _, a := range n.args {
			enum, dyn := argSource(a)
			switch {
			case len(enum) > 0:
				fmt.Fprintf(&b, "complete -c relavium -n %s -a %s\n", cond, fishQuote(strings.Join(enum, " ")))
			case dyn != "":
				fmt.Fprintf(&b, "complete -c relavium -n %s -a '(__relavium_names %s)'\n", cond, dyn)
			}
		}
	}
	for _, f := range m.globals {
		b.WriteString(fishFlag("", f))
	}
	return b.String()
}

func (m *compModel) node(path string) *compNode {
	for _, n := range m.nodes {
		if n.path == path {
			return n
		}
	}
	return nil
}

func fishFlag(cond string, f cli.Flag) string {
	s := "complete -c relavium"
	if cond != "" {
		s += " -n " + cond
	}
	s += " -l " + fishQuote(f.Name)
	switch {
	case len(f.Enum) > 0:
		s += " -x -a " + fishQuote(strings.Join(f.Enum, " "))
	case f.Name == "server":
		s += " -x -a '(__relavium_names servers)'"
	case f.Type != cli.Bool:
		s += " -r"
	}
	return s + " -d " + fishQuote(shortSummary(f.Usage)) + "\n"
}

func shortSummary(s string) string {
	if i := strings.IndexAny(s, ";("); i > 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

func quoteAll(ss []string, q func(string) string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = q(s)
	}
	return out
}
