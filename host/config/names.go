package config

import (
	"fmt"
	"strings"
)

// A server name becomes part of every tool name the host publishes,
// mcp_{server}_{tool}, which models and MCP clients accept only as
// [A-Za-z0-9_-]{1,64}. Server names are therefore lowercase ASCII letters,
// digits and '-', starting with a letter or digit, at most 48 characters:
//   - lowercase only, so two names never differ by case alone (grants, files
//     and people all compare them case-insensitively);
//   - no '_', so the first '_' after "mcp_" always ends the server name and
//     mcp_{server}_{tool} parses back unambiguously (server "a_b" with tool
//     "c" and server "a" with tool "b_c" would otherwise collide);
//   - 48 leaves room for the "mcp_" prefix and a tool name within 64.
func validServerName(s string) bool {
	if s == "" || len(s) > maxServerNameLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '-' && i > 0:
		default:
			return false
		}
	}
	return true
}

// checkServerName reports a name outside the charset, suggesting a fix.
func (c *checker) checkServerName(name string, at Pos, path, what string) bool {
	if validServerName(name) {
		return true
	}
	msg := fmt.Sprintf("%s %q is not a valid server name: use 1-%d lowercase letters, digits and '-' (starting with a letter or digit), because it becomes part of every tool name mcp_<server>_<tool>", what, name, maxServerNameLen)
	if fix := fixServerName(name); fix != "" && fix != name && validServerName(fix) {
		msg += fmt.Sprintf("; try %q", fix)
	}
	c.add(CodeName, at, path, "%s", msg)
	return false
}

func fixServerName(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
			return r
		case r == '_' || r == ' ' || r == '.' || r == '/':
			return '-'
		}
		return -1
	}, s)
	return strings.TrimLeft(s, "-")
}

// validAgentName: agent names are file names (--agent NAME reads
// .relavium/agents/NAME.yaml) and never reach a tool name, so they follow
// the workflow id charset [a-z0-9_-].
func validAgentName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
