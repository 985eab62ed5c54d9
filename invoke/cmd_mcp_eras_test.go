package invoke

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/invoke/cmd/mcp"
)

// lsData is the data of an mcp ls --json envelope.
func lsData(t *testing.T, r mcpRun) mcp.MCPList {
	t.Helper()
	var ls struct {
		Data mcp.MCPList `json:"data"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &ls); err != nil {
		t.Fatalf("ls: %v\n%s\n%s", err, r.stdout, r.stderr)
	}
	return ls.Data
}

// Both eras against the demo server over stdio: the era asked for (by
// --protocol, or by the declaration's protocol) is the era negotiated and
// shown; elicitation and logs work in both, with the same result.
func TestProtocolErasAgainstTheDemoServer(t *testing.T) {
	e := newMCPE2E(t)
	decl := fmt.Sprintf("[[mcp_servers]]\nname = \"demo\"\ntransport = \"stdio\"\ncommand = %q\nargs = [\"demo-server\"]\n", e.bin)
	e.declare(t, nil, decl)
	allow := allowFlags(e.run(t, nil, "mcp", "ls", "--json").pendingDigests(t))

	var answers []string
	for _, tc := range []struct{ flag, want, era string }{
		{"", "2025-11-25", "legacy"},
		{"2025-11-25", "2025-11-25", "legacy"},
		{"2026-07-28", "2026-07-28", "modern"},
		{"auto", "2026-07-28", "modern"}, // stdio: discover first costs nothing
	} {
		var proto []string
		if tc.flag != "" {
			proto = []string{"--protocol", tc.flag}
		}
		r := e.run(t, nil, append(append([]string{"mcp", "ls", "--json"}, proto...), allow...)...)
		s := lsData(t, r).Servers
		if r.code != 0 || len(s) != 1 || s[0].Protocol != tc.want || s[0].Era == nil || s[0].Era.Name != tc.era || s[0].Era.Elicitation == "" {
			t.Fatalf("--protocol %q: %d %s", tc.flag, r.code, r.stdout)
		}
		if want := tc.flag; want != "" && s[0].Requested != want {
			t.Errorf("protocol_requested = %q, want %q", s[0].Requested, want)
		}
		h := e.run(t, nil, append(append([]string{"mcp", "ls"}, proto...), allow...)...)
		if !strings.Contains(h.stdout, tc.want+" "+tc.era) {
			t.Errorf("human ls lacks %q:\n%s", tc.want+" "+tc.era, h.stdout)
		}
		r = e.run(t, nil, append(append([]string{"mcp", "call", "mcp_demo_test_elicitation_sep1034_defaults", "--elicit", "defaults", "--yes"}, proto...), allow...)...)
		if r.code != 0 {
			t.Fatalf("elicitation in the %s era: %d %s %s", tc.era, r.code, r.stdout, r.stderr)
		}
		answers = append(answers, r.stdout)
		r = e.run(t, nil, append(append([]string{"mcp", "call", "mcp_demo_emit_logs", "count=4", "interval_ms=0", "--yes", "--events"}, proto...), allow...)...)
		// debug, info, notice, warning: three at relavium's level (info) or above.
		n := 0
		for _, l := range []string{"info", "notice", "warning"} {
			if strings.Contains(r.stderr, `"level":"`+l+`","logger":"relavium-demo","data":"message `) {
				n++
			}
		}
		if r.code != 0 || n != 3 || strings.Contains(r.stderr, `"level":"debug"`) {
			t.Errorf("logs in the %s era: exit %d, %d of the info, notice and warning logs\n%s", tc.era, r.code, n, r.stderr)
		}
	}
	for _, a := range answers[1:] {
		if a != answers[0] {
			t.Errorf("elicitation answered differently across eras: %q vs %q", a, answers[0])
		}
	}

	// The declaration's own protocol field.
	e.declare(t, nil, decl+"protocol = \"2026-07-28\"\n")
	r := e.run(t, nil, append([]string{"mcp", "ls", "--json"}, allow...)...)
	if s := lsData(t, r).Servers; r.code != 0 || s[0].Protocol != "2026-07-28" || s[0].Requested != "2026-07-28" {
		t.Errorf("protocol in config: %d %s", r.code, r.stdout)
	}
	e.declare(t, nil, decl+"protocol = \"2027\"\n")
	if r := e.run(t, nil, append([]string{"mcp", "ls", "--json"}, allow...)...); r.code != 2 || !strings.Contains(r.stdout, "E250") {
		t.Errorf("a bad protocol: %d %s", r.code, r.stdout)
	}
	if r := e.run(t, nil, "mcp", "ls", "--json", "--protocol", "modern"); r.code != 2 {
		t.Errorf("--protocol modern: %d %s", r.code, r.stdout)
	}
}

