package erahttp

import (
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Modern is the first protocol revision of the stateless era
// (server/discover, no session, no initialize).
const Modern = "2026-07-28"

// router sends each Streamable HTTP request to the handler of its era.
type router struct {
	legacy, modern http.Handler
}

func (r router) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if ModernRequest(req) {
		r.modern.ServeHTTP(w, req)
		return
	}
	r.legacy.ServeHTTP(w, req)
}

// ModernRequest reports whether req asks for the stateless era: an
// MCP-Protocol-Version of 2026-07-28 or later (revisions are dates of one
// length, so they order as strings) and no Mcp-Session-Id (a session is the
// legacy era's).
func ModernRequest(req *http.Request) bool {
	v := req.Header.Get("MCP-Protocol-Version")
	return len(v) == len(Modern) && v >= Modern && req.Header.Get("Mcp-Session-Id") == ""
}

// Handler serves s over Streamable HTTP in both eras: Route(Split(s, opts)).
func Handler(s *mcp.Server, opts *mcp.StreamableHTTPOptions) http.Handler {
	return Route(Split(s, opts))
}

// Split builds the two handlers of s: opts configure the stateful handler
// of the legacy era (initialize, sessions, resumable streams); a copy of
// them, made stateless (no session, no event store, no idle timeout), is the
// modern era's.
func Split(s *mcp.Server, opts *mcp.StreamableHTTPOptions) (legacy, modern http.Handler) {
	l := *opts
	m := *opts
	m.Stateless = true
	m.EventStore = nil
	m.SessionTimeout = 0
	get := func(*http.Request) *mcp.Server { return s }
	return mcp.NewStreamableHTTPHandler(get, &l), mcp.NewStreamableHTTPHandler(get, &m)
}

// Route sends the requests ModernRequest picks to modern, the others to
// legacy.
func Route(legacy, modern http.Handler) http.Handler {
	return router{legacy: legacy, modern: modern}
}
