package consent

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/regularfile"
)

// An env file (a client's "envFile", relavium's env_file) is a dotenv file
// read at spawn into a stdio server's environment, under the same denylist
// as a declared entry. Its values are never digested, stored or shown: the
// digest holds the file's path and NamesDigest (which variables it sets),
// so a value that changes keeps the grant and a variable added to the file
// asks again.

// MaxEnvFile bounds an env file: it is read whole, at every spawn.
const MaxEnvFile = 64 << 10

// EnvFile is a declared env file as digested: its absolute path and the
// digest of the names it sets (never a value).
type EnvFile struct {
	Path        string   `json:"path"`
	Names       []string `json:"names"`
	NamesDigest string   `json:"names_digest"`
}

// ReadEnvFile reads the dotenv file at path: NAME=VALUE lines (an
// optional "export ", a value in matching single or double quotes taken
// as written between them), blank lines and # comments. Bounded and
// FIFO-safe (package regularfile); a missing, unreadable, oversized or
// special file, a line that is no assignment, a name that is not portable
// or written twice, or an entry the env denylist refuses is E325 naming
// the file and the line, never a value.
func ReadEnvFile(path string) ([]EnvVar, error) {
	b, _, err := regularfile.Read(path, MaxEnvFile, regularfile.Options{})
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, envFileErr(path, "does not exist", err)
	case err != nil:
		return nil, envFileErr(path, "cannot be read: "+err.Error(), err)
	}
	var out []EnvVar
	seen := map[string]bool{}
	for i, line := range bytes.Split(b, []byte("\n")) {
		at := path + ":" + strconv.Itoa(i+1)
		s := strings.TrimSpace(strings.TrimSuffix(string(line), "\r"))
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		s = strings.TrimPrefix(s, "export ")
		name, value, ok := strings.Cut(s, "=")
		name = strings.TrimSpace(name)
		if !ok || !portableEnvName(name) {
			return nil, envFileErr(at, "is not NAME=VALUE with a portable NAME (letters, digits and '_')", nil)
		}
		if seen[name] {
			return nil, envFileErr(at, "sets "+name+" a second time", nil)
		}
		seen[name] = true
		value = strings.TrimSpace(value)
		if len(value) >= 2 && (value[0] == '"' || value[0] == '\'') && value[len(value)-1] == value[0] {
			value = value[1 : len(value)-1]
		}
		if strings.EqualFold(name, "PATH") {
			return nil, envFileErr(at, "sets PATH, which is refused: the command was resolved on relavium's PATH before consent", nil)
		}
		if err := CheckEnv(name, value); err != nil {
			if CheckEnv(name, "") != nil {
				return nil, envFileErr(at, "sets "+name+", which the env denylist refuses", err)
			}
			return nil, envFileErr(at, "sets "+name+" to a value the env denylist refuses", nil)
		}
		if strings.ContainsRune(value, 0) {
			return nil, envFileErr(at, "holds a NUL byte", nil)
		}
		out = append(out, EnvVar{Name: name, Value: value})
	}
	return out, nil
}

// NewEnvFile is what the digest holds of the env file at path whose
// entries are vars: the path and the digest of the sorted names.
func NewEnvFile(path string, vars []EnvVar) *EnvFile {
	names := make([]string, len(vars))
	for i, v := range vars {
		names[i] = v.Name
	}
	slices.Sort(names)
	sum := sha256.Sum256([]byte(strings.Join(names, "\n")))
	return &EnvFile{Path: path, Names: names, NamesDigest: "sha256:" + hex.EncodeToString(sum[:])}
}

func envFileErr(at, what string, cause error) *Error {
	return &Error{ErrCode: CodeEnvFile, Msg: fmt.Sprintf("env file %s %s", quoteArg(at), what), Cause: cause, Exit: fault.ExitUsage}
}

func portableEnvName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' && i > 0) {
			return false
		}
	}
	return s != ""
}
