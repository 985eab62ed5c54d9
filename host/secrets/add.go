package secrets

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/pelletier/go-toml/v2"

	"github.com/relavium/relavium/atomicfile"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/regularfile"
)

// ErrSecretTaken is AddFileSecret's answer when the name already holds
// another value: nothing was changed.
var ErrSecretTaken = errors.New("the secret store already holds another value under that name")

// AddFileSecret keeps value as name in the person's file store (<home>/
// secrets.toml, or secrets.json when that is the one in use), created 0600
// when there is none: the way a literal credential found in a file leaves
// that file. The store is checked as FileSecrets checks it before anything
// is read; a TOML store is appended to (its comments and order kept), a
// JSON one rewritten; the new text is read back before it replaces the
// file, so nothing is written that would not read back. reused is true
// when name already held value. The value is never in an error.
func AddFileSecret(home, name, value string) (path string, reused bool, err error) {
	path = filepath.Join(home, "secrets.toml")
	var found []string
	for _, n := range []string{"secrets.toml", "secrets.json"} {
		p := filepath.Join(home, n)
		if _, err := os.Lstat(p); err == nil {
			found = append(found, p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", false, &fault.Error{ErrCode: CodeSecretFileUnsafe, Msg: "cannot inspect " + p, Cause: err, Exit: fault.ExitUsage}
		}
	}
	if len(found) == 2 {
		return "", false, &fault.Error{ErrCode: CodeSecretFileBad, Exit: fault.ExitUsage, Msg: fmt.Sprintf("both %s and %s exist; keep one", found[0], found[1])}
	}
	var old []byte
	values := map[string]string{}
	if len(found) == 1 {
		path = found[0]
		if values, err = readSecretFile(path); err != nil {
			return "", false, err
		}
		if v, ok := values[name]; ok {
			if v == value {
				return path, true, nil
			}
			return path, false, ErrSecretTaken
		}
		if old, _, err = regularfile.Read(path, maxSecretFileBytes, regularfile.Options{NoFollow: true}); err != nil {
			return "", false, &fault.Error{ErrCode: CodeSecretFileBad, Msg: "cannot read " + path, Cause: err, Exit: fault.ExitUsage}
		}
	}
	values[name] = value
	var next []byte
	if filepath.Ext(path) == ".json" {
		b, err := json.MarshalIndent(values, "", "  ")
		if err != nil {
			return "", false, &fault.Error{ErrCode: CodeSecretFileBad, Msg: "cannot encode " + path, Exit: fault.ExitFailure}
		}
		next = append(b, '\n')
	} else {
		line, err := toml.Marshal(map[string]string{name: value})
		if err != nil {
			return "", false, &fault.Error{ErrCode: CodeSecretFileBad, Msg: "cannot encode a secret for " + path, Exit: fault.ExitFailure}
		}
		next = append([]byte(nil), old...)
		if len(next) > 0 && next[len(next)-1] != '\n' {
			next = append(next, '\n')
		}
		next = append(next, line...)
	}
	back := map[string]string{}
	if filepath.Ext(path) == ".json" {
		err = json.Unmarshal(next, &back)
	} else {
		err = toml.Unmarshal(next, &back)
	}
	if err != nil || back[name] != value || len(back) != len(values) || len(next) > maxSecretFileBytes {
		return "", false, &fault.Error{ErrCode: CodeSecretFileBad, Exit: fault.ExitUsage,
			Msg: path + " would not read back with the secret added (or would pass 1 MiB); it was left as it was"}
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return "", false, &fault.Error{ErrCode: CodeSecretFileUnsafe, Msg: "cannot create " + home, Cause: err, Exit: fault.ExitFailure}
	}
	if err := atomicfile.Write(path, next); err != nil { // a new file is 0600
		return "", false, &fault.Error{ErrCode: CodeSecretFileBad, Msg: "cannot write " + path, Cause: err, Exit: fault.ExitFailure}
	}
	return path, false, nil
}
