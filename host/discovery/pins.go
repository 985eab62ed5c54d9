package discovery

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/relavium/relavium/atomicfile"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/regularfile"
)

// PinFile is the tool-pin store's name inside the relavium home.
const PinFile = "tool-pins.json"

// maxPinFileBytes bounds the tool-pin store, read whole as one JSON
// document: a larger file is refused (E590) before it is read, and a write
// that would make it larger is refused, leaving the file as it was. Each
// server's pinned definitions are bounded by its 1 MiB discovery budget, so
// this holds the pins of 16 servers at their full budget and of hundreds
// of ordinary ones.
const maxPinFileBytes = 16 << 20

// ServerIdentity is what a pin is keyed by: the registration name, the
// transport and the command (stdio, resolved path) or URL (network).
type ServerIdentity struct {
	Name      string `json:"server"`
	Transport string `json:"transport"`
	Target    string `json:"target"`
}

// PinStore remembers, per server identity, a digest and the canonical
// sanitized definition of every tool it admitted ("trust on first use"
// against rug pulls). The file is JSON, 0600, replaced atomically (temp
// file, fsync, rename) under an exclusive lock on a sibling lock file, so
// concurrent relavium processes never lose each other's pins.
type PinStore struct {
	home string
	now  func() time.Time
}

// NewPinStore returns the store in home (created 0700 if missing).
func NewPinStore(home string) *PinStore { return &PinStore{home: home, now: time.Now} }

type pinFile struct {
	V       int         `json:"v"`
	Servers []pinServer `json:"servers"`
}

type pinServer struct {
	ServerIdentity
	Tools map[string]pinTool `json:"tools"`
}

type pinTool struct {
	Digest   string          `json:"digest"`
	Def      json.RawMessage `json:"def"`
	PinnedAt time.Time       `json:"pinned_at"`
}

// Observe compares cat's admitted tools with the definitions pinned for
// id. A tool seen for the first time is pinned ("trust on first use"). A
// tool whose canonical sanitized definition differs from its pin gets
// Def.Changed and Changes (a field diff against the pin); a pure key-order
// or whitespace change is not a change, because both sides are canonical.
// A changed definition is NOT re-pinned: it stays flagged on every later
// connect until the person accepts it (Accept), so a rug pull cannot be
// waved through by being seen twice. A definition that changes back to its
// pin is simply unflagged. Tools not offered this time keep their pin. A
// corrupt store is reported (E590) and left untouched rather than
// overwritten.
func (p *PinStore) Observe(id ServerIdentity, cat *Catalogue) error {
	return p.update(func(srv *pinServer, now time.Time) bool {
		added := false
		for _, t := range cat.Tools {
			digest := Digest(t.canonical)
			old, ok := srv.Tools[t.Def.Tool]
			switch {
			case ok && old.Digest == digest:
				t.Def.Changed, t.Changes = false, nil
			case ok:
				t.Def.Changed = true
				t.Changes = DiffDefinitions(old.Def, t.canonical)
			default:
				srv.Tools[t.Def.Tool] = pinTool{Digest: digest, Def: json.RawMessage(t.canonical), PinnedAt: now}
				added = true
			}
		}
		return added
	}, id)
}

// Accept pins the definitions of tools (admitted tools of id's server, as
// seen now) as the person's accepted ones, and clears their Changed flag
// and Changes. The pin store is updated before any flag is cleared: a
// failed write leaves every tool flagged.
func (p *PinStore) Accept(id ServerIdentity, tools []*Tool) error {
	err := p.update(func(srv *pinServer, now time.Time) bool {
		for _, t := range tools {
			srv.Tools[t.Def.Tool] = pinTool{Digest: Digest(t.canonical), Def: json.RawMessage(t.canonical), PinnedAt: now}
		}
		return len(tools) > 0
	}, id)
	if err != nil {
		return err
	}
	for _, t := range tools {
		t.Def.Changed, t.Changes = false, nil
	}
	return nil
}

// update runs change on id's pins under the store's lock and writes the
// store when change reports it changed something.
func (p *PinStore) update(change func(srv *pinServer, now time.Time) bool, id ServerIdentity) error {
	if err := os.MkdirAll(p.home, 0o700); err != nil {
		return p.err("cannot create the relavium home", err)
	}
	path := filepath.Join(p.home, PinFile)
	unlock, err := lockFile(path + ".lock")
	if err != nil {
		return p.err("cannot lock the tool-pin store", err)
	}
	defer unlock()

	pf, err := readPins(path)
	if err != nil {
		return p.err("cannot read "+path+"; fix or remove it to re-pin every tool", err)
	}
	i := pf.find(id)
	if i < 0 {
		pf.Servers = append(pf.Servers, pinServer{ServerIdentity: id, Tools: map[string]pinTool{}})
		i = len(pf.Servers) - 1
	}
	srv := &pf.Servers[i]
	if srv.Tools == nil {
		srv.Tools = map[string]pinTool{}
	}
	if !change(srv, p.now().UTC()) {
		return nil
	}
	if err := writeAtomic(path, pf); err != nil {
		return p.err("cannot write "+path, err)
	}
	return nil
}

func (p *PinStore) err(msg string, cause error) error {
	return &Error{Base: fault.Base{ErrCode: CodePinStore, Msg: msg, Cause: cause}}
}

// Digest is the pin digest of a canonical definition.
func Digest(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func (pf *pinFile) find(id ServerIdentity) int {
	for i := range pf.Servers {
		if pf.Servers[i].ServerIdentity == id {
			return i
		}
	}
	return -1
}

func readPins(path string) (*pinFile, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	data, _, err := regularfile.Read(path, maxPinFileBytes, regularfile.Options{NoFollow: true})
	var tl *regularfile.TooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &pinFile{V: 1}, nil
	case errors.As(err, &tl):
		return nil, fmt.Errorf("the file is over the %d MiB a tool-pin store may hold", maxPinFileBytes>>20)
	case err != nil:
		return nil, err
	}
	var pf pinFile
	if err := json.Unmarshal(data, &pf); err != nil {
		return nil, err
	}
	if pf.V != 1 {
		return nil, fmt.Errorf("unknown tool-pin store version %d", pf.V)
	}
	return &pf, nil
}

// writeAtomic writes pf to a temp file in the same directory, syncs it and
// renames it over path: a crash leaves the old store or the new one, never
// half of either.
func writeAtomic(path string, pf *pinFile) error {
	data, err := json.Marshal(pf)
	if err != nil {
		return err
	}
	data = sanitize.EscapeJSON(data) // a person may cat the store
	if len(data) > maxPinFileBytes {
		return fmt.Errorf("the tool-pin store would grow to %d bytes, over the %d MiB it may hold, so it is left as it was (remove the file to pin afresh)", len(data), maxPinFileBytes>>20)
	}
	return atomicfile.Write(path, data)
}
