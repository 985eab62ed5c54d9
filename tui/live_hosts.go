package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
)

// hostSet is the session's hosts as one engine.ToolHost: tool ids are
// "<server>\x1f<host id>", routed back to the server's host.
type hostSet struct{ l *live }

const idSep = "\x1f"

func (hs hostSet) snapshot() []struct {
	name string
	h    *host.Host
} {
	hs.l.mu.Lock()
	defer hs.l.mu.Unlock()
	var out []struct {
		name string
		h    *host.Host
	}
	for _, s := range hs.l.sess.Servers() {
		if h, ok := hs.l.hosts[s.Name]; ok {
			out = append(out, struct {
				name string
				h    *host.Host
			}{s.Name, h})
		}
	}
	return out
}

func (hs hostSet) Tools() []engine.ToolDef {
	var out []engine.ToolDef
	for _, e := range hs.snapshot() {
		for _, t := range e.h.Tools() {
			t.ID = engine.ToolID(e.name + idSep + string(t.ID))
			out = append(out, t)
		}
	}
	return out
}

func (hs hostSet) Skipped() []engine.SkippedTool {
	var out []engine.SkippedTool
	for _, e := range hs.snapshot() {
		out = append(out, e.h.Skipped()...)
	}
	return out
}

func (hs hostSet) route(id engine.ToolID) (*host.Host, engine.ToolID, error) {
	server, inner, ok := strings.Cut(string(id), idSep)
	if !ok {
		return nil, "", &Error{ErrCode: CodeNotConnected, Msg: fmt.Sprintf("tool id %q names no server", id)}
	}
	h, err := hs.l.hostOf(server)
	if err != nil {
		return nil, "", err
	}
	return h, engine.ToolID(inner), nil
}

func (hs hostSet) Call(ctx context.Context, id engine.ToolID, args json.RawMessage, opts engine.CallOptions) (*engine.ToolResult, error) {
	h, inner, err := hs.route(id)
	if err != nil {
		return nil, err
	}
	return h.Call(ctx, inner, args, opts)
}
