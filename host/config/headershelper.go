package config

import (
	"strings"
	"unicode"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/fault"
)

// CodeHeadersHelper is a headers_helper that is not a usable shell line.
const CodeHeadersHelper fault.Code = "E249"

// MaxHeadersHelper bounds a headers_helper line.
const MaxHeadersHelper = 4096

// headersHelper checks a network server's headers_helper (Claude Code's
// headersHelper): a shell line relavium runs, once the person consented
// to it, before each connect; its stdout is a JSON object of header names
// to values (docs/remote-servers.md). The line is kept as written and
// digested so: each {{env.VAR}} (or {{env.VAR:-default}}) becomes the
// shell's own ${VAR} over a variable put in the helper's environment, so
// a value is never parsed as shell text. A {{secrets.NAME}} is refused (a
// secret is bound to an origin, never handed to a program this way), and
// so is a variable the env denylist refuses, a control character (a
// newline included: one line) or a line over 4 KiB.
func (c *checker) headersHelper(f *field, path string) string {
	line, ok := c.required(f, path, "the shell line whose output is the request headers")
	if !ok {
		return ""
	}
	switch {
	case len(line) > MaxHeadersHelper:
		c.add(CodeHeadersHelper, f.at(), path, "is %d bytes; a headers_helper line is at most %d", len(line), MaxHeadersHelper)
		return ""
	case strings.IndexFunc(line, func(r rune) bool { return unicode.IsControl(r) && r != '\t' }) >= 0:
		c.add(CodeHeadersHelper, f.at(), path, "holds a control character (a newline included): a headers_helper is one shell line")
		return ""
	}
	spans, ok := consent.RefsIn(line)
	if !ok {
		c.add(CodeHeadersHelper, f.at(), path, "an {{env.…}} or {{secrets.…}} in a headers_helper must read {{env.VAR}} or {{env.VAR:-default}}; this one would reach the shell as written")
		return ""
	}
	for _, sp := range spans {
		if sp.Secret != "" {
			c.add(CodeHeadersHelper, f.at(), path, "names {{secrets.%s}}: a secret is never handed to a program this way (the helper reads its own credentials; a secret header goes in headers, bound to the origin)", sp.Secret)
			return ""
		}
		if err := consent.CheckEnv(sp.Name, ""); err != nil && !consent.Inherited(sp.Name) {
			c.add(CodeHeadersHelper, f.at(), path, "reads {{env.%s}}, which the env denylist keeps from any program relavium runs (%s)", sp.Name, fault.MessageOf(err))
			return ""
		}
	}
	return line
}
