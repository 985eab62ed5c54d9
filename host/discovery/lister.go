package discovery

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Lister fetches one raw tools/list page. Discover drives the paged walk
// through it, so the walk is testable with a fake.
type Lister interface {
	// ListToolsRaw returns the raw JSON "result" of tools/list for cursor
	// ("" for the first page), exactly as the server sent it.
	ListToolsRaw(ctx context.Context, cursor string) (json.RawMessage, error)
}

// errNotCaptured means the SDK answered without the capture seeing the
// response: the transport was not wrapped with WrapTransport, or (protocol
// 2026-07-28) the SDK served the page from its TTL cache.
var errNotCaptured = errors.New("the raw tools/list result was not observed")

// SessionLister is the SDK-backed Lister: it issues tools/list through the
// session (so the SDK's own bookkeeping, cancellation and transport all
// apply) and reads the raw result from the session's Capture.
type SessionLister struct {
	session *mcp.ClientSession
	capture *Capture
}

// NewLister returns a Lister over cs, whose transport was wrapped by
// WrapTransport returning c.
func NewLister(cs *mcp.ClientSession, c *Capture) *SessionLister {
	return &SessionLister{session: cs, capture: c}
}

// ListToolsRaw implements Lister. A page the SDK could not decode (one bad
// tool breaks its typed decode) is still returned raw: discovery then
// skips just the bad tool instead of failing the whole server.
func (l *SessionLister) ListToolsRaw(ctx context.Context, cursor string) (json.RawMessage, error) {
	s := &slot{stub: !l.sdkCachesPages()}
	_, err := l.session.ListTools(withSlot(ctx, s), &mcp.ListToolsParams{Cursor: cursor})
	l.capture.forget(s)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	raw, rpcErr, ok := s.get()
	switch {
	case ok && rpcErr != nil:
		return nil, rpcErr
	case ok && len(raw) > 0:
		return raw, nil
	case err != nil:
		return nil, err
	}
	return nil, errNotCaptured
}

// sdkCachesPages reports whether the SDK keeps the tools/list pages it
// decodes (protocol 2026-07-28 and later: a TTL cache that CallTool also
// consults). Only when it does not may the capture hand it a stub page.
func (l *SessionLister) sdkCachesPages() bool {
	res := l.session.InitializeResult()
	return res == nil || res.ProtocolVersion >= "2026-07-28"
}
