package invoke

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// declareDemo declares server "demo" as cmd args (stdio) and returns the
// --allow-mcp-stdio flags its consent needs.
func (e *mcpE2E) declareStdio(t *testing.T, name, command string, args ...string) []string {
	t.Helper()
	a, _ := json.Marshal(args)
	cfg := fmt.Sprintf("[[mcp_servers]]\nname = %q\ntransport = \"stdio\"\ncommand = %q\nargs = %s\n", name, command, a)
	if err := os.WriteFile(filepath.Join(e.project, ".relavium", "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	r := e.run(t, nil, "mcp", "ls", "--json")
	return allowFlags(r.pendingDigests(t))
}

type lsTool struct {
	Name, Description, Digest string
	Annotations               map[string]any
}

func (e *mcpE2E) lsTools(t *testing.T, extra ...string) []lsTool {
	t.Helper()
	r := e.run(t, nil, append([]string{"mcp", "ls", "--json"}, extra...)...)
	var env struct {
		Data struct{ Tools []lsTool } `json:"data"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &env) != nil || len(env.Data.Tools) == 0 {
		t.Fatalf("ls: %d %s %s", r.code, r.stdout, r.stderr)
	}
	return env.Data.Tools
}

// Record → replay → mcp ls / mcp call: the replayed demo server offers the
// same tools (same definitions, same digests) and gives the same result as
// the live one; an unrecorded request is a JSON-RPC error naming E951;
// `mcp check --against` finds no difference between the live server and
// its recording; the recording holds both directions, paired, timed.
func TestRecordReplayRoundTrip(t *testing.T) {
	e := newMCPE2E(t)
	allowLive := e.declareStdio(t, "demo", e.bin, "demo-server")
	live := e.lsTools(t, allowLive...)
	rec := filepath.Join(t.TempDir(), "demo.ndjson")
	call := []string{"mcp", "call", "mcp_demo_echo", "message=hello, replay", "--json", "--yes"}
	r := e.run(t, nil, append(append([]string{"--record", rec}, call...), allowLive...)...)
	if r.code != 0 {
		t.Fatalf("recorded call: %d %s %s", r.code, r.stdout, r.stderr)
	}
	liveResult := r.env["data"].(map[string]any)["result"] // duration_ms is the call's own

	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	var methods []string
	for line := range strings.Lines(string(data)) {
		var rc struct {
			Dir, Kind, Method string
			RTT               int64 `json:"rtt_us"`
			Size              int
		}
		if err := json.Unmarshal([]byte(line), &rc); err != nil || rc.Size == 0 {
			t.Fatalf("record %q: %v", line, err)
		}
		if rc.Kind == "response" && (rc.Method == "" || rc.Dir != "recv") {
			t.Errorf("an unpaired response: %s", line)
		}
		methods = append(methods, rc.Dir+" "+rc.Kind+" "+rc.Method)
	}
	for _, want := range []string{"send request initialize", "recv response initialize", "send request tools/list", "recv response tools/list", "send request tools/call", "recv response tools/call"} {
		if !slices.Contains(methods, want) {
			t.Errorf("the recording lacks %q: %v", want, methods)
		}
	}

	allowReplay := e.declareStdio(t, "demo", e.bin, "replay", rec)
	replayed := e.lsTools(t, allowReplay...)
	if len(replayed) != len(live) {
		t.Fatalf("replay offers %d tools, live %d", len(replayed), len(live))
	}
	for i := range live {
		if live[i].Name != replayed[i].Name || live[i].Digest != replayed[i].Digest || live[i].Description != replayed[i].Description {
			t.Errorf("tool %d: live %+v, replayed %+v", i, live[i], replayed[i])
		}
	}
	r = e.run(t, nil, append(call, allowReplay...)...)
	if r.code != 0 {
		t.Fatalf("replayed call: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if a, b := fmt.Sprint(liveResult), fmt.Sprint(r.env["data"].(map[string]any)["result"]); a != b || !strings.Contains(a, "hello, replay") {
		t.Errorf("replayed result %s, live %s", b, a)
	}
	r = e.run(t, nil, append([]string{"mcp", "call", "mcp_demo_echo", "message=never recorded", "--json", "--yes"}, allowReplay...)...)
	if r.code == 0 || !strings.Contains(r.stdout, "E951") || !strings.Contains(r.stdout, "tools/call") {
		t.Errorf("unrecorded call: %d %s", r.code, r.stdout)
	}

	// Over Streamable HTTP too.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const replayToken = "replay-bearer-0123456789"
	srv := e.cmd(ctx, "replay", rec, "--transport", "http", "--port", "0")
	srv.Env = append(srv.Env, "RELAVIUM_MCP_TOKEN="+replayToken)
	stderr, _ := srv.StderrPipe()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); _ = srv.Wait() }()
	line, _ := bufio.NewReader(stderr).ReadString('\n')
	_, url, ok := strings.Cut(strings.TrimSpace(line), "listening on ")
	url, how, _ := strings.Cut(url, " ")
	if !ok || !strings.Contains(how, "RELAVIUM_MCP_TOKEN") {
		t.Fatalf("replay --transport http said %q", line)
	}
	recHTTP := filepath.Join(t.TempDir(), "http.ndjson")
	overHTTP := e.lsTools(t, "--record", recHTTP, "--url", url, "--allow-local-endpoint", "--header", "Authorization: Bearer "+replayToken)
	// mcp serve's door: no bearer token 401 (E426), a foreign Host or
	// Origin 403 (E433, DNS rebinding), before anything is answered.
	for _, c := range []struct {
		name, auth, host, origin string
		status                   int
		code                     string
	}{
		{"no token", "", "", "", http.StatusUnauthorized, "unauthorized"},
		{"wrong token", "Bearer nope", "", "", http.StatusUnauthorized, "unauthorized"},
		{"rebinding host", "Bearer " + replayToken, "evil.example:80", "", http.StatusForbidden, "Host"},
		{"foreign origin", "Bearer " + replayToken, "", "http://evil.example", http.StatusForbidden, "Origin"},
	} {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		if c.host != "" {
			req.Host = c.host
		}
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || !strings.Contains(string(body), c.code) {
			t.Errorf("%s: %d %q, want %d", c.name, resp.StatusCode, body, c.status)
		}
	}
	if len(overHTTP) != len(live) || overHTTP[0].Description != live[0].Description {
		t.Errorf("http replay offers %d tools, live %d", len(overHTTP), len(live))
	}
	// Recorded over Streamable HTTP: the bodies, paired, no header.
	httpRec, err := os.ReadFile(recHTTP)
	if err != nil || !strings.Contains(string(httpRec), `"dir":"recv","kind":"response","method":"tools/list"`) ||
		!strings.Contains(string(httpRec), `"name":"echo"`) || strings.Contains(strings.ToLower(string(httpRec)), "mcp-session-id") {
		t.Errorf("the http recording: %v\n%.1500s", err, httpRec)
	}

	// The live server against its recording: nothing differs.
	e.declareStdio(t, "demo", e.bin, "demo-server")
	r = e.run(t, nil, append([]string{"mcp", "check", "--against", rec}, allowLive...)...)
	if r.code != 0 || !strings.Contains(r.stdout, "no drift") {
		t.Errorf("check --against: %d %s %s", r.code, r.stdout, r.stderr)
	}
}

// replay on stdio answers a garbage line, an oversized line and a line
// nested too deep as mcp serve does (a coded JSON-RPC error, id null) and
// goes on to answer the next request.
func TestReplayStdioSurvivesBadLines(t *testing.T) {
	e := newMCPE2E(t)
	allowLive := e.declareStdio(t, "demo", e.bin, "demo-server")
	rec := filepath.Join(t.TempDir(), "demo.ndjson")
	if r := e.run(t, nil, append([]string{"--record", rec, "mcp", "ls", "--json"}, allowLive...)...); r.code != 0 {
		t.Fatalf("record: %d %s", r.code, r.stderr)
	}
	in := strings.Join([]string{
		"this is not json",
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("a", 4<<20) + `"}}`,
		strings.Repeat("[", 600),
		`{"jsonrpc":"2.0","id":7,"method":"ping"}`,
	}, "\n") + "\n"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := e.cmd(ctx, "replay", rec)
	cmd.Stdin = strings.NewReader(in)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("replay ended with %v: %s", err, errb.String())
	}
	var codes []string
	answered := false
	for line := range strings.Lines(out.String()) {
		var m struct {
			ID    any `json:"id"`
			Error *struct {
				Data struct{ Code string } `json:"data"`
			} `json:"error"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not JSON-RPC: %q", line)
		}
		if m.Error != nil && m.ID == nil {
			codes = append(codes, m.Error.Data.Code)
		}
		if m.ID == float64(7) && m.Result != nil {
			answered = true
		}
	}
	if strings.Join(codes, ",") != "E428,E429,E430" || !answered {
		t.Fatalf("refusals %v, ping answered %v:\n%.2000s\n%s", codes, answered, out.String(), errb.String())
	}
}
