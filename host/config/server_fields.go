package config

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/fault"
)

// The checks of one field of a server entry: its command, cwd and
// arguments, its timeouts, its tool lists and its url.

func (c *checker) command(f *field, path string) string {
	s, ok := c.required(f, path, "the program to spawn")
	if !ok {
		return ""
	}
	switch {
	case strings.ContainsRune(s, 0):
		c.add(CodeValue, f.at(), path, "contains a NUL byte, which no program name can hold")
		return ""
	case s != strings.TrimSpace(s):
		c.add(CodeValue, f.at(), path, "has leading or trailing white space: %q", s)
		return ""
	case looksLikeCommandLine(s):
		first, rest, _ := strings.Cut(s, " ")
		c.add(CodeValue, f.at(), path, "is one program, not a command line (no shell runs it): set command to %q and put [%s] in args", first, quoteList(strings.Fields(rest)))
		return ""
	case !c.pathRefs(s, f, path):
		return ""
	}
	return s
}

// pathRefs checks the references of a command or cwd: only {{env.VAR}} /
// {{env.VAR:-default}}, read from relavium's environment when the server
// is resolved (a secret never names a program or a directory).
func (c *checker) pathRefs(s string, f *field, path string) bool {
	if !strings.Contains(s, "{{") && !strings.Contains(s, "}}") {
		return true
	}
	spans, ok := consent.RefsIn(s)
	for _, sp := range spans {
		ok = ok && sp.Secret == ""
	}
	if ok && secretRefOK(s) {
		return true
	}
	c.add(CodeSecretRef, f.at(), path, "a {{…}} in a command or cwd must read {{env.VAR}} or {{env.VAR:-default}} (\"{{env.HOME}}/.local/bin/server\"), read from relavium's environment when the server is resolved; a secret is passed in env or an argument, never as a path")
	return false
}

// cwd is a stdio server's working directory: absolute, or relative to the
// project directory. It is digested, so consent names it.
func (c *checker) cwd(f *field, path, project string) string {
	if p := c.projectPath(f, path, project, "the directory the server runs in (leave cwd out for the project directory)"); p != "" {
		return p
	}
	return project
}

// projectPath is a path field (cwd, env_file): absolute as written, or
// relative to the project; "" when refused.
func (c *checker) projectPath(f *field, path, project, what string) string {
	s, ok := c.required(f, path, what)
	switch {
	case !ok:
		return ""
	case strings.ContainsRune(s, 0):
		c.add(CodeValue, f.at(), path, "contains a NUL byte, which no path can hold")
		return ""
	case strings.HasPrefix(s, "~"):
		c.add(CodeValue, f.at(), path, "starts with ~, which no shell expands here: write the absolute path")
		return ""
	case strings.HasPrefix(s, "{{env."):
		// "{{env.HOME}}/state": absolute once read, which resolution checks.
		if !c.pathRefs(s, f, path) {
			return ""
		}
		return s
	case !c.pathRefs(s, f, path):
		return ""
	case filepath.IsAbs(s):
		return filepath.Clean(s)
	}
	return filepath.Join(project, s)
}

func quoteList(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = fmt.Sprintf("%q", w)
	}
	return strings.Join(q, ", ")
}

// looksLikeCommandLine: a word, a blank, then more, where the word is no
// path ("npx -y pkg"). A path may hold blanks: "/opt/My App/server", and
// a Windows one, "C:\\Program Files\\nodejs\\node.exe".
func looksLikeCommandLine(s string) bool {
	first, _, found := strings.Cut(s, " ")
	return found && !strings.ContainsAny(first, "/\\") || strings.ContainsRune(s, '\t')
}

func (c *checker) args(f *field, path string) []string {
	items, _, ok := c.strItems(f, path, CodeType, "strings", "a string")
	vals := []string{}
	for _, it := range items {
		if strings.ContainsRune(it.val, 0) {
			c.add(CodeValue, it.pos, fmt.Sprintf("%s[%d]", path, it.index), "contains a NUL byte, which no process argument can hold")
			ok = false
		}
		if _, refs := consent.RefsIn(it.val); !refs {
			c.add(CodeSecretRef, it.pos, fmt.Sprintf("%s[%d]", path, it.index), "an {{env.…}} or {{secrets.…}} in an argument must read {{env.VAR}}, {{env.VAR:-default}} or {{secrets.NAME}} (alone or inside text, \"--db={{env.HOME}}/db\"); this one would be passed to the server literally")
			ok = false
		}
		vals = append(vals, it.val)
	}
	if !ok {
		return nil
	}
	return vals
}

