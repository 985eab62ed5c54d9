package machine

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/internal/projectfiles"
	"github.com/relavium/relavium/internal/testbin"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/workflow"
)

// serveFixture is a built relavium binary, a temp home and a project with
// two mcp_call workflows: wipe (destructive, one gate) and approve (write,
// one gate).
type serveFixture struct {
	bin, home, project string
}

func newServeFixture(t *testing.T) *serveFixture {
	t.Helper()
	f := &serveFixture{bin: testbin.Relavium(t), home: t.TempDir(), project: t.TempDir()}
	projectfiles.Workflow(t, f.project, "wipe", "destructive", "Wipe {{inputs.target}}?")
	projectfiles.Workflow(t, f.project, "approve", "write", "Go on with {{inputs.target}}?")
	return f
}

func (f *serveFixture) env(extra ...string) []string {
	return append([]string{"PATH=" + os.Getenv("PATH"), "RELAVIUM_HOME=" + f.home, "HOME=" + f.home}, extra...)
}

// elicitAnswer answers the workflow gates: approve or decline, counting asks.
type elicitAnswer struct {
	approve atomic.Bool
	asked   atomic.Int32
	lastMsg atomic.Value
}

func (e *elicitAnswer) handle(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	e.asked.Add(1)
	e.lastMsg.Store(req.Params.Message)
	if e.approve.Load() {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
	}
	return &mcp.ElicitResult{Action: "decline"}, nil
}

func newTestClient(e *elicitAnswer) *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "relavium-test", Version: "1"}, &mcp.ClientOptions{ElicitationHandler: e.handle})
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args any) (*mcp.CallToolResult, machineEnvelope) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks", name, len(res.Content))
	}
	text := res.Content[0].(*mcp.TextContent).Text
	var env machineEnvelope
	if err := json.Unmarshal([]byte(text), &env); err != nil {
		t.Fatalf("%s: result is not one JSON envelope: %q", name, text)
	}
	return res, env
}

func confirmationOf(t *testing.T, env machineEnvelope) Confirmation {
	t.Helper()
	var c Confirmation
	if err := json.Unmarshal(env.Data, &c); err != nil || !c.ConfirmationRequired {
		t.Fatalf("not a confirmation: %s", env.Data)
	}
	return c
}

