package tui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/tui/dialog"
)

// An elicitation is checked against the requested schema before it is
// accepted: a missing required field or a broken rule is shown in the
// dialog, which stays open, instead of an answer the server's client
// library rejects (failing the whole tool call).
func TestElicitationValidatedBeforeAccept(t *testing.T) {
	h := ready(t, 120, 30)
	schema := json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"},"cups":{"type":"integer","maximum":20,"default":2},"name":{"type":"string","title":"Name","minLength":2}},"required":["name"]}`)
	got := make(chan engine.ElicitResponse, 1)
	go func() {
		r, _ := h.m.Elicitor().Elicit(context.Background(), engine.ElicitRequest{Server: "demo", Message: "Who?", Schema: schema})
		got <- r
	}()
	h.until("the elicitation dialog", func() bool { _, ok := h.m.topDialog().(*dialog.Elicit); return ok })
	h.key("ctrl+s")
	d, ok := h.m.topDialog().(*dialog.Elicit)
	if !ok {
		t.Fatal("accepting without the required field closed the dialog")
	}
	if fld := d.Form.Field("name"); fld == nil || fld.Err == "" {
		t.Fatalf("the missing required field is not marked:\n%s", h.view())
	}
	if !strings.Contains(h.view(), "required") {
		t.Fatalf("the frame does not say what is missing:\n%s", h.view())
	}
	// At 60×16 too: the marked field gets the focus, and the form's error
	// line stays in view.
	h.send(teaSize(60, 16))
	if d.Form.Fields[d.Form.Focus].Spec.Name != "name" || !strings.Contains(h.view(), "fill the required fields") {
		t.Fatalf("at 60×16 the missing field is out of sight:\n%s", h.view())
	}
	h.send(teaSize(120, 30))
	h.typeText("A") // too short (minLength 2)
	h.key("ctrl+s")
	if _, ok := h.m.topDialog().(*dialog.Elicit); !ok {
		t.Fatal("a value breaking minLength was accepted")
	}
	// The refusal names the field and reads as a person writes numbers.
	if !strings.Contains(d.Form.Err, "name: minLength") {
		t.Fatalf("form error = %q", d.Form.Err)
	}
	h.typeText("da")
	h.key("ctrl+s")
	select {
	case r := <-got:
		if r.Action != "accept" || r.Content["name"] != "Ada" {
			t.Fatalf("answer = %+v", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("no answer after a valid accept:\n%s", h.view())
	}
}