func (c *checker) connectTimeout(f *field, path string) time.Duration {
	switch f.val.kind {
	case kindBad:
		return 0
	case kindInt:
		n := f.val.num
		switch {
		case n <= 0:
			c.add(CodeConnectTimeout, f.at(), path, "must be a positive number of milliseconds, got %d (leave it out for the transport's default)", n)
		case n > maxConnectTimeoutMS:
			c.add(CodeConnectTimeout, f.at(), path, "must be at most %d (10 minutes), got %d", maxConnectTimeoutMS, n)
		default:
			return time.Duration(n) * time.Millisecond
		}
		return 0
	}
	got := f.val.kind.String()
	if f.val.spelled != "" && f.val.kind != kindString {
		got += " (" + f.val.spelled + ")"
	}
	c.add(CodeConnectTimeout, f.at(), path, "must be a positive integer number of milliseconds, at most %d; got %s", maxConnectTimeoutMS, got)
	return 0
}

// allowlist checks tools_allowlist: tool names, each once, never empty.
// present is false when the field reads as absent (YAML null).
func (c *checker) allowlist(f *field, path string) (vals []string, at []Pos, present bool) {
	return c.toolList(f, path, "is empty, which would admit no tool at all: name the tools to admit, or remove tools_allowlist to admit every tool")
}

// denylist checks tools_denylist: tool names, each once (an empty list
// denies nothing). A name also in tools_allowlist is refused: the server
// would be told two opposite things about one tool.
func (c *checker) denylist(f *field, path string, allow []string) []string {
	vals, at, _ := c.toolList(f, path, "")
	for i, name := range vals {
		if contains(allow, name) {
			c.add(CodeToolsAllowlist, at[i], fmt.Sprintf("%s[%d]", path, i), "%q is in tools_allowlist too: a tool is admitted or denied, not both (remove it from one list)", name)
			return nil
		}
	}
	return vals
}

// toolList checks a list of exact tool names (tools_allowlist,
// tools_auto_approve): each a possible MCP tool name, each once. An empty
// list is refused with ifEmpty, unless ifEmpty is "" (tools_auto_approve =
// [] approves nothing, which is harmless).
func (c *checker) toolList(f *field, path, ifEmpty string) (vals []string, at []Pos, present bool) {
	items, present, ok := c.strItems(f, path, CodeToolsAllowlist, "tool names", "a tool name")
	if !present {
		return nil, nil, false
	}
	if ok && len(items) == 0 {
		if ifEmpty != "" {
			c.add(CodeToolsAllowlist, f.at(), path, "%s", ifEmpty)
		}
		return nil, nil, true
	}
	seen := map[string]strItem{}
	for _, it := range items {
		p := fmt.Sprintf("%s[%d]", path, it.index)
		switch name := it.val; {
		case name == "":
			c.add(CodeToolsAllowlist, it.pos, p, "is empty: name a tool the server lists")
			ok = false
		case len(name) > maxAllowlistEntryLen:
			c.add(CodeToolsAllowlist, it.pos, p, "is %d bytes long; MCP tool names are at most %d", len(name), maxAllowlistEntryLen)
			ok = false
		case strings.IndexFunc(name, badToolRune) >= 0:
			c.add(CodeToolsAllowlist, it.pos, p, "%q holds white space or a control character, which no admitted tool name can", name)
			ok = false
		}
		if first, dup := seen[it.val]; dup {
			c.add(CodeToolsAllowlist, it.pos, p, "%q is listed twice (first as %s[%d] at %d:%d): list each tool once", it.val, path, first.index, first.pos.Line, first.pos.Col).Related = []Pos{first.pos}
			ok = false
		} else {
			seen[it.val] = it
		}
		vals, at = append(vals, it.val), append(at, it.pos)
	}
	if !ok {
		return nil, nil, true
	}
	return vals, at, true
}

func badToolRune(r rune) bool {
	return r <= ' ' || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x2028 || r == 0x2029
}

// messageOf is an error's text without its "E…: " code prefix, its cause
// kept (a refused url says why it does not parse). Not fault.MessageOf,
// which drops the cause: the problem's cause is all a reader gets of it.
func messageOf(err error) string {
	msg := err.Error()
	var ce fault.Coded
	if errors.As(err, &ce) {
		msg = strings.TrimPrefix(msg, string(ce.Code())+": ")
	}
	return msg
}

// causeOf keeps the owning package's code, message and envelope data (a
// netguard refusal's reason, address and remedy) for machine readers.
func causeOf(err error) any {
	var ce fault.Coded
	if !errors.As(err, &ce) {
		return err.Error()
	}
	cause := map[string]any{"code": ce.Code(), "message": messageOf(ce)}
	if d, ok := ce.(interface{ ErrorData() any }); ok && d.ErrorData() != nil {
		cause["data"] = d.ErrorData()
	}
	return cause
}
