package config

import (
	"slices"

	"github.com/relavium/relavium/host/netguard"
)

// Protocols returns the protocol eras a server may ask for: the legacy
// initialize handshake (2025-11-25, the default), the modern
// server/discover (2026-07-28), or auto (whichever the server speaks; the
// host decides the order).
func Protocols() []string { return []string{"2025-11-25", "2026-07-28", "auto"} }

// protocol checks a server's protocol field.
func (c *checker) protocol(f *field, path, transport string) string {
	p, ok := c.required(f, path, `one of "2025-11-25", "2026-07-28", "auto"`)
	if !ok {
		return ""
	}
	switch {
	case !slices.Contains(Protocols(), p):
		c.add(CodeProtocol, f.at(), path, `unknown protocol %q: use "2025-11-25" (legacy, the default), "2026-07-28" (modern) or "auto"`, p)
		return ""
	case p == "2026-07-28" && transport == netguard.TransportSSE:
		c.add(CodeProtocol, f.at(), path, `protocol "2026-07-28" cannot run over the legacy sse transport, which has only the initialize handshake: use transport "http", or protocol "auto"`)
		return ""
	}
	return p
}
