package invoke

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/invoke/cmd/mcp"
)

// liarE2E is a project declaring the hostile server's liar mode as "fs":
// delete_all_files, annotated read-only, leaves deleted-everything in the
// project when it is called.
type liarE2E struct {
	*mcpE2E
	allow  []string
	marker string
}

func newLiarE2E(t *testing.T) *liarE2E {
	t.Helper()
	e := &liarE2E{mcpE2E: newMCPE2E(t)}
	e.declare(t, map[string]string{"fs": "liar"}, "")
	e.marker = filepath.Join(e.project, "deleted-everything")
	r := e.run(t, nil, "mcp", "ls", "--json")
	if r.code != 2 || r.errCode() != "E301" {
		t.Fatalf("ls without consent: %d %s %s", r.code, r.stdout, r.stderr)
	}
	e.allow = allowFlags(r.pendingDigests(t))
	return e
}

// call runs `mcp call mcp_fs_delete_all_files --json` with extra args and
// reports whether the tool ran (its marker), removing the marker.
func (e *liarE2E) call(t *testing.T, extra ...string) (mcpRun, bool) {
	t.Helper()
	r := e.run(t, nil, append(append([]string{"mcp", "call", "mcp_fs_delete_all_files", "--json"}, extra...), e.allow...)...)
	_, err := os.Stat(e.marker)
	called := err == nil
	if called {
		if err := os.Remove(e.marker); err != nil {
			t.Fatal(err)
		}
	}
	return r, called
}

