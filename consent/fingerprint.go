package consent

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/relavium/relavium/consent/canonjson"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/sandbox"
)

// DigestPrefix names the fingerprint version. A reader recognises only its
// own version, so a change to the digested fields fails closed (re-prompt).
const DigestPrefix = "v1:"

// EnvKind tags a declared env value in the digest.
type EnvKind string

// Env kinds.
const (
	// KindLiteral is any authored text that is not solely a secret reference.
	KindLiteral EnvKind = "literal"
	// KindSecretRef is a value that is solely {{secrets.NAME}}.
	KindSecretRef EnvKind = "secret-ref"
	// KindEnvRef is a value that is solely {{env.VAR}} or
	// {{env.VAR:-default}}: read from relavium's environment at spawn. The
	// digest holds the variable's name (and the authored default), never
	// the value read.
	KindEnvRef EnvKind = "env-ref"
)

// EnvEntry is one declared env entry, tagged. Value (a literal's authored
// text) is never written to the grant store, never shown and never marshalled;
// a secret-ref carries only the secret's name.
type EnvEntry struct {
	Name   string  `json:"name"`
	Kind   EnvKind `json:"kind"`
	Value  string  `json:"-"`
	Secret string  `json:"secret,omitempty"`
	// Var is an env-ref's variable; Default its authored default, when
	// HasDefault.
	Var        string `json:"var,omitempty"`
	Default    string `json:"-"`
	HasDefault bool   `json:"-"`
}

// Describe is the entry's kind as a person reads it: "literal",
// "secret-ref {{secrets.NAME}}" or "env-ref {{env.VAR}}" (a default is
// named, not shown).
func (e EnvEntry) Describe() string {
	switch e.Kind {
	case KindSecretRef:
		return string(e.Kind) + " {{secrets." + e.Secret + "}}"
	case KindEnvRef:
		if e.HasDefault {
			return string(e.Kind) + " {{env." + e.Var + "}} with a default"
		}
		return string(e.Kind) + " {{env." + e.Var + "}}"
	}
	return string(e.Kind)
}

// EnvRef reports whether value is solely {{env.VAR}} or
// {{env.VAR:-default}} and returns VAR and the default. VAR is a portable
// name ([A-Za-z_][A-Za-z0-9_]*); the default holds no "{{" or "}}". The
// host reads the variable with this same function, so what is digested as
// a reference is exactly what is resolved as one.
func EnvRef(value string) (name, def string, hasDefault, ok bool) {
	const open, close = "{{env.", "}}"
	if !strings.HasPrefix(value, open) || !strings.HasSuffix(value, close) || len(value) <= len(open)+len(close) {
		return "", "", false, false
	}
	body := value[len(open) : len(value)-len(close)]
	name, def, hasDefault = strings.Cut(body, ":-")
	if strings.Contains(def, "{{") || strings.Contains(def, "}}") || name == "" {
		return "", "", false, false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' && i > 0) {
			return "", "", false, false
		}
	}
	return name, def, hasDefault, true
}

// SecretRef reports whether value is solely a {{secrets.NAME}} reference and
// returns NAME. NAME is one or more of [A-Za-z0-9_.-]; anything else —
// surrounding text or spaces, an empty or odd name — is a literal. The host
// resolves secrets with this same function, so what is digested as a
// reference is exactly what is injected as one.
func SecretRef(value string) (string, bool) {
	const open, close = "{{secrets.", "}}"
	if !strings.HasPrefix(value, open) || !strings.HasSuffix(value, close) || len(value) <= len(open)+len(close) {
		return "", false
	}
	name := value[len(open) : len(value)-len(close)]
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return "", false
		}
	}
	return name, true
}

// TagEnv tags one authored env entry.
func TagEnv(name, value string) EnvEntry {
	if secret, ok := SecretRef(value); ok {
		return EnvEntry{Name: name, Kind: KindSecretRef, Secret: secret}
	}
	if v, def, hasDef, ok := EnvRef(value); ok {
		return EnvEntry{Name: name, Kind: KindEnvRef, Var: v, Default: def, HasDefault: hasDef}
	}
	return EnvEntry{Name: name, Kind: KindLiteral, Value: value}
}

