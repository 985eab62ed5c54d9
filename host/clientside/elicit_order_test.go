package clientside

import (
	"encoding/json"
	"fmt"
	"testing"
)

func TestFieldOrdersOnlyReorder(t *testing.T) {
	var f FieldOrders
	f.Remember(json.RawMessage(`{"message":"m","requestedSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"number"},"z":{"type":"string"}}}}`))
	// A decoded schema that differs from every remembered one stays as it is.
	other := json.RawMessage(`{"properties":{"a":{"type":"number"},"z":{"type":"boolean"}},"type":"object"}`)
	if got := f.Apply(other); string(got) != string(other) {
		t.Fatalf("a different schema was changed: %s", got)
	}
	same := json.RawMessage(`{"properties":{"a":{"type":"number"},"z":{"type":"string"}},"type":"object"}`)
	if got := f.Apply(same); string(got) != `{"properties":{"z":{"type":"string"},"a":{"type":"number"}},"type":"object"}` {
		t.Fatalf("reordered: %s", got)
	}
	// Used once: the second request for the same schema has no order left.
	if got := f.Apply(same); string(got) != string(same) {
		t.Fatalf("an order was used twice: %s", got)
	}
	for i := range maxFieldOrders + 4 {
		f.Remember(json.RawMessage(fmt.Sprintf(`{"requestedSchema":{"properties":{"b%d":{},"a":{}}}}`, i)))
	}
	if len(f.keys) != maxFieldOrders || len(f.orders) != maxFieldOrders {
		t.Fatalf("%d keys, %d orders kept", len(f.keys), len(f.orders))
	}
}

// Two elicitations with the same schema in flight at once (the same tool
// called twice) each get the server's field order, not just the first.
func TestFieldOrderServesEveryIdenticalRequest(t *testing.T) {
	var f FieldOrders
	raw := json.RawMessage(`{"requestedSchema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"number"}}}}`)
	f.Remember(raw)
	f.Remember(raw)
	decoded := json.RawMessage(`{"properties":{"a":{"type":"number"},"z":{"type":"string"}},"type":"object"}`)
	want := `{"properties":{"z":{"type":"string"},"a":{"type":"number"}},"type":"object"}`
	for i := range 2 {
		if got := f.Apply(decoded); string(got) != want {
			t.Fatalf("request %d: %s", i+1, got)
		}
	}
	if got := f.Apply(decoded); string(got) != string(decoded) {
		t.Fatalf("a third apply found an order nobody remembered: %s", got)
	}
	if len(f.keys) != 0 || len(f.orders) != 0 {
		t.Fatalf("left behind: %d keys, %d orders", len(f.keys), len(f.orders))
	}
}
