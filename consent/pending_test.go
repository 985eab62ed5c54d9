package consent

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestRequire(t *testing.T) {
	home := tempHome(t)
	store := Open(home)
	old := mustResolved("gh", "/usr/bin/npx", []string{"-y", "gh@1"}, []EnvEntry{TagEnv("TOKEN", "{{secrets.gh}}")}, "/w")
	if err := store.Grant(old, now); err != nil {
		t.Fatal(err)
	}
	changed := mustResolved("gh", "/usr/bin/npx", []string{"-y", "gh@2"},
		[]EnvEntry{TagEnv("TOKEN", "{{secrets.gh}}"), TagEnv("SECRET_LITERAL", "hunter2")}, "/w")
	fresh := mustResolved("fs", "/opt/fs server", nil, nil, "/v") // no grant shares its command or cwd
	ok := fakeResolved("ok")
	d := NewDecider(store, []string{ok.Digest}, clock)
	decs, err := d.Decide([]*Resolved{changed, fresh, ok})
	if err != nil {
		t.Fatal(err)
	}
	if Require(decs, true) != nil {
		t.Fatal("Require must leave asking to the caller when someone can be asked")
	}
	err = Require(decs, false)
	var pe *PendingError
	if !errors.As(err, &pe) || pe.Code() != CodeConsentRequired || pe.ExitCode() != 2 || len(pe.Pending) != 2 {
		t.Fatalf("Require headless = %v", err)
	}

	raw, err := json.Marshal(pe.ErrorData())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "hunter2") {
		t.Fatalf("a literal env value leaked into pending data: %s", raw)
	}
	var data struct {
		Pending []struct {
			Server      string
			CommandLine string `json:"command_line"`
			Digest      string
			AllowFlag   string `json:"allow_flag"`
			Cwd         string
			Env         []map[string]string
			Previous    *struct{ Digest string }
			Diff        []Change
			DiffText    []string `json:"diff_text"`
		} `json:"pending"`
		StoreError any `json:"store_error"`
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		t.Fatal(err)
	}
	p0, p1 := data.Pending[0], data.Pending[1]
	if len(p0.Env) != 2 || p0.Env[1]["name"] != "SECRET_LITERAL" || p0.Env[1]["kind"] != "literal" || p0.Env[0]["secret"] != "gh" {
		t.Fatalf("pending[0] env = %v", p0.Env)
	}
	if p0.Server != "gh" || p0.Digest != changed.Digest || p0.Previous == nil || p0.Previous.Digest != old.Digest {
		t.Fatalf("pending[0] = %+v", p0)
	}
	wantDiff := []string{"- args[1] gh@1", "+ args[1] gh@2", "+ env SECRET_LITERAL (literal)"}
	if strings.Join(p0.DiffText, "|") != strings.Join(wantDiff, "|") || len(p0.Diff) != 2 {
		t.Fatalf("pending[0] diff %q / %+v", p0.DiffText, p0.Diff)
	}
	if p1.Server != "fs" || p1.Previous != nil || p1.CommandLine != "'/opt/fs server'" || p1.AllowFlag != "--allow-mcp-stdio "+fresh.Digest {
		t.Fatalf("pending[1] = %+v", p1)
	}
	if data.StoreError != nil {
		t.Fatalf("store_error set for a clean store: %v", data.StoreError)
	}

	var human strings.Builder
	if err := pe.WriteHuman(&human); err != nil {
		t.Fatal(err)
	}
	h := human.String()
	for _, want := range []string{
		"consent required (E301): 2 stdio server(s)",
		"server   gh", "command  /usr/bin/npx -y gh@2", "cwd      /w",
		"env      TOKEN (secret-ref {{secrets.gh}})", "SECRET_LITERAL (literal)",
		"digest   " + changed.Digest, "- args[1] gh@1", "+ args[1] gh@2",
		"approve  --allow-mcp-stdio " + changed.Digest,
		"server   fs", "command  '/opt/fs server'", "cwd      /v", "env      (none declared)",
		"changes: none to compare (first approval)", "approve  --allow-mcp-stdio " + fresh.Digest,
		"--allow-mcp-stdio " + changed.Digest + " --allow-mcp-stdio " + fresh.Digest,
	} {
		if !strings.Contains(h, want) {
			t.Errorf("human text lacks %q:\n%s", want, h)
		}
	}
	if strings.Contains(h, "hunter2") || strings.Contains(h, ok.Digest) {
		t.Fatalf("human text shows a value or an approved server:\n%s", h)
	}

	// Every server approved: nothing pending.
	d.ApproveOnce(changed.Digest)
	d.ApproveOnce(fresh.Digest)
	decs, _ = d.Decide([]*Resolved{changed, fresh, ok})
	if err := Require(decs, false); err != nil {
		t.Fatalf("all approved: %v", err)
	}
	// Denied is not pending: the host reports it failed.
	d.Deny(fresh.Digest)
	decs, _ = d.Decide([]*Resolved{changed, fresh, ok})
	if err := Require(decs, false); err != nil {
		t.Fatalf("denied only: %v", err)
	}
	if err := DeniedError(fresh); !strings.Contains(err.Error(), "consent denied") {
		t.Fatal(err)
	}
}

func TestRequireShowsStoreFailure(t *testing.T) {
	home := tempHome(t)
	writeStore(t, home, "{\"v\":1,\"revokes\":\"v1:ab")
	r := fakeResolved("a")
	decs, _ := NewDecider(Open(home), nil, clock).Decide([]*Resolved{r})
	var pe *PendingError
	if !errors.As(Require(decs, false), &pe) {
		t.Fatal("no pending error")
	}
	raw, _ := json.Marshal(pe.ErrorData())
	if !strings.Contains(string(raw), `"store_error":{"code":"E311"`) || !strings.Contains(string(raw), `"line":1`) ||
		!strings.Contains(string(raw), "truncated last line") {
		t.Fatalf("pending data hides the store failure: %s", raw)
	}
	var human strings.Builder
	_ = pe.WriteHuman(&human)
	if !strings.Contains(human.String(), "no remembered grant was trusted") || !strings.Contains(human.String(), "line 1") {
		t.Fatalf("human text hides the store failure:\n%s", human.String())
	}
	var fe *FoldError
	if !errors.As(error(pe), &fe) {
		t.Fatal("the fold failure is not the cause of the pending error")
	}
}
