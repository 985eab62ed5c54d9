package machine

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/internal/projectfiles"
	"github.com/relavium/relavium/invoke"
	"github.com/relavium/relavium/workflow"
)

// confirmServer is an in-process `mcp serve` (children are the built binary)
// on an injected clock, with any number of client sessions.
type confirmServer struct {
	f      *serveFixture
	clk    *nonceClock
	server *mcp.Server
	e      *elicitAnswer
}

func newConfirmServer(t *testing.T) *confirmServer {
	t.Helper()
	f := newServeFixture(t)
	clk := &nonceClock{t: time.Now()}
	iv := &Invoker{Table: invoke.Commands(), Exe: f.bin, Project: f.project, Environ: f.env(), Timeout: 60 * time.Second,
		Nonces: NewNonceStore(clk.now), Audit: NewAuditLog(f.home), Stderr: &strings.Builder{}, Now: clk.now}
	ctx, cancel := context.WithCancel(context.Background())
	life := newServeLife(ctx)
	t.Cleanup(func() { cancel(); life.wait(callWaitLimit) })
	s, _, err := newServer(iv, "test", TransportMCPStdio, life)
	if err != nil {
		t.Fatal(err)
	}
	e := &elicitAnswer{}
	e.approve.Store(true)
	return &confirmServer{f: f, clk: clk, server: s, e: e}
}

// session opens one more MCP session on the server.
func (c *confirmServer) session(t *testing.T) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := c.server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := newTestClient(c.e).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Close() })
	return cs
}

func wantBadConfirm(t *testing.T, what string, res *mcp.CallToolResult, env machineEnvelope) {
	t.Helper()
	if !res.IsError || env.Error == nil || env.Error.Code != CodeBadConfirm {
		t.Fatalf("%s: want E424, got %+v", what, env)
	}
}

// Every confirmation is single use, bound to its session, its tool and its
// exact request, and expires: each replay path of a destructive workflow
// (kind plan) and of a remote command (kind request) is refused with E424,
// and a plan that moved is the child's E450.
func TestServeConfirmationsCannotBeReplayed(t *testing.T) {
	c := newConfirmServer(t)
	a, b := c.session(t), c.session(t)
	wipe := map[string]any{"target": "prod-db"}
	with := func(args map[string]any, confirm string) map[string]any {
		out := map[string]any{"confirm": confirm}
		for k, v := range args {
			out[k] = v
		}
		return out
	}
	confirmWipe := func(cs *mcp.ClientSession) Confirmation {
		t.Helper()
		res, env := callTool(t, cs, "relavium_wipe", wipe)
		if res.IsError {
			t.Fatalf("confirmation: %+v", env)
		}
		conf := confirmationOf(t, env)
		if conf.Kind != KindPlan || conf.PlanID == "" || conf.Confirm == conf.PlanID {
			t.Fatalf("confirmation %+v", conf)
		}
		return conf
	}
	runs := func() int {
		n := 0
		for _, r := range auditLines(t, c.f.home) {
			if r["decision"] == DecisionRun {
				n++
			}
		}
		return n
	}

	t.Run("same value twice", func(t *testing.T) {
		conf := confirmWipe(a)
		if res, env := callTool(t, a, "relavium_wipe", with(wipe, conf.Confirm)); res.IsError || !env.OK {
			t.Fatalf("first use: %+v", env)
		}
		before := runs()
		res, env := callTool(t, a, "relavium_wipe", with(wipe, conf.Confirm))
		wantBadConfirm(t, "second use", res, env)
		if runs() != before {
			t.Fatal("a replayed confirmation ran the workflow")
		}
	})

	t.Run("from another session", func(t *testing.T) {
		conf := confirmWipe(a)
		res, env := callTool(t, b, "relavium_wipe", with(wipe, conf.Confirm))
		wantBadConfirm(t, "other session", res, env)
		res, env = callTool(t, a, "relavium_wipe", with(wipe, conf.Confirm))
		wantBadConfirm(t, "spent by the other session's attempt", res, env)
	})

	t.Run("through relavium-run instead of the workflow tool", func(t *testing.T) {
		conf := confirmWipe(a)
		same := map[string]any{"args": []string{"wipe"}, "flags": map[string]any{"input": []string{"target=prod-db"}}, "confirm": conf.Confirm}
		res, env := callTool(t, a, "relavium-run", same)
		wantBadConfirm(t, "relavium-run", res, env)
		// and the reverse: relavium-run's own confirmation does not confirm the workflow tool
		res, env = callTool(t, a, "relavium-run", map[string]any{"args": []string{"wipe"}, "flags": map[string]any{"input": []string{"target=prod-db"}}})
		runConf := confirmationOf(t, env)
		if res.IsError || runConf.Kind != KindPlan {
			t.Fatalf("relavium-run confirmation: %+v", env)
		}
		res, env = callTool(t, a, "relavium_wipe", with(wipe, runConf.Confirm))
		wantBadConfirm(t, "workflow tool with relavium-run's confirmation", res, env)
	})

	t.Run("after expiry", func(t *testing.T) {
		conf := confirmWipe(a)
		c.clk.advance(NonceTTL)
		res, env := callTool(t, a, "relavium_wipe", with(wipe, conf.Confirm))
		wantBadConfirm(t, "expired", res, env)
	})

	t.Run("with changed arguments", func(t *testing.T) {
		conf := confirmWipe(a)
		res, env := callTool(t, a, "relavium_wipe", with(map[string]any{"target": "other-db"}, conf.Confirm))
		wantBadConfirm(t, "changed target", res, env)
		conf = confirmWipe(a)
		res, env = callTool(t, a, "relavium_wipe", with(map[string]any{"target": "prod-db", "days": 1}, conf.Confirm))
		wantBadConfirm(t, "added input", res, env)
	})

	t.Run("the plan moved", func(t *testing.T) {
		conf := confirmWipe(a)
		projectfiles.Workflow(t, c.f.project, "wipe", "destructive", "Really wipe {{inputs.target}}?")
		t.Cleanup(func() { projectfiles.Workflow(t, c.f.project, "wipe", "destructive", "Wipe {{inputs.target}}?") })
		res, env := callTool(t, a, "relavium_wipe", with(wipe, conf.Confirm))
		if !res.IsError || env.Error == nil || env.Error.Code != workflow.CodePlanChanged {
			t.Fatalf("moved plan: want E450, got %+v", env)
		}
	})

	t.Run("kind request from another session", func(t *testing.T) {
		args := map[string]any{"args": []string{"mcp_nowhere_tool"}}
		_, env := callTool(t, a, "relavium-mcp-call", args)
		conf := confirmationOf(t, env)
		if conf.Kind != KindRequest {
			t.Fatalf("%+v", conf)
		}
		res, env := callTool(t, b, "relavium-mcp-call", with(args, conf.Confirm))
		wantBadConfirm(t, "request nonce from another session", res, env)
	})

	raw, err := os.ReadFile(NewAuditLog(c.f.home).Path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(raw), `"error_code":"E424"`) < 8 {
		t.Fatalf("every refused replay is audited: %s", raw)
	}
}
