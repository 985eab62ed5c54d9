package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/failure"
)

// seenHeaders is a loopback MCP server that keeps the headers of every
// request it answered.
type seenHeaders struct {
	mu   sync.Mutex
	seen []http.Header
}

func (s *seenHeaders) values(name string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, h := range s.seen {
		out = append(out, h.Values(name)...)
	}
	return out
}

func headerServer(t *testing.T) (*httptest.Server, *seenHeaders) {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{HasTools: true})
	seen := &seenHeaders{}
	inner := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.mu.Lock()
		seen.seen = append(seen.seen, r.Header.Clone())
		seen.mu.Unlock()
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(origin.Close)
	return origin, seen
}

// helperFixture is a project directory holding a shell script helper, the
// marker file it appends one line to per run, and the session options
// whose environment names the marker (HELPER_MARK) and a variable no
// helper may see (LEAKED_TOKEN).
type helperFixture struct {
	dir, script, mark, envDump string
	opts                       Options
}

func newHelperFixture(t *testing.T, body string) *helperFixture {
	t.Helper()
	f := &helperFixture{dir: t.TempDir()}
	f.script = filepath.Join(f.dir, "helper.sh")
	f.mark = filepath.Join(f.dir, "ran")
	f.envDump = filepath.Join(f.dir, "env")
	script := "#!/bin/sh\necho \"$CLAUDE_CODE_MCP_SERVER_NAME $CLAUDE_CODE_MCP_SERVER_URL\" >> \"$1\"\nenv > \"$1.env\"\n" + body + "\n"
	if err := os.WriteFile(f.script, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	environ := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + f.dir, "HELPER_MARK=" + f.mark, "LEAKED_TOKEN=must-not-reach-the-helper"}
	f.opts = testOptions(t)
	f.opts.Environ = environ
	f.opts.LookupEnv = func(k string) (string, bool) {
		for _, kv := range environ {
			if name, v, _ := strings.Cut(kv, "="); name == k {
				return v, true
			}
		}
		return "", false
	}
	return f
}

func (f *helperFixture) server(name, url string) config.Server {
	return config.Server{Name: name, Transport: host.TransportHTTP, URL: url, AllowLocalEndpoint: true,
		HeadersHelper: `"` + f.script + `" "{{env.HELPER_MARK}}"`, HelperDir: f.dir,
		Headers: []config.Header{{Name: "X-Static", Value: "static-value"}, {Name: "X-Kept", Value: "kept-value"}},
		Pos:     config.Pos{File: filepath.Join(f.dir, ".mcp.json"), Line: 3, Col: 5}}
}

