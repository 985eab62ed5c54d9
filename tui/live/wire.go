package live

import (
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/relavium/relavium/atomicfile"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/host/wire"
	"github.com/relavium/relavium/tui/backend"
)

// Wire is the session's wire hub.
func (l *Adapter) Wire() *wire.Hub { return l.core.Wire() }

// SaveWire writes a view's export as NDJSON under <home>/sessions (0600,
// atomically) and returns its path.
func (l *Adapter) SaveWire(name string, data []byte) (string, error) {
	dir := filepath.Join(l.core.Home(), "sessions")
	fail := func(err error) (string, error) {
		return "", &backend.Error{ErrCode: backend.CodeWireExport, Msg: "cannot write the view's export in " + dir, Cause: err}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fail(err)
	}
	now := time.Now
	if l.now != nil {
		now = l.now
	}
	path := filepath.Join(dir, name+"-"+now().UTC().Format("20060102T150405.000Z")+".ndjson")
	err := atomicfile.WriteFunc(path, func(w io.Writer) error {
		_, err := w.Write(sanitize.EscapeJSON(data))
		return err
	})
	if err != nil {
		return fail(err)
	}
	return path, nil
}
