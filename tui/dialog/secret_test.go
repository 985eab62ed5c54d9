package dialog

import (
	"fmt"
	"strings"
	"testing"
)

// A Secret dialog with more fields than the screen holds keeps the field
// being typed in view: tab (and ↓) past the last visible field scrolls
// the body to it, shift+tab (and ↑) back scrolls up, and the dots of
// what is typed are shown where the person is typing.
func TestSecretKeepsTheFocusedFieldInView(t *testing.T) {
	fields := make([]SecretField, 40)
	for i := range fields {
		fields[i] = SecretField{ID: fmt.Sprintf("input-%02d", i), Label: strings.Repeat("a long description ", i%3*8)}
	}
	d := &Secret{Title: "Secrets for s", Fields: fields, Answer: func(map[string]string) Action { return Close{} }}
	st := monoStyles()
	for i := 0; i < 37; i++ {
		d.Handle(keyOf("tab"))
		if v := d.View(st, 100, 30); !strings.Contains(v, fmt.Sprintf("› input-%02d", i+1)) {
			t.Fatalf("after %d tabs the focused field input-%02d is out of view:\n%s", i+1, i+1, v)
		}
	}
	for _, r := range "abc" {
		d.Handle(keyOf(string(r)))
	}
	if v := d.View(st, 100, 30); !strings.Contains(v, "[•••]") || strings.Contains(v, "abc") {
		t.Fatalf("the value typed into input-37 is not shown as dots where it is typed:\n%s", v)
	}
	for i := 36; i >= 0; i-- {
		d.Handle(keyOf("shift+tab"))
		if v := d.View(st, 100, 30); !strings.Contains(v, fmt.Sprintf("› input-%02d", i)) {
			t.Fatalf("back at input-%02d, it is out of view:\n%s", i, v)
		}
	}
}