func (f *helperFixture) runs(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(f.mark)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

const helperPrints = `printf '{"X-Api-Key": "helper-secret-value", "X-Static": "from-helper"}'`

// Headless, with no approval, a server with a headers helper is refused
// before anything runs: E301 (a local program waits for consent) with the
// helper in the pending list (its line, shell, cwd, origin, digest and the
// --allow-mcp-stdio flag); the helper never ran and nothing was dialled.
func TestHeadersHelperHeadlessWithoutApprovalRunsNothing(t *testing.T) {
	origin, seen := headerServer(t)
	f := newHelperFixture(t, helperPrints)
	_, err := New(f.opts, []config.Server{f.server("hh", origin.URL+"/mcp")}).Start(context.Background(), nil)
	var pe *consent.PendingError
	if !errors.As(err, &pe) || pe.Code() != consent.CodeConsentRequired || len(pe.Bindings) != 1 || pe.Bindings[0].Binding.Helper == nil {
		t.Fatalf("start = %v, want E301 naming the helper", err)
	}
	if fault.ExitOf(err) != fault.ExitUsage {
		t.Fatalf("exit %d, want 2", fault.ExitOf(err))
	}
	data, _ := json.Marshal(pe.ErrorData())
	b := pe.Bindings[0].Binding
	for _, want := range []string{`"headers_helpers"`, b.Digest, `"allow_flag":"--allow-mcp-stdio ` + b.Digest, "HELPER_MARK", f.dir} {
		if !strings.Contains(string(data), want) {
			t.Errorf("pending data lacks %q: %s", want, data)
		}
	}
	var human strings.Builder
	if err := pe.WriteHuman(&human); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(human.String(), "--allow-mcp-stdio "+b.Digest) || !strings.Contains(human.String(), "not sandboxed") {
		t.Errorf("the human text does not name the way out:\n%s", human.String())
	}
	if runs := f.runs(t); runs != nil || len(seen.values("X-Static")) != 0 {
		t.Fatalf("the helper ran (%q) or the server was dialled before approval", runs)
	}
}

// Approved with --allow-mcp-stdio DIGEST, the helper runs once per
// connect (a reconnect runs it again): its headers reach the server, a
// helper's header overrides the static one of the same name, the static
// others are kept; it sees only the inherited variables, the variable its
// line names and the two CLAUDE_CODE_MCP_SERVER_* ones; its value never
// reaches an event or an error.
func TestHeadersHelperApprovedRunsAtEachConnect(t *testing.T) {
	origin, seen := headerServer(t)
	f := newHelperFixture(t, helperPrints)
	srv := f.server("hh", origin.URL+"/mcp")
	b := BindingsOf([]config.Server{srv}, f.opts.LookupEnv)
	if len(b) != 1 || b[0].Helper == nil {
		t.Fatalf("bindings = %+v", b)
	}
	f.opts.AllowStdio = []string{b[0].Digest}
	rec := &recorder{}
	f.opts.Events = rec
	sess := New(f.opts, []config.Server{srv})
	lv, err := sess.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer lv.Close()
	if err := lv.Connect(context.Background(), "hh"); err != nil {
		t.Fatalf("connect: %v", err)
	}
	if got := seen.values("X-Api-Key"); len(got) == 0 || got[0] != "helper-secret-value" {
		t.Fatalf("X-Api-Key seen = %q", got)
	}
	if got := seen.values("X-Static"); len(got) == 0 || got[0] != "from-helper" {
		t.Fatalf("X-Static seen = %q, want the helper's value over the static one", got)
	}
	if got := seen.values("X-Kept"); len(got) == 0 || got[0] != "kept-value" {
		t.Fatalf("X-Kept seen = %q", got)
	}
	if runs := f.runs(t); len(runs) != 1 || runs[0] != "hh "+origin.URL+"/mcp" {
		t.Fatalf("runs after one connect = %q", runs)
	}
	env, err := os.ReadFile(f.mark + ".env")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(env)), "\n") {
		name, _, _ := strings.Cut(line, "=")
		switch name {
		case "PATH", "HOME", "HELPER_MARK", "CLAUDE_CODE_MCP_SERVER_NAME", "CLAUDE_CODE_MCP_SERVER_URL", "PWD", "SHLVL", "_", "OLDPWD":
		default:
			t.Errorf("the helper saw %s", line)
		}
	}
	if err := lv.Disconnect("hh"); err != nil {
		t.Fatal(err)
	}
	if err := lv.Connect(context.Background(), "hh"); err != nil {
		t.Fatalf("reconnect: %v", err)
	}
	if runs := f.runs(t); len(runs) != 2 {
		t.Fatalf("runs after two connects = %q", runs)
	}
	if ev, _ := json.Marshal(rec.snapshot()); strings.Contains(string(ev), "helper-secret-value") {
		t.Fatal("a helper's value reached an event")
	}
	if got := sess.Redactor().Text("x helper-secret-value y"); strings.Contains(got, "helper-secret-value") {
		t.Fatalf("the redactor does not hold the helper's value: %q", got)
	}
}

