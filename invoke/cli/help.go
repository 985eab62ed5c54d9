package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/relavium/relavium/docs"
)

// HelpText is the rendered help for one command or the root.
type HelpText struct {
	Command  string        `json:"command"`
	Usage    string        `json:"usage"`
	Summary  string        `json:"summary,omitempty"`
	Commands []HelpCommand `json:"commands,omitempty"`
	Flags    []HelpFlag    `json:"flags,omitempty"`
	Globals  []HelpFlag    `json:"global_flags"`
	Topics   []docs.Topic  `json:"topics,omitempty"` // the reference pages, on the root's help
	Examples []string      `json:"examples,omitempty"`
}

// HelpCommand is one line of a command list.
type HelpCommand struct {
	Name    string `json:"name"`
	Summary string `json:"summary"`
}

// HelpFlag is one line of a flag list.
type HelpFlag struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Default string `json:"default,omitempty"`
	Usage   string `json:"usage"`
}

// RunHelp prints the help of a command, or a page of the reference
// (help_topic.go) when the one word is a topic; a command wins, and the
// docs tests keep topic and command names apart.
func RunHelp(_ context.Context, inv *Invocation) (any, error) {
	t := inv.Table
	if len(inv.Args) > 0 && !t.isPrefix(inv.Args) {
		return helpTopic(t, inv.Args)
	}
	return t.Help(inv.Args), nil
}

// Help renders help for path (the root when empty), from the table alone.
func (t *Table) Help(path []string) *HelpText {
	h := &HelpText{Command: strings.Join(path, " ")}
	for _, g := range t.Globals {
		h.Globals = append(h.Globals, helpFlag(g))
	}
	cmd := t.Lookup(path)
	if cmd != nil && cmd.Run != nil {
		h.Summary = cmd.Summary
		h.Examples = CommandExamples()[cmd.Name()]
		h.Usage = "relavium " + cmd.Name()
		if syn := argSynopsis(cmd); syn != "" {
			h.Usage += " " + syn
		}
		if len(cmd.Flags) > 0 {
			h.Usage += " [flags]"
		}
		for _, f := range cmd.Flags {
			if !f.Hidden {
				h.Flags = append(h.Flags, helpFlag(f))
			}
		}
		return h
	}
	if cmd != nil {
		h.Summary = cmd.Summary
	}
	if len(path) == 0 {
		h.Topics = docs.Topics()
	}
	h.Usage = strings.Join(append(append([]string{"relavium"}, path...), "COMMAND [flags]"), " ")
	for _, c := range t.Commands {
		if c.Hidden || c.Run == nil || len(c.Path) <= len(path) || !equalPath(c.Path[:len(path)], path) {
			continue
		}
		name := c.Name()
		if syn := argSynopsis(c); syn != "" {
			name += " " + syn
		}
		h.Commands = append(h.Commands, HelpCommand{Name: name, Summary: c.Summary})
	}
	return h
}

func helpFlag(f Flag) HelpFlag {
	return HelpFlag{Name: f.Name, Type: string(f.Type), Default: f.Default, Usage: f.Usage}
}

func argSynopsis(c *Command) string {
	var parts []string
	for _, a := range c.Args {
		s := a.Name
		if a.Variadic {
			s += "..."
		}
		if !a.Required {
			s = "[" + s + "]"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// WriteHuman prints the help text.
func (h *HelpText) WriteHuman(w io.Writer) error {
	var b strings.Builder
	if h.Command == "" {
		b.WriteString("relavium — a terminal workbench for the Model Context Protocol\n\n")
	} else if h.Summary != "" {
		b.WriteString(h.Summary + "\n\n")
	}
	fmt.Fprintf(&b, "Usage:\n  %s\n", h.Usage)
	if len(h.Commands) > 0 {
		b.WriteString("\nCommands:\n")
		for _, c := range h.Commands {
			fmt.Fprintf(&b, "  %-34s %s\n", c.Name, c.Summary)
		}
	}
	writeFlags := func(title string, fl []HelpFlag) {
		if len(fl) == 0 {
			return
		}
		b.WriteString("\n" + title + ":\n")
		for _, f := range fl {
			name := "--" + f.Name
			if f.Type != string(Bool) {
				name += " " + strings.ToUpper(strings.TrimSuffix(strings.TrimSuffix(f.Type, "Slice"), "Array"))
			}
			usage := f.Usage
			if f.Default != "" {
				usage += " (default " + f.Default + ")"
			}
			fmt.Fprintf(&b, "  %-34s %s\n", name, usage)
		}
	}
	if len(h.Examples) > 0 {
		b.WriteString("\nExamples:\n")
		for _, e := range h.Examples {
			b.WriteString("  " + e + "\n")
		}
	}
	writeFlags("Flags", h.Flags)
	writeFlags("Global flags", h.Globals)
	if len(h.Topics) > 0 {
		b.WriteString("\nTopics (relavium help TOPIC prints the page):\n")
		for _, tp := range h.Topics {
			fmt.Fprintf(&b, "  %-34s %s\n", tp.Name, tp.Title)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
