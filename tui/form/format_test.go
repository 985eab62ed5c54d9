package form

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/relavium/relavium/fields"
)

func TestFormatChecks(t *testing.T) {
	for _, c := range []struct {
		format, value string
		ok            bool
	}{
		{"email", "ada@example.com", true},
		{"email", "ada", false},
		{"email", "Ada <ada@example.com>", false},
		{"email", "ada@", false},
		{"uri", "https://example.com/x", true},
		{"uri", "urn:isbn:0451450523", true},
		{"uri", "example.com", false},
		{"uri", "/relative/path", false},
		{"date", "2025-11-25", true},
		{"date", "2025-13-01", false},
		{"date", "25/11/2025", false},
		{"date-time", "2025-11-25T14:30:00Z", true},
		{"date-time", "2025-11-25T14:30:00+01:00", true},
		{"date-time", "2025-11-25 14:30", false},
		{"hostname", "anything goes", true}, // not checked here
	} {
		if err := checkFormat(c.format, c.value); (err == nil) != c.ok {
			t.Errorf("%s %q: %v, want ok=%v", c.format, c.value, err, c.ok)
		}
	}
}

// A form field with a format refuses a value that does not fit it, inline,
// and sends one that does.
func TestFormRefusesAValueOutsideItsFormat(t *testing.T) {
	specs, err := fields.Of(json.RawMessage(`{"type":"object","properties":{"email":{"type":"string","format":"email"},"day":{"type":"string","format":"date"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	f := New(testStyles(), specs, nil)
	f.Field("email").Input.SetValue("not-an-email")
	f.Field("day").Input.SetValue("2025-11-25")
	if _, ok := f.Args(); ok || !strings.Contains(f.Field("email").Err, "email") || f.Field("day").Err != "" {
		t.Fatalf("args ok=%v; email err %q, day err %q", ok, f.Field("email").Err, f.Field("day").Err)
	}
	f.Field("email").Input.SetValue("ada@example.com")
	raw, ok := f.Args()
	if !ok || string(raw) != `{"email":"ada@example.com","day":"2025-11-25"}` {
		t.Fatalf("args %s ok=%v", raw, ok)
	}
}
