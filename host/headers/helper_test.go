package headers

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/redact"
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

// A helper whose line reads a variable relavium's environment does not
// set (and gives no default) is E880 before anything runs; one with a
// default runs, the shell reading the default.
func TestHelperLineVariables(t *testing.T) {
	dir := t.TempDir()
	mark := filepath.Join(dir, "ran")
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	environ := []string{"PATH=" + os.Getenv("PATH")}
	h := &Helper{Line: "echo ran > " + mark + "; printf '{\"X-P\": \"%s\"}' \"{{env.HELPER_UNSET_VAR}}\"", Shell: sh, Cwd: dir}
	if _, _, f := h.Run(context.Background(), "s", environ, map[string]string{}, redact.New()); f == nil || f.Code() != failure.CodeEnvRefUnset {
		t.Fatalf("an unset variable: %v", f)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("the helper ran though its variable is unset")
	}
	h.Line = "echo 'refreshed the token for-stderr-secret' >&2; printf '{\"X-P\": \"%s\"}' \"{{env.HELPER_UNSET_VAR:-for-stderr-secret}}\""
	hs, stderr, f := h.Run(context.Background(), "s", environ, map[string]string{}, redact.New())
	if f != nil || hs.Get("X-P") != "for-stderr-secret" {
		t.Fatalf("a default: %v %v", hs, f)
	}
	if !strings.Contains(stderr, "refreshed the token") || strings.Contains(stderr, "for-stderr-secret") {
		t.Fatalf("its stderr, for the server's log, redacted: %q", stderr)
	}
	h.Line = "printf '{\"X-P\": \"%s\"}' \"{{env.HELPER_SET_VAR}}\""
	hs, _, f = h.Run(context.Background(), "s", append(environ, "HELPER_SET_VAR=a; echo injected"), map[string]string{}, redact.New())
	if f != nil || hs.Get("X-P") != "a; echo injected" {
		t.Fatalf("a value with shell syntax is read as a value, not as shell text: %v %v", hs, f)
	}
}