// Over Streamable HTTP the demo server speaks both eras at one endpoint: a
// legacy handshake gets a session, so auto stays legacy (no server/discover
// is spent on it); 2026-07-28 is served statelessly, and its elicitation
// comes back as an input request that relavium answers and retries.
func TestProtocolErasOverHTTPDemoServer(t *testing.T) {
	e := newMCPE2E(t)
	url := startDemoHTTP(t, e)
	target := []string{"--url", url, "--allow-local-endpoint", "--json"}
	r := e.run(t, nil, append([]string{"mcp", "ls", "--protocol", "auto"}, target...)...)
	if s := lsData(t, r).Servers; r.code != 0 || s[0].Protocol != "2025-11-25" || s[0].Era.Name != "legacy" || s[0].Requested != "auto" {
		t.Fatalf("auto over http: %d %s", r.code, r.stdout)
	}
	r = e.run(t, nil, append([]string{"mcp", "call", "echo", "message=hi", "--yes", "--protocol", "2025-11-25"}, target...)...)
	if r.code != 0 || !strings.Contains(r.stdout, `"text":"hi"`) {
		t.Errorf("legacy call: %d %s", r.code, r.stdout)
	}
	r = e.run(t, nil, append([]string{"mcp", "ls", "--protocol", "2026-07-28"}, target...)...)
	if s := lsData(t, r).Servers; r.code != 0 || s[0].Protocol != "2026-07-28" || s[0].Era.Name != "modern" {
		t.Fatalf("2026-07-28 over http: %d %s", r.code, r.stdout)
	}
	var answers []string
	for _, proto := range []string{"2025-11-25", "2026-07-28"} {
		r = e.run(t, nil, append([]string{"mcp", "call", "test_elicitation_sep1034_defaults", "--elicit", "defaults", "--yes", "--protocol", proto}, target...)...)
		if r.code != 0 {
			t.Fatalf("elicitation over http at %s: %d %s %s", proto, r.code, r.stdout, r.stderr)
		}
		// The answer is the result's content; its _meta is the era's own
		// (2026-07-28 servers put their serverInfo there).
		var env struct {
			Data struct {
				Result struct {
					Content json.RawMessage `json:"content"`
				} `json:"result"`
			} `json:"data"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &env); err != nil {
			t.Fatalf("elicitation at %s: %v %s", proto, err, r.stdout)
		}
		answers = append(answers, string(env.Data.Result.Content))
	}
	if answers[0] != answers[1] {
		t.Errorf("elicitation answered differently across eras: %q vs %q", answers[0], answers[1])
	}
}

var durationMS = regexp.MustCompile(`"duration_ms":\d+,`)

// startDemoHTTP runs `relavium demo-server --transport http --port 0` until
// the test ends and returns its url.
func startDemoHTTP(t *testing.T, e *mcpE2E) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := e.cmd(ctx, "demo-server", "--transport", "http", "--port", "0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cancel()
			<-done
		}
		cancel()
	})
	urls := make(chan string, 1)
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "relavium demo-server: listening on "); ok {
				urls <- u
			}
		}
		_ = cmd.Wait()
	}()
	select {
	case u := <-urls:
		return u
	case <-time.After(30 * time.Second):
		t.Fatal("the demo server printed no url")
	}
	return ""
}

// mcp ping: every declared server (or one), round-trip times, --json.
func TestMCPPingEndToEnd(t *testing.T) {
	e := newMCPE2E(t)
	e.declare(t, map[string]string{"a": "ok", "b": "ok"}, "")
	allow := allowFlags(e.run(t, nil, "mcp", "ls", "--json").pendingDigests(t))

	r := e.run(t, nil, append([]string{"mcp", "ping", "--json", "--count", "2"}, allow...)...)
	var out struct {
		Data mcp.MCPPing `json:"data"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || r.code != 0 || len(out.Data.Servers) != 2 {
		t.Fatalf("ping --json: %d %s %s", r.code, r.stdout, r.stderr)
	}
	for _, s := range out.Data.Servers {
		if len(s.RTTMS) != 2 || s.MinMS <= 0 || s.MinMS > s.AvgMS || s.AvgMS > s.MaxMS || s.ErrorCode != "" || s.Protocol != "2025-11-25" {
			t.Errorf("ping of %s: %+v", s.Server, s)
		}
	}
	r = e.run(t, nil, append([]string{"mcp", "ping", "b", "--count", "1"}, allow...)...)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "b (stdio, 2025-11-25): ") || !strings.Contains(r.stdout, " ms · min/avg/max ") || strings.Contains(r.stdout, "a (") {
		t.Errorf("ping b: %d %q %s", r.code, r.stdout, r.stderr)
	}
	r = e.run(t, nil, append([]string{"mcp", "ping", "nope", "--json"}, allow...)...)
	if r.code != 2 || r.errCode() != cli.CodePingUnknown || !strings.Contains(r.stdout, "declared: ") {
		t.Errorf("ping of an undeclared server: %d %s", r.code, r.stdout)
	}
	if r := e.run(t, nil, "mcp", "ping", "--count", "0"); r.code != 2 {
		t.Errorf("--count 0: %d %s", r.code, r.stderr)
	}
}
