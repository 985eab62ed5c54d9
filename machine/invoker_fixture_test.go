package machine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/invoke"
)

func runStubNoop(context.Context, *invoke.Invocation) (any, error) { return nil, nil }

// stubTable is a command table covering every gate path.
func stubTable() *invoke.Table {
	yes := &invoke.Confirm{Consent: []string{"yes"}}
	return &invoke.Table{
		Globals: invoke.Commands().Globals,
		Commands: []*invoke.Command{
			{Path: []string{"stub"}, Summary: "group"},
			{Path: []string{"stub", "read"}, Summary: "a read",
				Args: []invoke.Arg{{Name: "KEY"}, {Name: "SECRET", Secret: true}},
				Flags: []invoke.Flag{
					{Name: "quiet", Type: invoke.Bool},
					{Name: "tags", Type: invoke.StringSlice},
					{Name: "names", Type: invoke.StringArray},
					{Name: "count", Type: invoke.Int, Default: "3"},
					{Name: "mode", Type: invoke.String, Enum: []string{"a", "b"}},
					{Name: "wait", Type: invoke.Duration, Default: "1s"},
					{Name: "api-key", Type: invoke.String, Secret: true},
					{Name: "stream", Type: invoke.Bool, OutputOverride: invoke.Stream},
					{Name: "nuke", Type: invoke.Bool, Escalates: invoke.Destructive},
					{Name: "hidden", Type: invoke.Bool, Hidden: true},
					{Name: "old", Type: invoke.Bool, Deprecated: true},
					{Name: "reveal", Type: invoke.Bool, CLIOnly: true},
				},
				SideEffect: invoke.Read, JSON: true, Output: invoke.Document, Surface: invoke.Machine, Run: runStubNoop},
			{Path: []string{"stub", "write"}, Summary: "a write", Args: []invoke.Arg{{Name: "V", Variadic: true}},
				SideEffect: invoke.Write, JSON: true, Output: invoke.Document, Surface: invoke.Machine, Run: runStubNoop},
			{Path: []string{"stub", "remote"}, Summary: "a remote", Args: []invoke.Arg{{Name: "TARGET", Required: true}},
				Flags:      []invoke.Flag{{Name: "yes", Type: invoke.Bool}, {Name: "token", Type: invoke.String, Secret: true}},
				SideEffect: invoke.Remote, JSON: true, Output: invoke.Document, Surface: invoke.Machine, Confirm: yes, Run: runStubNoop},
			{Path: []string{"stub", "destroy"}, Summary: "destructive without a gate",
				SideEffect: invoke.Destructive, JSON: true, Output: invoke.Document, Surface: invoke.Machine, Run: runStubNoop},
			{Path: []string{"stub", "plan"}, Summary: "a plan form", Args: []invoke.Arg{{Name: "ID", Required: true}},
				Flags: []invoke.Flag{{Name: "yes", Type: invoke.Bool}, {Name: "plan", Type: invoke.Bool}, {Name: "plan-id", Type: invoke.String},
					{Name: "input", Type: invoke.StringArray}},
				SideEffect: invoke.Write, JSON: true, Output: invoke.Document, Surface: invoke.Machine,
				Confirm: &invoke.Confirm{Consent: []string{"yes"}, PlanFlag: "plan", IDFlag: "plan-id"}, Run: runStubNoop},
			{Path: []string{"stub", "cli"}, Summary: "cli only", SideEffect: invoke.Read, JSON: true, Output: invoke.Document, Surface: invoke.CLIOnly, Run: runStubNoop},
			{Path: []string{"stub", "words"}, Summary: "a free-form leaf", SideEffect: invoke.Read, JSON: true, Output: invoke.Document,
				Surface: invoke.Machine, Argv: true, Run: runStubNoop},
		},
	}
}

// stubInvoker is an invoker over stubTable whose children are the stub
// program in mode, with a temp home and project.
type stubInvoker struct {
	*Invoker
	home    string
	project string
}

func newStubInvoker(t *testing.T, stub, mode string, env ...string) *stubInvoker {
	t.Helper()
	home, project := t.TempDir(), t.TempDir()
	environ := append([]string{"PATH=" + os.Getenv("PATH"), "STUB_MODE=" + mode}, env...)
	iv := &Invoker{
		Table: stubTable(), Exe: stub, Project: project, Environ: environ,
		Timeout: 20 * time.Second, Nonces: NewNonceStore(nil), Audit: NewAuditLog(home), Stderr: &strings.Builder{},
	}
	return &stubInvoker{Invoker: iv, home: home, project: project}
}

// machineEnvelopeOf decodes a result's envelope.
type machineEnvelope struct {
	OK    bool            `json:"ok"`
	Data  json.RawMessage `json:"data"`
	Error *struct {
		Code    fault.Code `json:"code"`
		Message string     `json:"message"`
		Cause   any        `json:"cause"`
	} `json:"error"`
}

func machineEnvelopeOf(t *testing.T, res Result) machineEnvelope {
	t.Helper()
	var e machineEnvelope
	if err := json.Unmarshal(res.Envelope, &e); err != nil {
		t.Fatalf("envelope is not JSON: %v: %s", err, res.Envelope)
	}
	return e
}

func wantMachineCode(t *testing.T, res Result, code fault.Code) machineEnvelope {
	t.Helper()
	e := machineEnvelopeOf(t, res)
	if e.OK || e.Error == nil || e.Error.Code != code {
		t.Fatalf("want error %s, got %s", code, res.Envelope)
	}
	return e
}

// auditLines reads the audit log's records.
func auditLines(t *testing.T, home string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(home, "logs", "machine-audit.jsonl"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("audit line is not JSON: %q", line)
		}
		out = append(out, m)
	}
	return out
}
