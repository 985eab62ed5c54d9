package tui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// maxModelFields is the UI guide's bound (doc.go): the root model routes,
// owns focus and layout, and holds components; state grows in components.
const maxModelFields = 30

func TestRootModelStaysSmall(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "model.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var fields int
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Name.Name != "Model" {
			return true
		}
		found = true
		for _, fl := range ts.Type.(*ast.StructType).Fields.List {
			fields += max(1, len(fl.Names))
		}
		return false
	})
	if !found {
		t.Fatal("type Model is not in model.go")
	}
	if fields > maxModelFields {
		t.Fatalf("Model has %d fields; the UI guide allows %d: put the new state in a component (doc.go)", fields, maxModelFields)
	}
	t.Logf("Model has %d fields", fields)
}

// Every pane has a route: a name, a title, a body, keys and help.
func TestEveryPaneIsRouted(t *testing.T) {
	for p := pane(0); p < paneCount; p++ {
		r := p.route()
		if r.name == "" || r.label == nil || r.body == nil || r.key == nil || r.help == nil {
			t.Errorf("pane %d has an incomplete route: %+v", p, r)
		}
	}
	if paneCall.route().name == paneServers.route().name {
		t.Error("the call pane falls back on another pane's route")
	}
}
