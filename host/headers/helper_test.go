package headers

import (
	"fmt"
	"strings"
	"testing"

	"github.com/relavium/relavium/host/failure"
)

// A helper's output is exactly one JSON object of header names to string
// values the header rules accept; anything else is E525, and no refusal
// quotes a value.
func TestParseHelperOutput(t *testing.T) {
	const secret = "hh-secret-value"
	many := "{"
	for i := range 33 {
		many += fmt.Sprintf(`"X-H%d": "v",`, i)
	}
	many = strings.TrimSuffix(many, ",") + "}"
	big := "{"
	for i := range 5 {
		big += fmt.Sprintf(`"X-B%d": "%s",`, i, strings.Repeat("b", 7000))
	}
	big = strings.TrimSuffix(big, ",") + "}"
	for _, c := range []struct{ out, says string }{
		{big, "bytes of headers"},
		{`["` + secret + `"]`, "not a JSON object"},
		{`{"X-A": "` + secret + `"} {"X-B": "x"}`, "more than one JSON value"},
		{`{"X-A": "` + secret + `", "x-a": "` + secret + `"}`, "gives X-A twice"},
		{`{"X-A": {"v": "` + secret + `"}}`, "not a string"},
		{`{"X-A": null}`, "not a string"},
		{`{"Bad Name": "` + secret + `"}`, "not an HTTP header name"},
		{`{"` + secret + ` x": "v"}`, "not an HTTP header name"},
		{`{"Content-Length": "1"}`, "Content-Length"},
		{`{"X-A": " ` + secret + `"}`, "cannot be sent"},
		{`{"X-A": "` + secret + `\u0085"}`, "cannot be sent"},
		{`{"X-A": "` + strings.Repeat("a", 9000) + `"}`, "cannot be sent"},
		{many, "more than 32 headers"},
		{`{"X-A": "` + secret, "not valid JSON"},
		{``, "not a JSON object"},
	} {
		_, err := parseHelperOutput("s", []byte(c.out))
		if err == nil || err.Code() != failure.CodeHelperOutput || !strings.Contains(err.Error(), c.says) || strings.Contains(err.Error(), secret) {
			t.Errorf("%.50q: %v, want E525 saying %q without the value", c.out, err, c.says)
		}
	}
	hs, err := parseHelperOutput("s", []byte(" {\"authorization\": \"Bearer "+secret+"\", \"X-Team\": \"core\"}\n"))
	if err != nil || hs.Get("Authorization") != "Bearer "+secret || hs.Get("X-Team") != "core" || len(hs) != 2 {
		t.Fatalf("a good output: %v %v", hs, err)
	}
	if m := Merge(map[string][]string{"X-Team": {"static"}, "X-Kept": {"k"}}, hs); m.Get("X-Team") != "core" || m.Get("X-Kept") != "k" {
		t.Fatalf("merged: %v", m)
	}
}