// exerciseServer runs the same scenario over any transport.
func exerciseServer(t *testing.T, f *serveFixture, cs *mcp.ClientSession, e *elicitAnswer, transport Transport) {
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*mcp.Tool{}
	for _, tl := range tools.Tools {
		byName[tl.Name] = tl
	}
	for _, want := range []string{"relavium-version", "relavium-mcp-ls", "relavium-mcp-call", "relavium-run", "relavium-config-validate",
		"relavium-workflow-ls", "relavium-consent-ls", "relavium-consent-digest", "relavium_wipe", "relavium_approve"} {
		if byName[want] == nil {
			t.Fatalf("tool %s missing; have %v", want, len(byName))
		}
	}
	if len(byName) != 10 {
		t.Fatalf("%d tools, want 10 (no cli-only command is listed)", len(byName))
	}
	if a := byName["relavium-version"].Annotations; a == nil || !a.ReadOnlyHint {
		t.Fatal("version is read-only")
	}
	if a := byName["relavium_wipe"].Annotations; a == nil || a.ReadOnlyHint || a.DestructiveHint == nil || !*a.DestructiveHint {
		t.Fatal("wipe is destructive")
	}
	schema, _ := json.Marshal(byName["relavium_wipe"].InputSchema)
	if !strings.Contains(string(schema), `"confirm"`) || !strings.Contains(string(schema), `"target"`) {
		t.Fatalf("workflow schema %s", schema)
	}

	// a read: the same document as running the command directly
	res, env := callTool(t, cs, "relavium-version", map[string]any{})
	direct, err := exec.Command(f.bin, "version", "--json").Output()
	if err != nil || res.IsError || !env.OK {
		t.Fatalf("version: %v %+v", err, env)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != strings.TrimSpace(string(direct)) {
		t.Fatalf("through serve %q\ndirect        %q", got, direct)
	}

	// a bad request is E420, an error result
	if res, env := callTool(t, cs, "relavium-version", map[string]any{"ARGS": []string{}}); !res.IsError || env.Error.Code != CodeInvalidRequest {
		t.Fatalf("E420 expected: %+v", env)
	}

	// the destructive workflow: confirmation (kind plan), then the gate by elicitation
	e.approve.Store(true)
	before := e.asked.Load()
	res, env = callTool(t, cs, "relavium_wipe", map[string]any{"target": "prod-db"})
	if res.IsError {
		t.Fatalf("a confirmation is not an error: %+v", env)
	}
	c := confirmationOf(t, env)
	if c.Kind != KindPlan || c.SideEffect != cli.Destructive || !strings.Contains(string(c.Plan), `"plan_id"`) || e.asked.Load() != before {
		t.Fatalf("confirmation %+v (asked %d)", c, e.asked.Load()-before)
	}
	res, env = callTool(t, cs, "relavium_wipe", map[string]any{"target": "prod-db", "confirm": c.Confirm})
	if res.IsError || !env.OK || e.asked.Load() != before+1 {
		t.Fatalf("confirmed run: %+v (asked %d)", env, e.asked.Load()-before)
	}
	if !strings.Contains(string(env.Data), `"outputs":{"target":"prod-db"}`) || !strings.Contains(e.lastMsg.Load().(string), "Wipe prod-db?") {
		t.Fatalf("run data %s, asked %q", env.Data, e.lastMsg.Load())
	}
	if c.PlanID == "" || c.Confirm == c.PlanID || !strings.Contains(string(c.Plan), c.PlanID) {
		t.Fatalf("the plan id is kept for review and is not what confirms: %+v", c)
	}
	// the same value again, or for other inputs: E424, nothing runs
	for _, args := range []map[string]any{{"target": "prod-db", "confirm": c.Confirm}, {"target": "other", "confirm": c.Confirm}} {
		if res, env = callTool(t, cs, "relavium_wipe", args); !res.IsError || env.Error.Code != CodeBadConfirm {
			t.Fatalf("replayed confirmation: %+v", env)
		}
	}
	// nor is the plan id a confirmation
	if res, env = callTool(t, cs, "relavium_wipe", map[string]any{"target": "prod-db", "confirm": c.PlanID}); !res.IsError || env.Error.Code != CodeBadConfirm {
		t.Fatalf("plan id as confirm: %+v", env)
	}

	// a write workflow whose gate the client declines: the run is cancelled, nothing ran
	e.approve.Store(false)
	res, env = callTool(t, cs, "relavium_approve", map[string]any{"target": "t"})
	if !res.IsError || env.Error.Code != workflow.CodeGateRefused {
		t.Fatalf("declined gate: %+v", env)
	}

	// a remote command: the request round trip with a one-time nonce
	args := map[string]any{"args": []string{"mcp_nowhere_tool"}}
	res, env = callTool(t, cs, "relavium-mcp-call", args)
	c = confirmationOf(t, env)
	if c.Kind != KindRequest || c.SideEffect != cli.Remote || string(c.Plan) != "null" {
		t.Fatalf("request confirmation %+v", c)
	}
	args["confirm"] = c.Confirm
	res, env = callTool(t, cs, "relavium-mcp-call", args)
	if bytesHasConfirmation(env) || (env.Error != nil && env.Error.Code == CodeBadConfirm) {
		t.Fatalf("the confirmed call did not run: %+v", env)
	}
	if _, env = callTool(t, cs, "relavium-mcp-call", args); env.Error == nil || env.Error.Code != CodeBadConfirm {
		t.Fatalf("replayed nonce: %+v", env)
	}

	recs := auditLines(t, f.home)
	var decisions []string
	for _, r := range recs {
		if r["transport"] != string(transport) {
			continue
		}
		k, _ := r["confirm_kind"].(string)
		code, _ := r["error_code"].(string)
		decisions = append(decisions, r["command"].(string)+"/"+r["decision"].(string)+"/"+k+"/"+code)
	}
	joined := strings.Join(decisions, " ")
	for _, want := range []string{"run/confirmation_required/plan/", "run/run/plan/", "run/refused//" + string(workflow.CodeGateRefused), "run/refused//" + string(CodeBadConfirm),
		"mcp call/confirmation_required/request/", "mcp call/run/request/", "mcp call/refused//" + string(CodeBadConfirm), "version/refused//" + string(CodeInvalidRequest)} {
		if !strings.Contains(joined, want) {
			t.Errorf("audit lacks %s: %s", want, joined)
		}
	}
	if strings.Contains(joined, "version/run") {
		t.Errorf("a read that ran was logged: %s", joined)
	}
}

func bytesHasConfirmation(env machineEnvelope) bool {
	return strings.Contains(string(env.Data), `"confirmation_required"`)
}

func TestServeEndToEnd(t *testing.T) {
	f := newServeFixture(t)

	t.Run("stdio", func(t *testing.T) {
		cmd := exec.Command(f.bin, "mcp", "serve", "--project", f.project)
		cmd.Env = f.env()
		e := &elicitAnswer{}
		ctx := context.Background()
		cs, err := newTestClient(e).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		exerciseServer(t, f, cs, e, TransportMCPStdio)
		if err := cs.Close(); err != nil && !strings.Contains(err.Error(), "signal") {
			t.Logf("close: %v", err)
		}
	})

	t.Run("http", func(t *testing.T) {
		srv := startServe(t, f, []string{"RELAVIUM_MCP_TOKEN=e2e-token"}, "--transport", "http")
		raw, err := http.Post(srv.url, "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		raw.Body.Close()
		if raw.StatusCode != http.StatusUnauthorized || raw.Header.Get("WWW-Authenticate") != `Bearer realm="relavium-mcp"` {
			t.Fatalf("unauthenticated: %d %q", raw.StatusCode, raw.Header.Get("WWW-Authenticate"))
		}
		req, _ := http.NewRequest("POST", srv.url, strings.NewReader(`{}`))
		req.Host = "evil.example.com"
		req.Header.Set("Authorization", "Bearer e2e-token")
		if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
			t.Fatalf("rebinding Host: %v %v", resp, err)
		} else {
			resp.Body.Close()
		}
		// Both eras at the one endpoint: a 2025-11-25 session, and the
		// stateless 2026-07-28 era (the SDK's default), whose confirmations
		// are bound to the bearer identity.
		for _, proto := range []string{"2025-11-25", "2026-07-28"} {
			e := &elicitAnswer{}
			hc := &http.Client{Transport: bearer{"e2e-token", http.DefaultTransport}}
			cs, err := newTestClient(e).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.url, HTTPClient: hc},
				&mcp.ClientSessionOptions{ProtocolVersion: proto})
			if err != nil {
				t.Fatal(err)
			}
			if got := cs.InitializeResult().ProtocolVersion; got != proto || (cs.ID() == "") != (proto == "2026-07-28") {
				t.Fatalf("asked for %s: negotiated %s, session %q", proto, got, cs.ID())
			}
			exerciseServer(t, f, cs, e, TransportMCPHTTP)
			cs.Close()
		}
		// relavium's own client reaches it in the 2026-07-28 era.
		ls := exec.Command(f.bin, "mcp", "ls", "--url", srv.url, "--allow-local-endpoint", "--protocol", "2026-07-28",
			"--header", "Authorization: Bearer e2e-token", "--json")
		ls.Env = f.env()
		out, err := ls.Output()
		if err != nil || !strings.Contains(string(out), `"protocol":"2026-07-28"`) || !strings.Contains(string(out), `"relavium-version"`) {
			t.Fatalf("mcp ls --protocol 2026-07-28: %v\n%s", err, out)
		}
		srv.stop(t)
		if strings.Contains(srv.stderr(), "e2e-token") {
			t.Fatal("the token was printed")
		}
	})

	t.Run("sse", func(t *testing.T) {
		srv := startServe(t, f, []string{"RELAVIUM_MCP_TOKEN=sse-token"}, "--transport", "sse")
		hc := &http.Client{Transport: bearer{"sse-token", http.DefaultTransport}}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cs, err := newTestClient(&elicitAnswer{}).Connect(ctx, &mcp.SSEClientTransport{Endpoint: srv.url, HTTPClient: hc}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res, env := callTool(t, cs, "relavium-version", nil); res.IsError || !env.OK {
			t.Fatalf("%+v", env)
		}
		cs.Close()
		cancel()
		srv.stop(t)
	})

	// --allowed-host names a host the server is reachable under, e.g. behind
	// the TLS terminator docs/machine-invoker.md asks for on a loopback bind: requests that
	// carry that Host are served on both HTTP transports; others stay 403.
	t.Run("allowed host on a loopback bind", func(t *testing.T) {
		for _, tr := range []string{"http", "sse"} {
			srv := startServe(t, f, []string{"RELAVIUM_MCP_TOKEN=ah-token"}, "--transport", tr, "--allowed-host", "mcp.example.test")
			hc := &http.Client{Transport: hostRewrite{"mcp.example.test", bearer{"ah-token", http.DefaultTransport}}}
			ctx, cancel := context.WithCancel(context.Background())
			var ct mcp.Transport = &mcp.StreamableClientTransport{Endpoint: srv.url, HTTPClient: hc}
			if tr == "sse" {
				ct = &mcp.SSEClientTransport{Endpoint: srv.url, HTTPClient: hc}
			}
			cs, err := newTestClient(&elicitAnswer{}).Connect(ctx, ct, nil)
			if err != nil {
				cancel()
				t.Fatalf("%s: Host mcp.example.test given with --allowed-host: %v", tr, err)
			}
			if res, env := callTool(t, cs, "relavium-version", nil); res.IsError || !env.OK {
				t.Fatalf("%s: %+v", tr, env)
			}
			cs.Close()
			cancel()
			req, _ := http.NewRequest("POST", srv.url, strings.NewReader(`{}`))
			req.Host = "other.example.test"
			req.Header.Set("Authorization", "Bearer ah-token")
			if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
				t.Fatalf("%s: a Host not allowed: %v %v", tr, resp, err)
			} else {
				resp.Body.Close()
			}
			srv.stop(t)
		}
	})

	t.Run("generated token", func(t *testing.T) {
		home := t.TempDir()
		g := &serveFixture{bin: f.bin, home: home, project: f.project}
		srv := startServe(t, g, nil, "--transport", "http")
		path := filepath.Join(home, "mcp-token")
		b, err := os.ReadFile(path)
		st, _ := os.Stat(path)
		if err != nil || st.Mode().Perm() != 0o600 || len(strings.TrimSpace(string(b))) != 64 {
			t.Fatalf("token file: %v %v", err, st)
		}
		srv.stop(t)
		if out := srv.stderr(); !strings.Contains(out, "cat "+path) || strings.Contains(out, strings.TrimSpace(string(b))) {
			t.Fatalf("stderr must name the file and never print the token: %q", out)
		}
	})

	t.Run("non-loopback bind refused before anything", func(t *testing.T) {
		home := t.TempDir()
		cmd := exec.Command(f.bin, "mcp", "serve", "--transport", "http", "--host", "0.0.0.0", "--port", "0", "--project", f.project, "--json")
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "RELAVIUM_HOME=" + home}
		out, err := cmd.Output()
		var ee *exec.ExitError
		if !asExitError(err, &ee) || ee.ExitCode() != cli.ExitUsage || !strings.Contains(string(out), `"code":"E426"`) {
			t.Fatalf("exit %v: %s", err, out)
		}
		if _, err := os.Stat(filepath.Join(home, "mcp-token")); !os.IsNotExist(err) {
			t.Fatal("a refused start wrote a token file")
		}
	})
}

