package config

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/host/config/mcpjson"
)

// TOML renders servers as [[mcp_servers]] registrations that Load reads
// back as the same servers (the round trip `config import` rests on). A
// stdio server's cwd is written relative to project when it lies inside it,
// and left out when it is the project. An imported server is preceded by a
// comment naming where it came from. With withhold, a literal credential
// (EnvLiteralSecret, HeaderLiteralSecret) is written as [REDACTED] (for a
// terminal; config import --write moves it to the secret store first).
func TOML(servers []Server, project string, withhold bool) string {
	var b strings.Builder
	for i, s := range servers {
		if i > 0 {
			b.WriteString("\n")
		}
		if s.Import != nil {
			fmt.Fprintf(&b, "# from %s:%d:%d", displayPath(project, s.Pos.File), s.Pos.Line, s.Pos.Col)
			if s.Import.Written != s.Name {
				fmt.Fprintf(&b, " (written %s there)", tomlString(s.Import.Written))
			}
			b.WriteString("\n")
		}
		b.WriteString("[[mcp_servers]]\n")
		kv(&b, "name", tomlString(s.Name))
		kv(&b, "transport", tomlString(s.Transport))
		if s.Command != "" {
			kv(&b, "command", tomlString(s.Command))
		}
		if len(s.Args) > 0 {
			kv(&b, "args", tomlArray(s.Args))
		}
		if len(s.Env) > 0 {
			pairs := make([]string, len(s.Env))
			for i, e := range s.Env {
				v := e.Value
				if withhold && EnvLiteralSecret(e.Name, v) {
					v = Redacted
				}
				pairs[i] = tomlKey(e.Name) + " = " + tomlString(v)
			}
			kv(&b, "env", "{ "+strings.Join(pairs, ", ")+" }")
		}
		if s.Transport == "stdio" && s.Dir != "" && s.Dir != project {
			dir := s.Dir
			if rel, err := filepath.Rel(project, s.Dir); err == nil && project != "" && !strings.HasPrefix(rel, "..") {
				dir = rel
			}
			kv(&b, "cwd", tomlString(dir))
		}
		if s.EnvFile != "" {
			f := s.EnvFile
			if rel, err := filepath.Rel(project, f); err == nil && project != "" && !strings.HasPrefix(rel, "..") {
				f = rel
			}
			kv(&b, "env_file", tomlString(f))
		}
		renderEndpoint(&b, s, withhold)
		if s.ConnectTimeout > 0 {
			kv(&b, "connect_timeout_ms", fmt.Sprint(s.ConnectTimeout.Milliseconds()))
		}
		if s.CallTimeout > 0 {
			kv(&b, "call_timeout_ms", fmt.Sprint(s.CallTimeout.Milliseconds()))
		}
		if len(s.ToolsAllowlist) > 0 {
			kv(&b, "tools_allowlist", tomlArray(s.ToolsAllowlist))
		}
		if len(s.ToolsDenylist) > 0 {
			kv(&b, "tools_denylist", tomlArray(s.ToolsDenylist))
		}
		if len(s.ToolsAutoApprove) > 0 {
			kv(&b, "tools_auto_approve", tomlArray(s.ToolsAutoApprove))
		}
		if s.Autostart {
			kv(&b, "autostart", "true")
		}
		if s.Protocol != "" {
			kv(&b, "protocol", tomlString(s.Protocol))
		}
	}
	return b.String()
}

func renderEndpoint(b *strings.Builder, s Server, withhold bool) {
	if s.URL != "" {
		kv(b, "url", tomlString(s.URL))
	}
	if s.AllowLocalEndpoint {
		kv(b, "allow_local_endpoint", "true")
	}
	if s.HeadersHelper != "" {
		kv(b, "headers_helper", tomlString(s.HeadersHelper))
	}
	if len(s.Headers) == 0 {
		return
	}
	pairs := make([]string, len(s.Headers))
	for i, h := range s.Headers {
		v := h.Value
		if withhold && HeaderLiteralSecret(v) {
			v = Redacted
		}
		pairs[i] = tomlKey(h.Name) + " = " + tomlString(v)
	}
	kv(b, "headers", "{ "+strings.Join(pairs, ", ")+" }")
}

func kv(b *strings.Builder, k, v string) { b.WriteString(k + " = " + v + "\n") }

func tomlArray(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = tomlString(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// tomlKey is a bare key when TOML allows one, else a quoted key.
func tomlKey(k string) string {
	bare := k != ""
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			bare = false
		}
	}
	if bare {
		return k
	}
	return tomlString(k)
}

// tomlString is a TOML basic string: '"' and '\' escaped, every control
// character as \uXXXX (TOML has no \x), everything else as it is.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		case r == utf8.RuneError:
			b.WriteString("\\uFFFD")
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// SecretLikeName reports whether an env name says it holds a credential
// (TOKEN, SECRET, PASSWORD, API_KEY, …).
func SecretLikeName(name string) bool { return mcpjson.SecretLike(name) }

// EnvLiteralSecret and HeaderLiteralSecret are the one rule config import
// and config export share for a literal credential written in a file: an
// env value that is no reference ({{secrets.…}}, {{env.…}}) under a name
// that says secret, or whose value is a url carrying a password
// (DATABASE_URI = "postgresql://user:pass@host/db", whatever its name),
// and a header value holding no {{secrets.NAME}}. Export refuses to print
// one; import moves it to the person's secret store.
func EnvLiteralSecret(name, value string) bool {
	kind, _, _, _ := EnvReference(value)
	return kind == "" && value != "" && (SecretLikeName(name) || urlWithPassword(value))
}

// urlWithPassword reports whether value is a url whose user info holds a
// password.
func urlWithPassword(value string) bool {
	u, err := url.Parse(strings.TrimSpace(value))
	if err != nil || u.User == nil {
		return false
	}
	_, set := u.User.Password()
	return set
}

// HeaderLiteralSecret: see EnvLiteralSecret.
func HeaderLiteralSecret(value string) bool {
	_, refs, ok := consent.SecretTemplate(value)
	return !ok || len(refs) == 0
}

// EnvReference reads an env value as a reference: "secret" with its
// name, "env" with the variable (and default), or "" for literal text.
// Exporters turn each into the other client's spelling.
func EnvReference(value string) (kind, name, def string, hasDefault bool) {
	if n, ok := consent.SecretRef(value); ok {
		return "secret", n, "", false
	}
	if n, d, hd, ok := consent.EnvRef(value); ok {
		return "env", n, d, hd
	}
	return "", "", "", false
}
