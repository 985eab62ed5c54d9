package sandbox

import (
	"path/filepath"
	"regexp"
	"strings"
)

// denial matches what a program reports when the kernel refused it: the
// errno's name or its C message, as node, python and libc print them.
var denial = regexp.MustCompile(`(?i)\bEACCES\b|permission denied|\bEPERM\b|operation not permitted`)

// quotedPath finds the first absolute path in a message ('…', "…" or bare).
var quotedPath = regexp.MustCompile(`['"](/[^'"]*)['"]|(?:^|\s)(/[^\s'",):]+)`)

// Explain is the one-line reason a server's error text shows a refusal by
// its sandbox ("sandbox: write outside the roots refused (/etc/x)"), or ""
// when the text reports no denial. It judges the path the text names
// against the policy: not readable at all, readable but not writable.
func Explain(p Policy, text string) string {
	if !p.Enabled || !denial.MatchString(text) {
		return ""
	}
	lower := strings.ToLower(text)
	if strings.Contains(lower, "connect") && p.Network != NetOpen {
		return "sandbox: connection refused (network " + string(p.Network) + ")"
	}
	m := quotedPath.FindStringSubmatch(text)
	path := ""
	if m != nil {
		path = m[1]
		if path == "" {
			path = m[2]
		}
		path = filepath.Clean(path)
	}
	switch {
	case path == "":
		return "sandbox: an access outside the policy was refused"
	case under(path, p.Write):
		return "" // writable: the refusal is the file system's, not the sandbox's
	case under(path, p.Read):
		return "sandbox: write outside the roots refused (" + clip(path) + ")"
	}
	return "sandbox: access outside the policy refused (" + clip(path) + ")"
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
