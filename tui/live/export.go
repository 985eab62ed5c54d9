package live

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/relavium/relavium/atomicfile"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/tui/backend"
)

// Export writes the events as JSONL under <home>/sessions: to a temp file
// first, renamed into place once complete (no half file), 0600 in 0700.
func (l *Adapter) Export(events []engine.Event) (string, error) {
	dir := filepath.Join(l.core.Home(), "sessions")
	fail := func(err error) (string, error) {
		return "", &backend.Error{ErrCode: backend.CodeExportFailed, Msg: "cannot write the session export in " + dir, Cause: err}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fail(err)
	}
	now := time.Now
	if l.now != nil {
		now = l.now
	}
	path := filepath.Join(dir, "session-"+now().UTC().Format("20060102T150405.000Z")+".jsonl")
	// One JSON line per event, escaped by sanitize.EscapeJSON as every JSON
	// document relavium writes: a person may cat the file, so no server
	// code point the display sanitizer removes is written raw.
	err := atomicfile.WriteFunc(path, func(w io.Writer) error {
		for _, e := range events {
			b, err := json.Marshal(e)
			if err != nil {
				return err
			}
			b = l.core.Redactor().JSON(b) // the session's one redactor, at the file's exit
			if _, err := w.Write(append(sanitize.EscapeJSON(b), '\n')); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fail(err)
	}
	return path, nil
}

// SaveResult writes doc under <home>/results, named for name and the time,
// through atomicfile (0600, no half file), escaped as the export is.
func (l *Adapter) SaveResult(name string, doc []byte) (string, error) {
	dir := filepath.Join(l.core.Home(), "results")
	fail := func(err error) (string, error) {
		return "", &backend.Error{ErrCode: backend.CodeExportFailed, Msg: "cannot save the result in " + dir, Cause: err}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fail(err)
	}
	now := time.Now
	if l.now != nil {
		now = l.now
	}
	path := filepath.Join(dir, name+"-"+now().UTC().Format("20060102T150405.000Z")+".json")
	err := atomicfile.WriteFunc(path, func(w io.Writer) error {
		_, err := w.Write(append(sanitize.EscapeJSON(l.core.Redactor().JSON(doc)), '\n'))
		return err
	})
	if err != nil {
		return fail(err)
	}
	return path, nil
}
