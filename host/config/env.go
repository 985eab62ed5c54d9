package config

import (
	"strings"

	"github.com/relavium/relavium/consent"
)

// env checks a stdio server's declared environment, in authored order. A
// value is never echoed in a message: it may be a credential.
func (c *checker) env(f *field, path string) []EnvVar {
	t, ok := c.table(f, path, "a table of NAME = \"value\" entries")
	if !ok {
		return nil
	}
	before := len(c.problems)
	out := []EnvVar{}
	for _, e := range t.fields {
		p := join(path, e.key)
		name := e.key
		if !validEnvName(name) {
			c.add(CodeEnvName, e.keyPos, p, "%q is not a portable environment variable name: use letters, digits and '_', not starting with a digit", name)
			continue
		}
		var value string
		switch e.val.kind {
		case kindString:
			value = e.val.str
		case kindBad:
			continue
		default:
			c.add(CodeType, e.at(), p, "environment values are strings, got %s (quote it)", e.val.kind)
			continue
		}
		if strings.EqualFold(name, "PATH") {
			c.add(CodeEnvPath, e.keyPos, p, "a declared PATH is refused: relavium resolves the command on the ambient PATH before asking for consent, and the child inherits that PATH; give command as an absolute path instead")
			continue
		}
		if err := consent.CheckEnv(name, value); err != nil {
			at := e.keyPos
			if consent.CheckEnv(name, "") == nil { // the value, not the name, was refused
				at = e.at()
			}
			c.add(CodeEnvDenied, at, p, "%s", redact(messageOf(err), value)).Cause = redactCause(causeOf(err), value)
			continue
		}
		if strings.ContainsRune(value, 0) {
			c.add(CodeValue, e.at(), p, "the value contains a NUL byte, which no environment variable can hold")
			continue
		}
		if !secretRefOK(value) {
			c.add(CodeSecretRef, e.at(), p, "a {{…}} template in an env value must name a secret or an environment variable, {{secrets.NAME}} (NAME: letters, digits, '_', '-', '.') or {{env.VAR}} / {{env.VAR:-default}}, the whole value or inside text (\"{{env.HOME}}/state\"); anything else would be passed to the server literally")
			continue
		}
		out = append(out, EnvVar{Name: name, Value: value})
	}
	if len(c.problems) != before {
		return nil
	}
	return out
}

// validEnvName is the POSIX portable name: [A-Za-z_][A-Za-z0-9_]*.
func validEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '_', ch >= 'A' && ch <= 'Z', ch >= 'a' && ch <= 'z':
		case ch >= '0' && ch <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// secretRefOK accepts a value without templates, or one whose every
// {{…}} is a {{secrets.NAME}} or {{env.VAR}} reference, the whole value or
// inside text ("{{env.HOME}}/state"), as consent (which digests it) and
// the host (which expands it at spawn) read them: the same functions
// decide. Any other {{ or }} would reach the server literally.
func secretRefOK(v string) bool {
	if !strings.Contains(v, "{{") && !strings.Contains(v, "}}") {
		return true
	}
	spans, ok := consent.RefsIn(v)
	if !ok {
		return false
	}
	var rest strings.Builder
	last := 0
	for _, sp := range spans {
		rest.WriteString(v[last:sp.Start])
		last = sp.End
	}
	rest.WriteString(v[last:])
	return !strings.Contains(rest.String(), "{{") && !strings.Contains(rest.String(), "}}")
}

// redact removes a declared value from a message of another package, so a
// credential never reaches a terminal, a log or an envelope.
func redact(msg, value string) string {
	if len(value) < 4 {
		return msg
	}
	return strings.ReplaceAll(msg, value, "<value withheld>")
}

func redactCause(cause any, value string) any {
	switch v := cause.(type) {
	case string:
		return redact(v, value)
	case map[string]any:
		for k, s := range v {
			if str, ok := s.(string); ok {
				v[k] = redact(str, value)
			}
		}
		return v
	}
	return cause
}
