package demoserver

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Every constructor builds a tool with its own name (the SDK would silently
// replace a tool registered twice), a description and explicit annotations,
// and the server lists exactly the tools the constructors build.
func TestToolConstructorsAreDistinctAndComplete(t *testing.T) {
	s := New(Options{WatchInterval: -1})
	defer s.Close() // runs after the session's close and wait below
	built := map[string]bool{}
	for _, build := range toolConstructors() {
		tl := build(s)
		if tl.def == nil || tl.add == nil {
			t.Fatalf("a constructor built an incomplete tool: %+v", tl)
		}
		name := tl.def.Name
		if name == "" || tl.def.Description == "" || tl.def.Annotations == nil {
			t.Errorf("tool %q lacks a name, description or annotations", name)
		}
		if built[name] {
			t.Errorf("two constructors build tool %q", name)
		}
		built[name] = true
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ss.Wait() }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cs.Close() }()
	listed := 0
	for tl, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		listed++
		if !built[tl.Name] {
			t.Errorf("server lists %q, which no constructor builds", tl.Name)
		}
	}
	if listed != len(built) || listed < 20 {
		t.Errorf("server lists %d tools, constructors build %d", listed, len(built))
	}
}
