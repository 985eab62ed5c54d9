package machine

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// errServerStopping ends the context of every call in flight when the server
// stops.
var errServerStopping = errors.New("the server is stopping")

// callWaitLimit bounds how long a stopping server waits for its calls: each
// one's child gets SIGTERM at once and SIGKILL KillGrace later.
const callWaitLimit = KillGrace + pipeDrainWait + time.Second

// serveLife ties every MCP request to the server's lifetime: its context
// ends when life ends (so a child in flight is stopped, E423), and wait
// returns only when every request has returned, so no child outlives the
// server on any transport.
type serveLife struct {
	life context.Context
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to 0 while someone waits
}

func newServeLife(life context.Context) *serveLife { return &serveLife{life: life} }

// middleware wraps every incoming request.
func (l *serveLife) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ctx, done := l.begin(ctx)
		defer done()
		return next(ctx, method, req)
	}
}

// begin counts a request in and ends its context with the server's.
func (l *serveLife) begin(ctx context.Context) (context.Context, func()) {
	l.mu.Lock()
	l.n++
	l.mu.Unlock()
	cctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(l.life, func() { cancel(errServerStopping) })
	return cctx, func() {
		stop()
		cancel(nil)
		l.mu.Lock()
		l.n--
		if l.n == 0 && l.idle != nil {
			close(l.idle)
			l.idle = nil
		}
		l.mu.Unlock()
	}
}

// wait blocks until no request is in flight, or limit passes.
func (l *serveLife) wait(limit time.Duration) {
	l.mu.Lock()
	if l.n == 0 {
		l.mu.Unlock()
		return
	}
	if l.idle == nil {
		l.idle = make(chan struct{})
	}
	idle := l.idle
	l.mu.Unlock()
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-idle:
	case <-t.C:
	}
}
