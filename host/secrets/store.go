package secrets

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/filelock"
	"github.com/relavium/relavium/nesting"
	"github.com/relavium/relavium/regularfile"
)

// SecretStore resolves the NAME of a {{secrets.NAME}} reference. ok is false
// when the store has no such secret; err is a store failure (unreadable,
// unsafe). A value is never logged, never put in an event or an error.
type SecretStore interface {
	Secret(name string) (value string, ok bool, err error)
}

// EnvSecrets reads secrets from the environment: NAME is looked up as
// RELAVIUM_SECRET_<NAME> with NAME upper-cased and every '-' or '.' turned
// into '_' ({{secrets.github-token}} → RELAVIUM_SECRET_GITHUB_TOKEN).
type EnvSecrets struct {
	LookupEnv func(string) (string, bool)
}

// EnvSecretName is the environment variable EnvSecrets reads for name.
func EnvSecretName(name string) string {
	return "RELAVIUM_SECRET_" + strings.Map(func(r rune) rune {
		if r == '-' || r == '.' {
			return '_'
		}
		return r
	}, strings.ToUpper(name))
}

// Secret implements SecretStore.
func (e EnvSecrets) Secret(name string) (string, bool, error) {
	if e.LookupEnv == nil {
		return "", false, nil
	}
	v, ok := e.LookupEnv(EnvSecretName(name))
	return v, ok, nil
}

// FileSecrets reads secrets from <home>/secrets.toml or <home>/secrets.json:
// a flat table of name = "value". The file must be a regular file (not a
// symlink) that only its owner can read or write (0600): anything else is
// refused, never read. It is read once, on first use.
type FileSecrets struct {
	Home string

	once   sync.Once
	values map[string]string
	err    error
}

// NewFileSecrets returns the file store of a relavium home.
func NewFileSecrets(home string) *FileSecrets { return &FileSecrets{Home: home} }

// Secret implements SecretStore.
func (f *FileSecrets) Secret(name string) (string, bool, error) {
	f.once.Do(f.load)
	if f.err != nil {
		return "", false, f.err
	}
	v, ok := f.values[name]
	return v, ok, nil
}

func (f *FileSecrets) load() {
	var found []string
	for _, n := range []string{"secrets.toml", "secrets.json"} {
		p := filepath.Join(f.Home, n)
		if _, err := os.Lstat(p); err == nil {
			found = append(found, p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			f.err = &fault.Error{ErrCode: CodeSecretFileUnsafe, Msg: "cannot inspect " + p, Cause: err, Exit: fault.ExitUsage}
			return
		}
	}
	switch len(found) {
	case 0:
		return
	case 2:
		f.err = &fault.Error{ErrCode: CodeSecretFileBad, Exit: fault.ExitUsage, Msg: fmt.Sprintf("both %s and %s exist; keep one", found[0], found[1])}
		return
	}
	f.values, f.err = readSecretFile(found[0])
}

// maxSecretFileBytes bounds the secrets file, like a config file.
const maxSecretFileBytes = 1 << 20

func readSecretFile(path string) (map[string]string, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, &fault.Error{ErrCode: CodeSecretFileUnsafe, Msg: "cannot inspect " + path, Cause: err, Exit: fault.ExitUsage}
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return nil, &fault.Error{ErrCode: CodeSecretFileUnsafe, Exit: fault.ExitUsage, Msg: path + " is a symlink; secrets are read only from a regular file"}
	case !st.Mode().IsRegular():
		return nil, &fault.Error{ErrCode: CodeSecretFileUnsafe, Exit: fault.ExitUsage, Msg: path + " is not a regular file"}
	case filelock.ModeBitsMeaningful && st.Mode().Perm()&0o077 != 0:
		return nil, &fault.Error{ErrCode: CodeSecretFileUnsafe, Exit: fault.ExitUsage, Msg: fmt.Sprintf("%s is readable or writable by others (mode %04o); run: chmod 600 %s", path, st.Mode().Perm(), path)}
	}
	// regularfile: O_NOFOLLOW closes the window between the Lstat and the
	// open, O_NONBLOCK keeps a FIFO swapped in meanwhile from hanging it.
	data, st, err := regularfile.Read(path, maxSecretFileBytes, regularfile.Options{NoFollow: true})
	var tl *regularfile.TooLargeError
	switch {
	case errors.As(err, &tl):
		return nil, &fault.Error{ErrCode: CodeSecretFileBad, Exit: fault.ExitUsage, Msg: fmt.Sprintf("%s is larger than %d bytes; a secrets file is a flat table of names and values", path, maxSecretFileBytes)}
	case err != nil:
		return nil, &fault.Error{ErrCode: CodeSecretFileUnsafe, Msg: "cannot open " + path, Cause: err, Exit: fault.ExitUsage}
	case st.Mode().Perm()&0o077 != 0:
		return nil, &fault.Error{ErrCode: CodeSecretFileUnsafe, Exit: fault.ExitUsage, Msg: fmt.Sprintf("%s is readable or writable by others (mode %04o); run: chmod 600 %s", path, st.Mode().Perm(), path)}
	}
	buf := bytes.NewBuffer(data)
	// Nesting and size are measured before a parser builds anything; the
	// refusal names a place, never the file's bytes.
	scan := nesting.TOML
	if strings.HasSuffix(path, ".json") {
		scan = nesting.JSON
	}
	if _, over := scan(buf.Bytes(), nesting.Limits{MaxDepth: nesting.FileDepth, MaxNodes: nesting.FileNodes}); over != nil {
		return nil, &fault.Error{ErrCode: CodeSecretFileBad, Exit: fault.ExitUsage, Msg: fmt.Sprintf("%s must be a flat table of name = \"value\" strings: %s (line %d, column %d), refused before it was parsed", path, over.Describe(), over.Line, over.Col)}
	}
	values := map[string]string{}
	if strings.HasSuffix(path, ".json") {
		err = json.Unmarshal(buf.Bytes(), &values)
	} else {
		err = toml.Unmarshal(buf.Bytes(), &values)
	}
	if err != nil {
		// The parser's message may quote the file's bytes: keep only where.
		return nil, &fault.Error{ErrCode: CodeSecretFileBad, Exit: fault.ExitUsage, Msg: path + ` must be a flat table of name = "value" strings` + secretParsePos(err)}
	}
	return values, nil
}

// secretParsePos extracts a position from a parse error without quoting
// the file's content (which holds secrets).
func secretParsePos(err error) string {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return fmt.Sprintf(" (line %d, column %d)", row, col)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf(" (byte offset %d)", se.Offset)
	}
	return ""
}

// SecretChain asks each store in turn; the first that has the secret wins.
type SecretChain []SecretStore

// Secret implements SecretStore.
func (c SecretChain) Secret(name string) (string, bool, error) {
	for _, s := range c {
		if s == nil {
			continue
		}
		v, ok, err := s.Secret(name)
		if err != nil {
			return "", false, err
		}
		if ok {
			return v, true, nil
		}
	}
	return "", false, nil
}
