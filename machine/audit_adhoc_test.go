package machine

import (
	"os"
	"testing"
	"time"

	"github.com/relavium/relavium/internal/testbin"
	"github.com/relavium/relavium/invoke"
)

// An audit line marks a call that reached a server of the request's own
// naming (--url): the real binary runs mcp call through the invoker, the
// line says "adhoc":{"target":"url"} (the guard refused the loopback
// url, so no consent is recorded); a call of a declared server's tool is
// "adhoc":null. Once a command ran, its data.adhoc says on whose word.
func TestAuditMarksAdhocCalls(t *testing.T) {
	bin := testbin.Relavium(t)
	home, project := t.TempDir(), t.TempDir()
	iv := &Invoker{Table: invoke.Commands(), Exe: bin, Project: project,
		Environ: []string{"PATH=" + os.Getenv("PATH"), "RELAVIUM_HOME=" + home, "HOME=" + home},
		Timeout: 60 * time.Second, Nonces: NewNonceStore(nil), Audit: NewAuditLog(home)}
	confirmed := func(req string) {
		t.Helper()
		res := invokeStub(iv, "mcp call", req)
		if res.Confirm == nil {
			t.Fatalf("no confirmation: %s", res.Envelope)
		}
		res = invokeStub(iv, "mcp call", req[:len(req)-1]+`,"confirm":"`+res.Confirm.Confirm+`"}`)
		if res.Confirm != nil || res.ErrorCode == CodeBadConfirm {
			t.Fatalf("the confirmed call did not run: %s", res.Envelope)
		}
	}
	confirmed(`{"args":["echo"],"flags":{"url":"http://127.0.0.1:9/mcp"}}`)
	confirmed(`{"args":["mcp_nowhere_echo"]}`)

	var runs []map[string]any
	for _, r := range auditLines(t, home) {
		if r["decision"] == DecisionRun {
			runs = append(runs, r)
		}
	}
	if len(runs) != 2 {
		t.Fatalf("want two runs audited, got %v", runs)
	}
	if a, ok := runs[0]["adhoc"].(map[string]any); !ok || a["target"] != "url" || a["consent"] != nil {
		t.Errorf("the --url call is not marked ad hoc: %v", runs[0])
	}
	if a, ok := runs[1]["adhoc"]; !ok || a != nil {
		t.Errorf("the declared call is marked: %v", runs[1])
	}

	// What the command recorded completes the mark.
	req := &Request{Flags: map[string]FlagValue{"url": {Kind: KindString, Str: "https://mcp.example.com/mcp"}}}
	doc := []byte(`{"ok":true,"data":{"tool":"echo","adhoc":{"transport":"http","url":"https://mcp.example.com/mcp","consent":"guard"}}}`)
	if a := adhocOf(req, doc); a == nil || a.Target != "url" || a.Consent != "guard" || a.Digest != "" {
		t.Errorf("adhocOf = %+v", a)
	}
	if a := adhocOf(&Request{}, doc); a != nil {
		t.Errorf("a request naming no target is marked: %+v", a)
	}
}
