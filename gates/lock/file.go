package lock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/relavium/relavium/atomicfile"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/regularfile"
)

// maxLockBytes bounds a lock file, read whole: each server's tools are
// bounded by discovery's 1 MiB budget, so this holds many servers at
// their full budget.
const maxLockBytes = 16 << 20

// Encode is the lock's bytes: indented for review, every character a
// terminal could be made to act on escaped, ending in a newline.
func Encode(f *File) ([]byte, error) {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(sanitize.EscapeJSON(b), '\n'), nil
}

// Write replaces path with f atomically. Its folder is made when missing:
// a project whose servers come only from another client's file (a
// .mcp.json) has no .relavium/ until its first lock.
func Write(path string, f *File) error {
	b, err := Encode(f)
	if err == nil && len(b) > maxLockBytes {
		err = fmt.Errorf("the lock would be %d bytes, over the %d MiB it may hold", len(b), maxLockBytes>>20)
	}
	if err == nil {
		err = os.MkdirAll(filepath.Dir(path), 0o755)
	}
	if err == nil {
		err = atomicfile.Write(path, b)
	}
	if err != nil {
		return newErr(CodeWriteLock, "cannot write "+path, err)
	}
	return nil
}

// Read reads the lock at path, bounded (regularfile: a FIFO or a device at
// the path is refused, never waited on); every definition is brought back
// to canonical JSON.
func Read(path string) (*File, error) {
	data, _, err := regularfile.Read(path, maxLockBytes, regularfile.Options{})
	var tl *regularfile.TooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, newErr(CodeNoLock, path+" does not exist; run `relavium mcp lock` to write it", nil)
	case errors.As(err, &tl):
		return nil, newErr(CodeBadLock, fmt.Sprintf("%s is over the %d MiB a lock may hold", path, maxLockBytes>>20), nil)
	case err != nil:
		return nil, newErr(CodeBadLock, "cannot read "+path, err)
	}
	return Decode(path, data)
}

// Decode parses a lock's bytes (name says where they came from).
func Decode(name string, data []byte) (*File, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, newErr(CodeBadLock, name+" is not a relavium lock", err)
	}
	if f.V != Version {
		return nil, newErr(CodeBadLock, fmt.Sprintf("%s has lock version %d; this relavium reads version %d", name, f.V, Version), nil)
	}
	for i := range f.Servers {
		s := &f.Servers[i]
		s.Capabilities = canonical(s.Capabilities)
		for _, items := range [][]Item{s.Tools, s.Skipped, s.Prompts, s.Resources, s.Templates} {
			for j := range items {
				items[j].Def = canonical(items[j].Def)
			}
		}
	}
	return &f, nil
}
