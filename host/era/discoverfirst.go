package era

import (
	"context"
	"errors"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DiscoverFirst keeps a 2026-07-28 connect in its era. go-sdk's Connect
// sends server/discover and, on any error, falls back to initialize. For a
// declaration that asks for 2026-07-28 that fall-back must not hide why
// discover failed: when it failed before the server answered it (no
// JSON-RPC answer: a 401 or 403 the sign-in handled or refused, a guard
// refusal, a broken connection), the initialize is never sent and the
// connect fails with that reason, so a protected server leads to sign-in
// and the person sees the real cause. A JSON-RPC error answer (a legacy
// server refusing discover) still lets initialize show what the server
// speaks, which the era check then refuses (E597) naming it.
//
// One per Connect: the Client it is installed on is built for one
// handshake (host's newClient). Its zero value is ready; Middleware goes
// on the client's sending side.
type DiscoverFirst struct {
	mu  sync.Mutex
	err error // discover's failure before any answer
}

func (d *DiscoverFirst) Middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "initialize":
			d.mu.Lock()
			err := d.err
			d.mu.Unlock()
			if err != nil {
				return nil, err
			}
		case "server/discover":
			res, err := next(ctx, method, req)
			if err != nil && !answered(err) && ctx.Err() == nil {
				d.mu.Lock()
				d.err = err
				d.mu.Unlock()
			}
			return res, err
		}
		return next(ctx, method, req)
	}
}

// codeRejected is the code go-sdk gives a request its transport could not
// deliver or whose HTTP answer was not a JSON-RPC one ("rejected by
// transport"): the server answered nothing.
const codeRejected = -32005

// answered reports whether err is the server's JSON-RPC answer, rather
// than a failure before any (the transport's rejection: an HTTP 401 or 403,
// a guard refusal, a broken connection).
func answered(err error) bool {
	var answer *jsonrpc.Error
	return errors.As(err, &answer) && answer.Code != codeRejected
}
