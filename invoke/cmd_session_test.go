package invoke

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/internal/testbin"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/invoke/cmd/mcp"
	sessioncmd "github.com/relavium/relavium/invoke/cmd/session"
	"github.com/relavium/relavium/session"
)

// sessionEnv is an Env for in-process Main with a temp home; exe is the
// built binary (the demo server is the binary itself).
func sessionEnv(t *testing.T, exe string, tty bool, extra ...string) (*cli.Env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	var stdout, stderr bytes.Buffer
	vars := map[string]string{"PATH": os.Getenv("PATH")}
	for i := 0; i+1 < len(extra); i += 2 {
		vars[extra[i]] = extra[i+1]
	}
	return &cli.Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, StdinTTY: tty, StdoutTTY: tty,
		LookupEnv: func(k string) (string, bool) { v, ok := vars[k]; return v, ok },
		Environ:   []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}, Home: home, WorkDir: dir, Executable: exe, Version: "test",
		Now: time.Now}, &stdout, &stderr
}

func TestSessionOnATTYOpensTheTUI(t *testing.T) {
	for _, c := range []struct {
		args []string
		demo bool
	}{{nil, false}, {[]string{"session"}, false}, {[]string{"demo"}, true}} {
		env, _, _ := sessionEnv(t, "/bin/true", true)
		var got []bool
		env.Session = func(_ context.Context, wb session.Workbench) error {
			got = append(got, wb.Demo)
			return nil
		}
		if code := Main(context.Background(), env, c.args); code != 0 || len(got) != 1 || got[0] != c.demo {
			t.Fatalf("relavium %v: exit %d, session calls %v", c.args, code, got)
		}
	}
}

func TestSessionWithNoOneToAskPrintsTheInventory(t *testing.T) {
	bin := testbin.Relavium(t)
	// CI set: no one can be asked, even on a TTY; the TUI is not opened and
	// the demo's consent is missing: exit 2 with its digest.
	env, stdout, _ := sessionEnv(t, bin, true, "CI", "true")
	env.Session = func(context.Context, session.Workbench) error { t.Fatal("the TUI opened under CI"); return nil }
	if code := Main(context.Background(), env, []string{"demo", "--json"}); code != cli.ExitUsage {
		t.Fatalf("demo --json without consent: exit %d\n%s", code, stdout)
	}
	var env1 struct {
		OK    bool `json:"ok"`
		Error struct {
			Code fault.Code `json:"code"`
		} `json:"error"`
		Data consent.PendingData `json:"data"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &env1); err != nil || env1.Error.Code != consent.CodeConsentRequired || len(env1.Data.Pending) != 1 {
		t.Fatalf("envelope: %v\n%s", err, stdout)
	}
	digest := env1.Data.Pending[0].Digest
	if env1.Data.Pending[0].Server != "demo" || env1.Data.Pending[0].Cwd != filepath.Dir(bin) {
		t.Fatalf("pending = %+v", env1.Data.Pending[0])
	}

	env, stdout, _ = sessionEnv(t, bin, false)
	if code := Main(context.Background(), env, []string{"demo", "--json", "--allow-mcp-stdio", digest}); code != 0 {
		t.Fatalf("demo --json --allow-mcp-stdio: exit %d\n%s", code, stdout)
	}
	var list struct {
		OK   bool        `json:"ok"`
		Data mcp.MCPList `json:"data"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &list); err != nil || !list.OK || len(list.Data.Servers) != 1 ||
		list.Data.Servers[0].State != engine.StateClosed && list.Data.Servers[0].State != engine.StateReady || len(list.Data.Tools) < 10 || len(list.Data.Skipped) == 0 {
		t.Fatalf("inventory: %v\n%s", err, stdout)
	}
}

func TestSessionDecidesOnceAndConnectsOneServerWithoutPrompting(t *testing.T) {
	bin := testbin.Relavium(t)
	env, _, stderr := sessionEnv(t, bin, true)
	inv, err := Commands().Parse(env, []string{"demo"})
	if err != nil {
		t.Fatal(err)
	}
	wb, err := sessioncmd.Workbench(inv, true)
	if err != nil {
		t.Fatal(err)
	}
	s := wb.Session
	if wb.Agent != "demo" || !wb.Demo || len(s.Servers()) != 1 || wb.ConfigTheme != "" {
		t.Fatalf("workbench = %+v", wb)
	}
	ds, failed, err := s.Decide()
	if err != nil || len(failed) != 0 || len(ds) != 1 || ds[0].State != consent.NeedsConsent {
		t.Fatalf("decide = %+v %v %v", ds, failed, err)
	}
	ctx := context.Background()
	var mu sync.Mutex
	var states []string
	em := engine.EmitterFunc(func(e engine.Event) {
		if d, ok := e.Data.(engine.ServerData); ok {
			mu.Lock()
			states = append(states, d.State)
			mu.Unlock()
		}
	})
	lv, err := s.Using(em, nil).Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer lv.Close()
	// Still needing consent: the connect fails (E301) and nothing is asked
	// in the terminal, although a TTY is there.
	err = lv.Connect(ctx, "demo")
	var pe *consent.PendingError
	if !errors.As(err, &pe) {
		t.Fatalf("connect before consent: %v", err)
	}
	if stderr.Len() != 0 {
		t.Fatalf("the session prompted in the terminal: %q", stderr)
	}
	// Approve once through the session's decider: it holds for the connect.
	s.Decider().ApproveOnce(ds[0].Server.Digest)
	mu.Lock()
	states = nil
	mu.Unlock()
	if err := lv.Connect(ctx, "demo"); err != nil {
		t.Fatalf("connect after approve once: %v", err)
	}
	h := lv.Host()
	if len(h.Tools()) < 10 {
		t.Fatalf("tools: %d", len(h.Tools()))
	}
	pids := h.PIDs()
	if err := lv.Disconnect("demo"); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat")); err == nil && !bytes.Contains(b, []byte(") Z ")) {
			t.Fatalf("the demo server (pid %d) outlived Disconnect", pid)
		}
	}
	if len(h.Tools()) != 0 {
		t.Fatalf("a disconnected server's tools stay: %d", len(h.Tools()))
	}
	mu.Lock()
	got := strings.Join(states, ",")
	mu.Unlock()
	if !strings.Contains(got, "connecting") || !strings.Contains(got, "ready") || !strings.HasSuffix(got, "closed") {
		t.Fatalf("states = %s", got)
	}
	// A store that already holds a grant approves on its own.
	r, err := s.Resolved("demo")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Decider().Remember(r); err != nil {
		t.Fatal(err)
	}
	wb2, _ := sessioncmd.Workbench(inv, true)
	if ds, _, _ := wb2.Session.Decide(); ds[0].State != consent.Approved || ds[0].Why != consent.ByGrant {
		t.Fatalf("after remember: %+v", ds[0])
	}
}