// Digest computes the v1 fingerprint of a resolved declaration: "v1:" and the
// lowercase-hex SHA-256 of the canonical JSON of exactly
// {transport:"stdio", command, args, env, cwd}. command and cwd must already
// be absolute (Resolve makes them so); a nil args is [] and a nil env is {}.
// Env names must be unique.
func Digest(command string, args []string, env []EnvEntry, cwd string) (string, error) {
	return SandboxedDigest(command, args, env, cwd, nil)
}

// SandboxedDigest is Digest with the server's sandbox policy in the
// fingerprint too, under the additional key "sandbox" (its Digested form):
// a policy that changes changes the digest. A nil policy is Digest.
func SandboxedDigest(command string, args []string, env []EnvEntry, cwd string, policy *sandbox.Policy) (string, error) {
	return fileDigest(command, args, env, cwd, policy, nil)
}

// fileDigest is SandboxedDigest with the server's env file, when it has
// one, under the additional key "env_file": its path and the digest of its
// names, never a value.
func fileDigest(command string, args []string, env []EnvEntry, cwd string, policy *sandbox.Policy, envFile *EnvFile) (string, error) {
	b, err := fingerprintJSON(command, args, env, cwd, policy, envFile)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	out := make([]byte, len(DigestPrefix)+hex.EncodedLen(len(sum)))
	copy(out, DigestPrefix)
	hex.Encode(out[len(DigestPrefix):], sum[:])
	return string(out), nil
}

// fingerprintJSON is the canonical JSON the v1 digest hashes, encoded by
// the one canonical encoder (package canonjson). A value it refuses — a lone
// surrogate, invalid UTF-8 — is an E307 usage error naming where it sits.
func fingerprintJSON(command string, args []string, env []EnvEntry, cwd string, policy *sandbox.Policy, envFile *EnvFile) ([]byte, error) {
	if args == nil {
		args = []string{}
	}
	envObj := make(map[string]any, len(env))
	for _, e := range env {
		if _, dup := envObj[e.Name]; dup {
			return nil, usage(CodeBadDeclaration, "env %s is declared twice", quoteArg(e.Name))
		}
		switch e.Kind {
		case KindSecretRef:
			envObj[e.Name] = map[string]any{"kind": string(KindSecretRef), "name": e.Secret}
		case KindLiteral:
			envObj[e.Name] = map[string]any{"kind": string(KindLiteral), "value": e.Value}
		case KindEnvRef:
			ref := map[string]any{"kind": string(KindEnvRef), "name": e.Var}
			if e.HasDefault {
				ref["default"] = e.Default
			}
			envObj[e.Name] = ref
		default:
			return nil, usage(CodeBadDeclaration, "env %s has unknown kind %q", quoteArg(e.Name), e.Kind)
		}
	}
	obj := map[string]any{
		"transport": "stdio",
		"command":   command,
		"args":      args,
		"env":       envObj,
		"cwd":       cwd,
	}
	if policy != nil {
		obj["sandbox"] = policy.Digested()
	}
	if envFile != nil {
		obj["env_file"] = map[string]any{"path": envFile.Path, "names": envFile.NamesDigest}
	}
	b, err := canonjson.Marshal(obj)
	if err != nil {
		return nil, &Error{ErrCode: CodeNotCanonical, Msg: err.Error(), Exit: fault.ExitUsage}
	}
	return b, nil
}

// ValidDigest reports whether s is a well-formed v1 digest: "v1:" followed by
// exactly 64 lowercase hex digits.
func ValidDigest(s string) bool {
	if len(s) != len(DigestPrefix)+64 || !strings.HasPrefix(s, DigestPrefix) {
		return false
	}
	for i := len(DigestPrefix); i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// CheckDigest returns an E303 usage error naming s when it is not a
// well-formed v1 digest. what says where it came from ("--allow-mcp-stdio").
func CheckDigest(what, s string) error {
	if ValidDigest(s) {
		return nil
	}
	hint := `a digest is "v1:" followed by 64 lowercase hex digits; print them with: relavium consent digest`
	if strings.HasPrefix(s, "v") && strings.Contains(s, ":") && !strings.HasPrefix(s, DigestPrefix) {
		hint = "this relavium reads only v1 digests; " + hint
	}
	return usage(CodeBadDigest, "%s %s is not a consent digest (%s)", what, quoteArg(s), hint)
}
