package invoke

import (
	"context"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/config"
)

// LiveHost is a connected set of servers: the engine's ToolHost plus Close,
// which tears every session and child process down.
type LiveHost interface {
	engine.ToolHost
	Close() error
}

// connectServers is the one path every command (session, mcp ls/call, run)
// takes to connect declared servers: consent (asking on a TTY through
// inv.CanPrompt, else exit 2 with digests), then host.Start.
// STUB: the host issue owns it.
func connectServers(ctx context.Context, inv *Invocation, servers []config.Server, em engine.Emitter) (LiveHost, error) {
	return nil, &Error{ErrCode: CodeNotImplemented, Msg: "connecting servers is not built yet"}
}