// A helper that does not answer as it must fails its server alone, with a
// coded error a person can act on and never the value; a process the
// helper left running is gone once the connect returned.
func TestHeadersHelperFailuresFailTheServerAlone(t *testing.T) {
	origin, seen := headerServer(t)
	cases := []struct {
		name, body string
		code       fault.Code
		says       string
	}{
		{"notjson", `printf 'Bearer helper-secret-value'`, failure.CodeHelperOutput, "not a JSON object"},
		{"toobig", `printf '{"X-A": "'; head -c 1048576 /dev/zero | tr '\0' a; printf 'helper-secret-value"}'`, failure.CodeHelperOutput, "more than 64 KiB"},
		{"cr", `printf '{"X-A": "helper-secret-value\\r\\nX-Evil: 1"}'`, failure.CodeHelperOutput, "cannot be sent"},
		{"number", `printf '{"X-A": 12345678}'`, failure.CodeHelperOutput, "not a string"},
		{"reserved", `printf '{"Host": "helper-secret-value"}'`, failure.CodeHelperOutput, "names Host, a header relavium may not send"},
		{"exit", `echo "no token cached: sign in first" >&2; exit 3`, failure.CodeHelperFailed, "exit status 3); run it yourself to see why no token cached: sign in first"},
		{"stdout closed, still running", `printf '{"X-A": "helper-secret-value"}'; exec >&-; exec sleep 60`, failure.CodeHelperFailed, "did not answer within"},
		{"timeout", `sleep 60 > /dev/null 2>&1 & echo $! > "$1.pid"; exec sleep 60`, failure.CodeHelperFailed, "did not answer within"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newHelperFixture(t, c.body)
			f.opts.HelperTimeout = 500 * time.Millisecond
			bad, good := f.server("bad", origin.URL+"/mcp"), f.server("good", origin.URL+"/mcp")
			good.HeadersHelper = ""
			for _, b := range BindingsOf([]config.Server{bad}, f.opts.LookupEnv) {
				f.opts.AllowStdio = append(f.opts.AllowStdio, b.Digest)
			}
			rec := &recorder{}
			f.opts.Events = rec
			sess := New(f.opts, []config.Server{bad, good})
			lv, err := sess.Open(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer lv.Close()
			err = lv.Connect(context.Background(), "bad")
			if codeOf(err) != c.code {
				t.Fatalf("connect = %v, want %s", err, c.code)
			}
			var fe *failure.Error
			errors.As(err, &fe)
			shown := err.Error() + " " + fe.StderrTail
			if ev, _ := json.Marshal(rec.snapshot()); strings.Contains(shown+string(ev), "helper-secret-value") {
				t.Fatalf("the value was shown: %s / %s", shown, ev)
			}
			if !strings.Contains(shown, c.says) {
				t.Fatalf("the error %q does not say %q", shown, c.says)
			}
			if err := lv.Connect(context.Background(), "good"); err != nil {
				t.Fatalf("the other server: %v", err)
			}
			if pid, err := os.ReadFile(f.mark + ".pid"); err == nil {
				n, _ := strconv.Atoi(strings.TrimSpace(string(pid)))
				if n <= 0 || syscall.Kill(n, 0) == nil {
					t.Fatalf("the helper's background process %d outlived it", n)
				}
			}
		})
	}
	_ = seen
}

// A remembered helper is asked about again when its line or the origin
// its headers go to changes.
func TestHeadersHelperChangedLineOrURLAsksAgain(t *testing.T) {
	origin, _ := headerServer(t)
	f := newHelperFixture(t, helperPrints)
	srv := f.server("hh", origin.URL+"/mcp")
	sess := New(f.opts, []config.Server{srv})
	decs, err := sess.Bindings()
	if err != nil || len(decs) != 1 || decs[0].State != consent.NeedsConsent {
		t.Fatalf("first decision = %+v, %v", decs, err)
	}
	if err := sess.RecordBinding(decs[0].Binding, ApproveRemember); err != nil {
		t.Fatal(err)
	}
	state := func(s config.Server) consent.State {
		t.Helper()
		ds, err := New(f.opts, []config.Server{s}).Bindings()
		if err != nil || len(ds) != 1 {
			t.Fatalf("decisions = %+v, %v", ds, err)
		}
		return ds[0].State
	}
	if st := state(srv); st != consent.Approved {
		t.Fatalf("the remembered helper is %s", st)
	}
	line := srv
	line.HeadersHelper += " --other"
	moved := srv
	moved.URL = fmt.Sprintf("http://127.0.0.1:%d/mcp", 1+origin.Listener.Addr().(*net.TCPAddr).Port)
	for _, s := range []config.Server{line, moved} {
		if st := state(s); st != consent.NeedsConsent {
			t.Fatalf("a changed helper (%q at %s) is %s", s.HeadersHelper, s.URL, st)
		}
	}
}

func (r *recorder) snapshot() []engine.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]engine.Event(nil), r.events...)
}
