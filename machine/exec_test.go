package machine

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/relavium/relavium/internal/testbin"
)

func scanPids(s string, a ...any) (int, error) { return fmt.Sscan(s, a...) }

func TestChildEnvironmentCwdAndStdin(t *testing.T) {
	stub := testbin.Build(t, "./testdata/machine/stubchild")
	iv := newStubInvoker(t, stub, "ok", "RELAVIUM_MCP_TOKEN=tok", "CI=0", "NO_COLOR=", "RELAVIUM_INVOKE_PATH=forged",
		"RELAVIUM_INVOKE_DEADLINE_MS=1", "RELAVIUM_INVOKED_BY=x", "STUB_KEEP=kept")
	res := iv.Invoke(context.Background(), TransportMCPSSE, []string{"stub", "read"}, []byte(`{"args":["k"],"flags":{"quiet":true}}`), Options{})
	if !res.OK {
		t.Fatalf("%s", res.Envelope)
	}
	var env struct {
		Data struct {
			Argv      []string          `json:"argv"`
			Cwd       string            `json:"cwd"`
			Stdin     string            `json:"stdin"`
			Env       map[string]string `json:"env"`
			PgidIsPid bool              `json:"pgid_is_pid"`
		} `json:"data"`
	}
	if err := json.Unmarshal(res.Envelope, &env); err != nil {
		t.Fatal(err)
	}
	d := env.Data
	if strings.Join(d.Argv, " ") != "stub read --json --project="+iv.project+" --quiet=true -- k" {
		t.Errorf("argv %q", d.Argv)
	}
	if d.Cwd != iv.project || d.Stdin != "" || !d.PgidIsPid {
		t.Errorf("cwd %q stdin %q own group %v", d.Cwd, d.Stdin, d.PgidIsPid)
	}
	want := map[string]string{"RELAVIUM_NONINTERACTIVE": "1", "CI": "1", "NO_COLOR": "1", "RELAVIUM_INVOKED_BY": "mcp",
		"RELAVIUM_INVOKE_PATH": "stub read", "STUB_KEEP": "kept"}
	for k, v := range want {
		if d.Env[k] != v {
			t.Errorf("%s=%q, want %q", k, d.Env[k], v)
		}
	}
	if _, ok := d.Env["RELAVIUM_MCP_TOKEN"]; ok {
		t.Error("RELAVIUM_MCP_TOKEN reached the child")
	}
	ms, err := strconv.Atoi(d.Env["RELAVIUM_INVOKE_DEADLINE_MS"])
	if err != nil || ms <= 1000 || ms > int(iv.Timeout.Milliseconds()) {
		t.Errorf("deadline %q for a %s timeout", d.Env["RELAVIUM_INVOKE_DEADLINE_MS"], iv.Timeout)
	}
	if recs := auditLines(t, iv.home); len(recs) != 0 {
		t.Errorf("a read that ran was logged: %v", recs)
	}
}

func TestChildEnvelopePassesThroughByteForByte(t *testing.T) {
	doc := []byte("  {\"ok\":true,\"data\":{\"x\":1},\"meta\":{\"warnings\":[\"w\"],\"deprecations\":[]}}\n")
	got, ok := singleObject(doc)
	if !ok || string(got) != string(doc[2:len(doc)-1]) {
		t.Fatalf("%q %v", got, ok)
	}
	for _, bad := range []string{"", "null", "[]", `{"a":1}{}`, `{"a":1} x`, `{"a":`, "\"s\""} {
		if _, ok := singleObject([]byte(bad)); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestStderrTailRedaction(t *testing.T) {
	long := strings.Repeat("noise ", 1000) + "API_TOKEN=abc123 then s3cret"
	got := stderrTail([]byte(long), []string{"s3cret"})
	if len(got) > CauseTailBytes || strings.Contains(got, "abc123") || strings.Contains(got, "s3cret") || !strings.HasSuffix(got, "API_TOKEN=[REDACTED] then [REDACTED]") {
		t.Fatalf("%q", got[len(got)-60:])
	}
}

// The usual redaction covers the shapes a credential takes in free text:
// KEY=value, a JSON member whose name looks secret, a bearer token and the
// password in a URL's userinfo. It runs on audit strings and E422 tails.
func TestUsualRedactionCoversJSONMembersAndURLUserinfo(t *testing.T) {
	for in, want := range map[string]string{
		`API_TOKEN=abc123 rest`:                       `API_TOKEN=[REDACTED] rest`,
		`{"token":"abc123","n":1}`:                    `{"token":"[REDACTED]","n":1}`,
		`{"api_key": "abc 123"}`:                      `{"api_key": "[REDACTED]"}`,
		`{"Password" : "a\"b"}`:                       `{"Password" : "[REDACTED]"}`,
		`{\"secret\":\"abc123\"}`:                     `{\"secret\":\"[REDACTED]\"}`,
		`dial https://bob:abc123@db.example/x failed`: `dial https://bob:[REDACTED]@db.example/x failed`,
		`Authorization: Bearer abc.123`:               `Authorization: Bearer [REDACTED]`,
		`{"name":"abc123"}`:                           `{"name":"abc123"}`,
	} {
		if got := RedactText(in, nil); got != want {
			t.Errorf("RedactText(%s)\n got %s\nwant %s", in, got, want)
		}
	}
}