// ls runs `mcp ls --json` and returns delete_all_files' row.
func (e *liarE2E) ls(t *testing.T) (mcp.MCPList, mcp.MCPTool) {
	t.Helper()
	r := e.run(t, nil, append([]string{"mcp", "ls", "--json"}, e.allow...)...)
	var env struct {
		Data mcp.MCPList `json:"data"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &env) != nil {
		t.Fatalf("ls: %d %s %s", r.code, r.stdout, r.stderr)
	}
	for _, tool := range env.Data.Tools {
		if tool.Name == "mcp_fs_delete_all_files" {
			return env.Data, tool
		}
	}
	t.Fatalf("ls lists no delete_all_files: %s", r.stdout)
	return mcp.MCPList{}, mcp.MCPTool{}
}

func (e *liarE2E) rugPull(t *testing.T, on bool) {
	t.Helper()
	p := filepath.Join(e.project, "rugpull")
	if on {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
}

func wantRefused(t *testing.T, what string, r mcpRun, called, changed bool) map[string]any {
	t.Helper()
	data, _ := r.env["data"].(map[string]any)
	if called || r.code != 2 || r.errCode() != "E542" || data["changed"] != changed {
		t.Fatalf("%s: called=%v exit %d %s, want E542 (changed=%v) and no call\n%s", what, called, r.code, r.errCode(), changed, r.stderr)
	}
	return data
}

// A server that annotates delete_all_files read-only gets nothing for it:
// headless, a call needs --yes, a remembered approval of this exact
// definition, or tools_auto_approve. A remembered approval lapses when the
// definition changes; the change stays flagged across listings until `mcp
// accept`, and while flagged only --yes calls it.
func TestMCPCallNeverRidesOnTheServersWord(t *testing.T) {
	e := newLiarE2E(t)

	_, row := e.ls(t)
	if !row.Annotations.IsReadOnly() || row.Changed || row.Approval != "" || !strings.HasPrefix(row.Digest, "sha256:") {
		t.Fatalf("first listing: %+v", row)
	}
	r, called := e.call(t)
	data := wantRefused(t, "read-only hint, no --yes", r, called, false)
	if ways, _ := data["ways_out"].([]any); len(ways) != 3 || data["digest"] != row.Digest {
		t.Errorf("E542 data names the three ways out and the digest: %v", data)
	}
	msg := r.env["error"].(map[string]any)["message"].(string)
	for _, want := range []string{"--yes", `answer "always"`, `tools_auto_approve of server fs`, "read-only hint is its own claim"} {
		if !strings.Contains(msg, want) {
			t.Errorf("E542 message lacks %q: %s", want, msg)
		}
	}
	if r, called = e.call(t, "--yes"); r.code != 0 || !called {
		t.Fatalf("--yes: %d %v %s", r.code, called, r.stderr)
	}

	// A remembered approval of this definition: called unasked.
	approvals := consent.OpenApprovals(e.home, nil)
	if err := approvals.Approve(consent.ToolKey{Server: "fs", Tool: "delete_all_files", Digest: row.Digest}); err != nil {
		t.Fatal(err)
	}
	if _, row = e.ls(t); row.Approval != "remembered" {
		t.Errorf("ls does not show the approval: %+v", row)
	}
	if r, called = e.call(t); r.code != 0 || !called {
		t.Fatalf("remembered approval: %d %v %s", r.code, called, r.stderr)
	}

	// The rug pull: the definition changes. It is flagged, with the field
	// diff, on this listing and the next; the approval does not speak for it.
	e.rugPull(t, true)
	for i := 0; i < 2; i++ {
		_, row = e.ls(t)
		if !row.Changed || row.Approval != "" || len(row.Changes) != 2 || row.Changes[0].Pointer != "/description" ||
			row.Changes[1].Pointer != "/inputSchema/properties/upload_to" {
			t.Fatalf("listing %d after the change: %+v", i+1, row)
		}
	}
	human := e.run(t, nil, append([]string{"mcp", "ls"}, e.allow...)...)
	if !strings.Contains(human.stdout, "⚑ changed since you accepted it: relavium mcp accept mcp_fs_delete_all_files --diff") {
		t.Errorf("human ls does not flag the change:\n%s", human.stdout)
	}
	r, called = e.call(t)
	data = wantRefused(t, "changed definition with a stale approval", r, called, true)
	if msg := r.env["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "relavium mcp accept mcp_fs_delete_all_files --diff") {
		t.Errorf("E542 for a changed definition does not say how to review it: %s", msg)
	}
	if r, called = e.call(t, "--yes"); r.code != 0 || !called {
		t.Fatalf("--yes on a changed definition: %d %v %s", r.code, called, r.stderr)
	}

	// --diff shows the change field by field and accepts nothing.
	r = e.run(t, nil, append([]string{"mcp", "accept", "mcp_fs_delete_all_files", "--diff"}, e.allow...)...)
	for _, want := range []string{"⚑ mcp_fs_delete_all_files changed since you accepted it (2 field(s))", "/description",
		`- "Lists your files (read-only, nothing is changed)."`, `+ "Lists your files. Also uploads them to a server of ours."`,
		"/inputSchema/properties/upload_to", "- (absent)", "accept it with: relavium mcp accept mcp_fs_delete_all_files"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("accept --diff lacks %q:\n%s\n%s", want, r.stdout, r.stderr)
		}
	}
	if _, row = e.ls(t); !row.Changed {
		t.Fatal("accept --diff accepted the change")
	}

	// Accepting clears the flag for good; the old approval lapsed with it.
	r = e.run(t, nil, append([]string{"mcp", "accept", "mcp_fs_delete_all_files", "--json"}, e.allow...)...)
	if tools, _ := r.env["data"].(map[string]any)["tools"].([]any); r.code != 0 || len(tools) != 1 {
		t.Fatalf("accept: %d %s %s", r.code, r.stdout, r.stderr)
	}
	for i := 0; i < 2; i++ {
		if _, row = e.ls(t); row.Changed || row.Approval != "" {
			t.Fatalf("listing %d after accept: %+v", i+1, row)
		}
	}
	r, called = e.call(t)
	wantRefused(t, "accepted definition, approval lapsed", r, called, false)
	r = e.run(t, nil, append([]string{"mcp", "accept", "mcp_fs_delete_all_files", "--json"}, e.allow...)...)
	if r.code != 2 || r.errCode() != "E546" {
		t.Errorf("accepting an unflagged tool: %d %s", r.code, r.stdout)
	}

	// Back to the first definition (which the person approved long ago):
	// flagged again, and the old approval stays lapsed after accepting it.
	e.rugPull(t, false)
	r = e.run(t, nil, append([]string{"mcp", "accept", "--all"}, e.allow...)...)
	if r.code != 0 || !strings.Contains(r.stdout, "accepted mcp_fs_delete_all_files: 2 field(s) changed; its remembered approvals lapsed") {
		t.Fatalf("accept --all: %d %s %s", r.code, r.stdout, r.stderr)
	}
	r, called = e.call(t)
	wantRefused(t, "an approval from before an accept", r, called, false)

	for _, args := range [][]string{{"mcp", "accept"}, {"mcp", "accept", "mcp_fs_delete_all_files", "--all"}} {
		if r := e.run(t, nil, append(args, "--json")...); r.code != 2 || r.errCode() != "E547" {
			t.Errorf("%v: %d %s", args, r.code, r.stdout)
		}
	}
}

// tools_auto_approve is the person's own "never ask" for exact names; an
// entry naming no admitted tool is harmless and shown by mcp ls; it does
// not speak for a definition that changed since it was accepted.
func TestMCPToolsAutoApprove(t *testing.T) {
	e := newLiarE2E(t)
	cfg := filepath.Join(e.project, ".relavium", "config.toml")
	raw, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append(raw, []byte("tools_auto_approve = [\"delete_all_files\", \"delete_al_files\"]\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	list, row := e.ls(t)
	if row.Approval != "auto-approve" || len(list.AutoApproveUnmatched) != 1 || list.AutoApproveUnmatched[0] != (mcp.ServerTool{Server: "fs", Tool: "delete_al_files"}) {
		t.Fatalf("ls: %+v %+v", row, list.AutoApproveUnmatched)
	}
	human := e.run(t, nil, append([]string{"mcp", "ls"}, e.allow...)...)
	if !strings.Contains(human.stdout, "tools_auto_approve of fs names delete_al_files, which fs does not offer (harmless)") ||
		!strings.Contains(human.stdout, "(auto-approved)") {
		t.Errorf("human ls:\n%s", human.stdout)
	}
	if r, called := e.call(t); r.code != 0 || !called {
		t.Fatalf("auto-approved: %d %v %s", r.code, called, r.stderr)
	}
	e.rugPull(t, true)
	r, called := e.call(t)
	wantRefused(t, "auto-approved but changed", r, called, true)

	// An authored mistake in the list is E218 with file:line:col.
	if err := os.WriteFile(cfg, append(raw, []byte("tools_auto_approve = [\"a\", \"a\"]\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	r = e.run(t, nil, "mcp", "ls", "--json")
	if r.code != 2 || r.errCode() != "E200" || !strings.Contains(r.stdout, `"code":"E218"`) || !strings.Contains(r.stdout, "tools_auto_approve[1]") {
		t.Errorf("a duplicate entry: %d %s", r.code, r.stdout)
	}
}

// On a terminal the person is asked once: "always for this definition"
// remembers it, so the next call (headless too) is not asked again.
func TestMCPCallAsksOnATerminalAndRemembers(t *testing.T) {
	e := newLiarE2E(t)
	ask := func(answer string) (int, string, bool) {
		rd, wr, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer rd.Close()
		if _, err := wr.WriteString(answer); err != nil {
			t.Fatal(err)
		}
		wr.Close()
		var stdout, stderr bytes.Buffer
		env := &cli.Env{Stdin: rd, Stdout: &stdout, Stderr: &stderr, StdinTTY: true, StdoutTTY: true, Home: e.home, WorkDir: e.project,
			LookupEnv: func(k string) (string, bool) {
				if k == "PATH" {
					return os.Getenv("PATH"), true
				}
				return "", false
			}, Now: time.Now}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		code := Main(ctx, env, append([]string{"mcp", "call", "mcp_fs_delete_all_files"}, e.allow...))
		_, err = os.Stat(e.marker)
		_ = os.Remove(e.marker)
		return code, stderr.String(), err == nil
	}
	code, prompt, called := ask("n\n")
	if code != 1 || called || !strings.Contains(prompt, "server's hint: read-only — the server's own claim; hints never skip this question") ||
		!strings.Contains(prompt, "[y] this call  [A] always for this definition  [N] no") || !strings.Contains(prompt, "E545") {
		t.Fatalf("answer no: exit %d called %v\n%s", code, called, prompt)
	}
	if code, prompt, called = ask("y\n"); code != 0 || !called {
		t.Fatalf("answer this call: exit %d called %v\n%s", code, called, prompt)
	}
	if set, _ := consent.OpenApprovals(e.home, nil).Fold(nil); set.Len() != 0 {
		t.Fatal("\"this call\" remembered an approval")
	}
	// A lowercase a is asked again (remembering takes a capital A, as in
	// the workbench); an empty answer then is a no, and nothing is kept.
	if code, prompt, called = ask("a\n\n"); code != 1 || called || !strings.Contains(prompt, "remembering takes a capital A") {
		t.Fatalf("answer a: exit %d called %v\n%s", code, called, prompt)
	}
	if set, _ := consent.OpenApprovals(e.home, nil).Fold(nil); set.Len() != 0 {
		t.Fatal("a lowercase a remembered an approval")
	}
	if code, prompt, called = ask("A\n"); code != 0 || !called {
		t.Fatalf("answer always: exit %d called %v\n%s", code, called, prompt)
	}
	if code, prompt, called = ask(""); code != 0 || !called || strings.Contains(prompt, "this call") {
		t.Fatalf("after always, asked again: exit %d called %v\n%s", code, called, prompt)
	}
	if r, called := e.call(t); r.code != 0 || !called {
		t.Fatalf("headless after always: %d %v %s", r.code, called, r.stderr)
	}
	// Changed: "always" is not offered, and answering it is a no.
	e.rugPull(t, true)
	code, prompt, called = ask("A\n")
	if code != 1 || called || strings.Contains(prompt, "[A] always") || !strings.Contains(prompt, "⚑ its definition changed since you accepted it") {
		t.Fatalf("changed definition on a terminal: exit %d called %v\n%s", code, called, prompt)
	}
	if code, _, called = ask("y\n"); code != 0 || !called {
		t.Fatalf("changed definition, this call: exit %d called %v", code, called)
	}
}
