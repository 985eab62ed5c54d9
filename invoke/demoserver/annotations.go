package demoserver

import "github.com/modelcontextprotocol/go-sdk/mcp"

// access is what a tool does to the world. Every demo tool declares one; the
// zero value is refused so no tool can leave its annotations implicit.
type access int

const (
	readOnly    access = iota + 1 // reads or computes only
	writes                        // changes server state, additively
	destructive                   // may destroy data (here: pretends to)
)

// annotate returns the explicit annotations for a tool: readOnlyHint,
// destructiveHint and openWorldHint are always set (none is left to the
// MCP spec's defaults, which would read an unannotated tool as destructive and
// open-world).
func annotate(title string, a access, idempotent bool) *mcp.ToolAnnotations {
	ro := a == readOnly
	destroys := a == destructive
	closed := false
	switch a {
	case readOnly, writes, destructive:
	default:
		panic("demoserver: tool " + title + " has no declared access")
	}
	return &mcp.ToolAnnotations{
		Title:           title,
		ReadOnlyHint:    ro,
		DestructiveHint: &destroys,
		IdempotentHint:  idempotent,
		OpenWorldHint:   &closed,
	}
}
