package demoserver

import "github.com/modelcontextprotocol/go-sdk/mcp"

// tool is one tool of the demo server: its full definition (name,
// description, input and output schema, annotations) and the handler that
// serves it, built together by one constructor. The constructors live in
// tools_conformance.go, tools_demo.go, tools_client.go, tools_mrtr.go,
// tools_listchange.go and tools_refused.go; New registers
// every one of them (toolConstructors).
type tool struct {
	def *mcp.Tool
	// add registers def and its handler on srv.
	add func(srv *mcp.Server)
}

// newTool is a tool constructor. It takes the server for the state a
// handler needs (notes, the server's lifetime, notifications).
type newTool func(s *Server) tool

// typed is a tool whose arguments the SDK validates and decodes into In
// (the input schema is inferred from In unless def declares one) and whose
// Out, unless it is any, is its structured content (with an inferred
// output schema).
func typed[In, Out any](def *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) tool {
	return tool{def: def, add: func(srv *mcp.Server) { mcp.AddTool(srv, def, h) }}
}

// raw is a tool whose handler reads the arguments as sent; def declares
// the input schema.
func raw(def *mcp.Tool, h mcp.ToolHandler) tool {
	return tool{def: def, add: func(srv *mcp.Server) { srv.AddTool(def, h) }}
}

// toolConstructors lists every tool the server offers, in registration
// order: the conformance fixtures, the friendly demos, then the tools a
// careful client refuses.
func toolConstructors() []newTool {
	var all []newTool
	all = append(all, conformanceTools()...)
	all = append(all, demoTools()...)
	all = append(all, clientTools()...)
	all = append(all, mrtrTools()...)
	all = append(all, listChangeTools()...)
	all = append(all, sandboxTools()...)
	return append(all, refusedTools()...)
}

// addTools registers every tool.
func (s *Server) addTools() {
	for _, build := range toolConstructors() {
		build(s).add(s.mcp)
	}
}
