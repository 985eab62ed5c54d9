package tui

import (
	"context"
	"path/filepath"

	"github.com/relavium/relavium/gates/lock"
)

// LockDrift compares a ready server with the project's lock, the way
// `relavium mcp check` does (lock.Compare). No lock file, or a server not
// connected: not checked.
func (l *live) LockDrift(ctx context.Context, server string) (LockDrift, bool) {
	locked, err := lock.Read(filepath.Join(l.project, lock.FileName))
	h := l.host()
	if err != nil || h == nil {
		return LockDrift{}, false
	}
	defs, ok := h.Definitions(server)
	if !ok {
		return LockDrift{}, false
	}
	prompts, err := h.Prompts(ctx, server)
	if err != nil {
		return LockDrift{}, false
	}
	res, err := h.Resources(ctx, server)
	if err != nil {
		return LockDrift{}, false
	}
	live := lock.Build([]lock.Snapshot{{Defs: defs, Prompts: prompts, Resources: res}})
	one := &lock.File{V: lock.Version}
	for _, s := range locked.Servers {
		if s.Name == server {
			one.Servers = append(one.Servers, s)
		}
	}
	d := lock.Compare(lock.FileName, one, live)
	var out LockDrift
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
