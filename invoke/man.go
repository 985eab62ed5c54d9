package invoke

import (
	"context"
	"fmt"
	"github.com/relavium/relavium/invoke/cli"
	"strings"
)

// The man page is generated from the command table, like help and the
// completion scripts: a command or flag added there is documented here with
// no edit.

func runMan(_ context.Context, inv *cli.Invocation) (any, error) {
	return &Script{Format: "man", Text: manPage(Commands(), inv.Env.Version)}, nil
}

func manPage(t *cli.Table, version string) string {
	var b strings.Builder
	fmt.Fprintf(&b, ".TH RELAVIUM 1 \"\" %s \"User Commands\"\n", roffQuoted("relavium "+version))
	b.WriteString(".SH NAME\nrelavium \\- a terminal workbench for MCP servers: inspect, call, lint, lock, bench and serve\n")
	b.WriteString(".SH SYNOPSIS\n.B relavium\n")
	for _, f := range t.Globals {
		if !f.Hidden {
			fmt.Fprintf(&b, "[\\fB\\-\\-%s\\fR%s]\n", roff(f.Name), manValue(f))
		}
	}
	b.WriteString(".I command\n[\\fIargs\\fR]\n")
	b.WriteString(".SH DESCRIPTION\n" + roff("relavium connects the MCP servers a project declares (.relavium/config.toml, or another client's MCP file) and lets a person inspect them, call their tools, check them against a lock, lint them, load them and serve relavium's own commands as an MCP server. Without a command it opens the interactive session on a terminal.") + "\n")
	b.WriteString(".SS Global options\n")
	for _, f := range t.Globals {
		manFlag(&b, f)
	}
	b.WriteString(".SH COMMANDS\n")
	for _, c := range t.Commands {
		if c.Hidden || c.Run == nil {
			continue
		}
		b.WriteString(".TP\n\\fBrelavium " + roff(c.Name()) + "\\fR")
		for _, a := range c.Args {
			name := roff(a.Name)
			if a.Variadic {
				name += "..."
			}
			if a.Required {
				b.WriteString(" \\fI" + name + "\\fR")
			} else {
				b.WriteString(" [\\fI" + name + "\\fR]")
			}
		}
		b.WriteString("\n" + roff(c.Summary) + "\n")
		if len(c.Flags) > 0 {
			b.WriteString(".RS\n")
			for _, f := range c.Flags {
				manFlag(&b, f)
			}
			b.WriteString(".RE\n")
		}
	}
	b.WriteString(".SH EXIT STATUS\n.TP\n0\nsuccess\n.TP\n1\nfailure: a server, a check or a threshold failed\n.TP\n2\n" +
		roff("usage: a mistake in the command line or in relavium's own config, found before anything is spawned or dialled") + "\n")
	b.WriteString(".SH ENVIRONMENT\n.TP\n.B RELAVIUM_HOME\n" +
		roff("the directory of relavium's own state (consent grants, sign-ins, secrets); default ~/.relavium") + "\n")
	b.WriteString(".TP\n.B NO_COLOR\n" + roff("when set, the interactive session draws no colour") + "\n")
	b.WriteString(".SH FILES\n.TP\n.I .relavium/config.toml\n" + roff("the project's servers") + "\n.TP\n.I .relavium/mcp-lock.json\n" +
		roff("the lock relavium mcp lock writes and relavium mcp check compares with") + "\n")
	b.WriteString(".SH SEE ALSO\n" + roff("relavium help (the commands and the topics of the reference); docs/commands.md; relavium completion bash|zsh|fish") + "\n")
	return b.String()
}

func manValue(f cli.Flag) string {
	switch {
	case f.Type == cli.Bool:
		return ""
	case len(f.Enum) > 0:
		return " \\fI" + roff(strings.Join(f.Enum, "|")) + "\\fR"
	case f.Type == cli.StringArray || f.Type == cli.StringSlice:
		return " \\fIVALUE\\fR..."
	}
	return " \\fI" + roff(strings.ToUpper(string(f.Type))) + "\\fR"
}

func manFlag(b *strings.Builder, f cli.Flag) {
	if f.Hidden {
		return
	}
	fmt.Fprintf(b, ".TP\n\\fB\\-\\-%s\\fR%s\n", roff(f.Name), manValue(f))
	u := f.Usage
	if f.Default != "" {
		u += " (default " + f.Default + ")"
	}
	b.WriteString(roff(u) + "\n")
}

// roff escapes text for a roff line: backslashes become \e, hyphens \-
// (so they stay hyphens), and a line never starts with a control character
// ('.' or '\”), which roff would read as a request.
func roff(s string) string {
	s = strings.NewReplacer(`\`, `\e`, "-", `\-`, "\n", " ").Replace(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// roffQuoted is roff text inside a double-quoted macro argument.
func roffQuoted(s string) string {
	return `"` + strings.ReplaceAll(roff(s), `"`, `""`) + `"`
}
