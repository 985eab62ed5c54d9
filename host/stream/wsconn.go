package stream

import (
	"context"
	"sync"

	"github.com/coder/websocket"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// WSConn is an mcp.Connection over a websocket: one text message is one
// JSON-RPC message (go-sdk v1.8.0 has no websocket client transport).
// It serves both ends, so tests can run an SDK server over it too.
type WSConn struct {
	ws        *websocket.Conn
	closeOnce sync.Once
	closeErr  error
}

// NewWSConn wraps ws.
func NewWSConn(ws *websocket.Conn) *WSConn { return &WSConn{ws: ws} }

// Read returns the next message. It unblocks when Close is called.
func (w *WSConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	_, data, err := w.ws.Read(ctx)
	if err != nil {
		return nil, err
	}
	return jsonrpc.DecodeMessage(data)
}

// Write sends one message; safe for concurrent use (coder/websocket
// serialises frames).
func (w *WSConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return w.ws.Write(ctx, websocket.MessageText, data)
}

// Close ends the connection at once (no close handshake to wait on: a peer
// that never answers it must not hold relavium's shutdown). Idempotent.
func (w *WSConn) Close() error {
	w.closeOnce.Do(func() { w.closeErr = w.ws.CloseNow() })
	return w.closeErr
}

// SessionID is empty: a websocket connection has no MCP session id.
func (w *WSConn) SessionID() string { return "" }
