package clientside

import (
	"encoding/json"
	"testing"
)

func TestSchemaDefaults(t *testing.T) {
	got, ok := SchemaDefaults(json.RawMessage(`{"type":"object","properties":{"a":{"type":"string","default":"x"},"b":{"type":"integer"}},"required":["a"]}`))
	if !ok || len(got) != 1 || got["a"] != "x" {
		t.Errorf("defaults = %v %v", got, ok)
	}
	if _, ok := SchemaDefaults(json.RawMessage(`{"type":"object","properties":{"b":{"type":"integer"}},"required":["b"]}`)); ok {
		t.Error("a required property without a default was accepted")
	}
}
