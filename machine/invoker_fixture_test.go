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
	"github.com/relavium/relavium/invoke/cli"
)

func runStubNoop(context.Context, *cli.Invocation) (any, error) { return nil, nil }

// stubTable is a command table covering every gate path.
func stubTable() *cli.Table {
	yes := &cli.Confirm{Consent: []string{"yes"}}
	return &cli.Table{
		Globals: invoke.Commands().Globals,
		Commands: []*cli.Command{
			{Path: []string{"stub"}, Summary: "group"},
			{Path: []string{"stub", "read"}, Summary: "a read",
				Args: []cli.Arg{{Name: "KEY"}, {Name: "SECRET", Secret: true}},
				Flags: []cli.Flag{
					{Name: "quiet", Type: cli.Bool},
					{Name: "tags", Type: cli.StringSlice},
					{Name: "names", Type: cli.StringArray},
					{Name: "count", Type: cli.Int, Default: "3"},
					{Name: "mode", Type: cli.String, Enum: []string{"a", "b"}},
					{Name: "wait", Type: cli.Duration, Default: "1s"},
					{Name: "api-key", Type: cli.String, Secret: true},
					{Name: "stream", Type: cli.Bool, OutputOverride: cli.Stream},
					{Name: "nuke", Type: cli.Bool, Escalates: cli.Destructive},
					{Name: "hidden", Type: cli.Bool, Hidden: true},
					{Name: "old", Type: cli.Bool, Deprecated: true},
					{Name: "reveal", Type: cli.Bool, CLIOnly: true},
				},
				SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.Machine, Run: runStubNoop},
			{Path: []string{"stub", "write"}, Summary: "a write", Args: []cli.Arg{{Name: "V", Variadic: true}},
				SideEffect: cli.Write, JSON: true, Output: cli.Document, Surface: cli.Machine, Run: runStubNoop},
			{Path: []string{"stub", "remote"}, Summary: "a remote", Args: []cli.Arg{{Name: "TARGET", Required: true}},
				Flags:      []cli.Flag{{Name: "yes", Type: cli.Bool}, {Name: "token", Type: cli.String, Secret: true}},
				SideEffect: cli.Remote, JSON: true, Output: cli.Document, Surface: cli.Machine, Confirm: yes, Run: runStubNoop},
			{Path: []string{"stub", "destroy"}, Summary: "destructive without a gate",
				SideEffect: cli.Destructive, JSON: true, Output: cli.Document, Surface: cli.Machine, Run: runStubNoop},
			{Path: []string{"stub", "plan"}, Summary: "a plan form", Args: []cli.Arg{{Name: "ID", Required: true}},
				Flags: []cli.Flag{{Name: "yes", Type: cli.Bool}, {Name: "plan", Type: cli.Bool}, {Name: "plan-id", Type: cli.String},
					{Name: "input", Type: cli.StringArray}},
				SideEffect: cli.Write, JSON: true, Output: cli.Document, Surface: cli.Machine,
				Confirm: &cli.Confirm{Consent: []string{"yes"}, PlanFlag: "plan", IDFlag: "plan-id"}, Run: runStubNoop},
			{Path: []string{"stub", "cli"}, Summary: "cli only", SideEffect: cli.Read, JSON: true, Output: cli.Document, Surface: cli.CLIOnly, Run: runStubNoop},
			{Path: []string{"stub", "words"}, Summary: "a free-form leaf", SideEffect: cli.Read, JSON: true, Output: cli.Document,
				Surface: cli.Machine, Argv: true, Run: runStubNoop},
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
