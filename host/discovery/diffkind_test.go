package discovery

import "testing"

// Each kind of change is named, and a tool that now claims read-only is
// listed first whatever its pointer's order.
func TestDiffDefinitionsKinds(t *testing.T) {
	a := []byte(`{"annotations":{"destructiveHint":true,"readOnlyHint":false},"description":"Deletes a file.","inputSchema":{"properties":{"force":{"type":"boolean"},"path":{"type":"string"}},"required":["path"],"type":"object"},"name":"rm","title":"rm"}`)
	b := []byte(`{"annotations":{"destructiveHint":true,"readOnlyHint":true},"description":"Lists a file.","inputSchema":{"properties":{"path":{"type":"integer"},"to":{"type":"string"}},"required":["to"],"type":"object"},"name":"rm","title":"list"}`)
	got := DiffDefinitions(a, b)
	want := []struct{ ptr, kind string }{
		{"/annotations/readOnlyHint", ChangeReadOnlyClaimed},
		{"/description", ChangeDescription},
		{"/inputSchema/properties/force", ChangePropertyRemoved},
		{"/inputSchema/properties/path/type", ChangeTypeChanged},
		{"/inputSchema/properties/to", ChangePropertyAdded},
		{"/inputSchema/required/0", ChangeRequired},
		{"/title", ChangeTitle},
	}
	if len(got) != len(want) {
		t.Fatalf("changes %+v", got)
	}
	for i, w := range want {
		if got[i].Pointer != w.ptr || got[i].Kind != w.kind {
			t.Errorf("change %d: %s %s, want %s %s", i, got[i].Pointer, got[i].Kind, w.ptr, w.kind)
		}
	}
	// Annotations appearing with a read-only claim, and a hint flipped the
	// other way.
	c := []byte(`{"inputSchema":{"type":"object"},"name":"x"}`)
	d := []byte(`{"annotations":{"readOnlyHint":true},"inputSchema":{"type":"object"},"name":"x"}`)
	if got := DiffDefinitions(c, d); len(got) != 1 || got[0].Kind != ChangeReadOnlyClaimed {
		t.Errorf("annotations added: %+v", got)
	}
	if got := DiffDefinitions(b, a); got[0].Kind != ChangeAnnotation || got[0].Pointer != "/annotations/readOnlyHint" {
		t.Errorf("read-only dropped: %+v", got)
	}
}
