package live

import (
	"context"
	"path/filepath"

	"github.com/relavium/relavium/gates/lock"
	"github.com/relavium/relavium/tui/backend"
)

// LockDrift compares a ready server with the project's lock, the way
// `relavium mcp check` does (lock.Compare). No lock file, or a server not
// connected: not checked.
func (l *Adapter) LockDrift(ctx context.Context, server string) (backend.LockDrift, bool) {
	locked, err := lock.Read(filepath.Join(l.project, lock.FileName))
	h := l.host()
	if err != nil || h == nil {
		return backend.LockDrift{}, false
	}
	defs, ok := h.Definitions(server)
	if !ok {
		return backend.LockDrift{}, false
	}
	prompts, err := h.Prompts(ctx, server)
	if err != nil {
		return backend.LockDrift{}, false
	}
	res, err := h.Resources(ctx, server)
	if err != nil {
		return backend.LockDrift{}, false
	}
	snap := lock.Snapshot{Defs: defs, Prompts: prompts, Resources: res}
	if snap.Redact(h) != nil {
		return backend.LockDrift{}, false
	}
	live := lock.Build([]lock.Snapshot{snap})
	one := &lock.File{V: lock.Version}
	for _, s := range locked.Servers {
		if s.Name == server {
			one.Servers = append(one.Servers, s)
		}
	}
	d := lock.Compare(lock.FileName, one, live)
	var out backend.LockDrift
	for _, line := range d.Lines() {
		if line.Level != "error" {
			continue
		}
		if out.Differences == 0 {
			out.First = line.Text
		}
		out.Differences++
	}
	return out, true
}