func asExitError(err error, target **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	if ok {
		*target = e
	}
	return ok
}

// bearer adds the machine token to every request.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// hostRewrite sends every request with this Host header, as a reverse
// proxy that keeps the public name would.
type hostRewrite struct {
	host string
	base http.RoundTripper
}

func (h hostRewrite) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Host = h.host
	return h.base.RoundTrip(r)
}

// serveProc is a running `relavium mcp serve` on sse or http.
type serveProc struct {
	cmd  *exec.Cmd
	url  string
	mu   sync.Mutex
	errb strings.Builder
	done chan struct{}
}

func (s *serveProc) stderr() string { s.mu.Lock(); defer s.mu.Unlock(); return s.errb.String() }

var listening = regexp.MustCompile(`listening on (http://\S+)`)

func startServe(t *testing.T, f *serveFixture, env []string, args ...string) *serveProc {
	t.Helper()
	cmd := exec.Command(f.bin, append([]string{"mcp", "serve", "--port", "0", "--project", f.project}, args...)...)
	cmd.Env = f.env(env...)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &serveProc{cmd: cmd, done: make(chan struct{})}
	urlc := make(chan string, 1)
	go func() {
		defer close(s.done)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			s.mu.Lock()
			s.errb.WriteString(line + "\n")
			s.mu.Unlock()
			if m := listening.FindStringSubmatch(line); m != nil {
				select {
				case urlc <- m[1]:
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, pipe)
	}()
	t.Cleanup(func() { s.stop(t) })
	select {
	case s.url = <-urlc:
	case <-s.done:
		t.Fatalf("serve exited: %s", s.stderr())
	case <-time.After(20 * time.Second):
		t.Fatalf("serve did not start: %s", s.stderr())
	}
	return s
}

func (s *serveProc) stop(t *testing.T) {
	if s.cmd.ProcessState != nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
		t.Errorf("serve did not stop on SIGTERM")
	}
	_ = s.cmd.Wait()
}
