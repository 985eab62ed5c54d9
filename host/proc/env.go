package proc

import (
	"os"
	"strings"
)

// SetEnv sets name=value in a child's "k=v" environment, replacing a
// declared one.
func SetEnv(env []string, name, value string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != name {
			out = append(out, kv)
		}
	}
	return append(out, name+"="+value)
}

// TempDir makes a child's private temp dir, named for its server (letters,
// digits, - and _ of the name, at most 32); the caller removes it.
func TempDir(server string) (string, error) {
	b := []byte(server)
	for i, ch := range b {
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '-' || ch == '_') {
			b[i] = '_'
		}
	}
	if len(b) > 32 {
		b = b[:32]
	}
	return os.MkdirTemp("", "relavium-"+string(b)+"-")
}
