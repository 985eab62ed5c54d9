package config

import (
	"fmt"
	"strings"

	"github.com/relavium/relavium/authored"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
)

// checker collects every problem of a load; nothing stops at the first.
type checker struct {
	problems []Problem
	warnings []Problem
	// lookupEnv reads relavium's environment for a url's {{env.VAR}}
	// (Sources.LookupEnv; nil: every variable unset).
	lookupEnv func(string) (string, bool)
	// holdLocal: the entry checked comes from another client's file, so a
	// url refused only for its loopback or private address is held for
	// the person's word (Server.LocalHeld) instead of refused.
	holdLocal bool
	// typed are the ids of the inputs the client-file entry being checked
	// asks the person to type (its ${input:id}): only such a value may make
	// up a url's host (url.go).
	typed []string
}

// ruleOf names the rule behind a code: the stable, human-readable id a
// Problem carries beside its code.
func ruleOf(code fault.Code) string {
	switch code {
	case CodeSyntax:
		return "syntax"
	case CodeNesting:
		return "nesting"
	case CodeUnknownKey:
		return "unknown-key"
	case CodeType:
		return "type"
	case CodeRequired:
		return "required"
	case CodeName:
		return "name"
	case CodeDuplicateName:
		return "duplicate-name"
	case CodeTransport:
		return "transport"
	case CodeRefExcludes:
		return "ref-excludes-inline"
	case CodeStdioOnly:
		return "stdio-only-field"
	case CodeNetworkOnly:
		return "network-only-field"
	case CodeConnectTimeout:
		return "connect-timeout"
	case CodeCallTimeout:
		return "call-timeout"
	case CodeEnvDenied:
		return "env-denied"
	case CodeEnvPath:
		return "env-path"
	case CodeEnvName:
		return "env-name"
	case CodeURL:
		return "url"
	case CodeSecretRef:
		return "secret-ref"
	case CodeTheme:
		return "theme"
	case CodeToolsAllowlist:
		return "tools-allowlist"
	case CodeAgentName:
		return "agent-name"
	case CodeUnknownRef:
		return "unknown-ref"
	case CodeSSEDeprecated:
		return "sse-deprecated"
	case CodeUnreadable:
		return "unreadable"
	case CodeValue:
		return "value"
	case CodeYAMLFeature:
		return "yaml-feature"
	case CodeHeaderName:
		return "header-name"
	case CodeHeaderReserved:
		return "header-reserved"
	case CodeHeaderValue:
		return "header-value"
	case CodeHeaderSecretRef:
		return "header-secret-ref"
	case CodeURLEnvUnset:
		return "url-env-unset"
	case CodeLintSuppress:
		return "lint-suppress"
	case CodeProtocol:
		return "protocol"
	case CodeOAuth:
		return "oauth"
	case CodeOAuthTransport:
		return "oauth-transport"
	}
	return "config"
}

func (c *checker) add(code fault.Code, at Pos, field, format string, a ...any) *Problem {
	c.problems = append(c.problems, Problem{Problem: authored.Problem{Code: code, Pos: at, Field: field,
		Message: fmt.Sprintf(format, a...)}, Rule: ruleOf(code), Severity: severityError})
	return &c.problems[len(c.problems)-1]
}

// adopt records the problems the authored layer's reader found.
func (c *checker) adopt(ps authored.Problems) {
	for _, p := range ps {
		c.problems = append(c.problems, Problem{Problem: p, Rule: ruleOf(p.Code), Severity: severityError})
	}
}

func (c *checker) warn(code fault.Code, at Pos, field, format string, a ...any) {
	c.warnings = append(c.warnings, Problem{Problem: authored.Problem{Code: code, Pos: at, Field: field,
		Message: fmt.Sprintf(format, a...)}, Rule: ruleOf(code), Severity: severityWarning})
}

// wrongType reports a value of the wrong type, saying what was found.
func (c *checker) wrongType(f *field, path, want string) {
	got := f.val.kind.String()
	if f.val.spelled != "" && (f.val.kind == kindFloat || f.val.kind == kindOther) {
		got += " (" + f.val.spelled + ")"
	}
	c.add(CodeType, f.at(), path, "must be %s, got %s", want, got)
}

// str returns a string field's value. ok is false (and a problem was
// reported, unless the value was already reported) when it is not a string.
func (c *checker) str(f *field, path string) (string, bool) {
	switch f.val.kind {
	case kindString:
		return f.val.str, true
	case kindBad:
		return "", false
	}
	c.wrongType(f, path, "a string")
	return "", false
}

// required is str for a field that must not be empty.
func (c *checker) required(f *field, path, what string) (string, bool) {
	if f.val.kind == kindNull {
		c.add(CodeRequired, f.at(), path, "is empty: %s", what)
		return "", false
	}
	s, ok := c.str(f, path)
	if !ok {
		return "", false
	}
	if strings.TrimSpace(s) == "" {
		c.add(CodeRequired, f.at(), path, "is empty: %s", what)
		return "", false
	}
	return s, true
}

func (c *checker) boolean(f *field, path string) (bool, bool) {
	switch f.val.kind {
	case kindBool:
		return f.val.bool, true
	case kindBad:
		return false, false
	}
	c.wrongType(f, path, "true or false")
	return false, false
}

// strItem is one string element of an array, with its index and place.
type strItem struct {
	val   string
	index int
	pos   Pos
}

// strItems returns the string elements of an array; null reads as absent
// (present false). Every element of another type is reported; ok is false
// when anything was.
func (c *checker) strItems(f *field, path string, code fault.Code, plural, singular string) (items []strItem, present, ok bool) {
	switch f.val.kind {
	case kindNull:
		return nil, false, true
	case kindBad:
		return nil, true, false
	case kindArray:
	default:
		c.add(code, f.at(), path, "must be an array of %s, got %s", plural, f.val.kind)
		return nil, true, false
	}
	ok = true
	items = []strItem{}
	for i, it := range f.val.items {
		p := it.pos
		if p.Line == 0 {
			p = f.at()
		}
		switch it.kind {
		case kindString:
			items = append(items, strItem{val: it.str, index: i, pos: p})
		case kindBad:
			ok = false
		default:
			c.add(code, p, fmt.Sprintf("%s[%d]", path, i), "must be %s, got %s", singular, it.kind)
			ok = false
		}
	}
	return items, true, ok
}

// table returns a table field; null reads as an empty table.
func (c *checker) table(f *field, path, want string) (*node, bool) {
	switch f.val.kind {
	case kindTable:
		return f.val, true
	case kindNull:
		return &node{kind: kindTable, pos: f.keyPos}, true
	case kindBad:
		return nil, false
	}
	c.wrongType(f, path, want)
	return nil, false
}

// unknownKeys reports every key outside known, with a hint where one helps.
func (c *checker) unknownKeys(t *node, path string, known []string, hint func(string) string) {
	for _, f := range t.fields {
		if contains(known, f.key) {
			continue
		}
		msg := fmt.Sprintf("unknown key %q", f.key)
		if h := hint(f.key); h != "" {
			msg += "; " + h
		} else if s := engine.Suggest(f.key, known); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		msg += " (known: " + strings.Join(known, ", ") + ")"
		c.add(CodeUnknownKey, f.keyPos, join(path, f.key), "%s", msg)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// join builds a field path: join("mcp_servers[0]", "env") = mcp_servers[0].env.
func join(path, key string) string { return authored.Join(path, key) }
