package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestEffectiveDefaults(t *testing.T) {
	dir := t.TempDir()
	project := filepath.Join(dir, "project")
	root := filepath.Join(dir, "root")
	pkg := filepath.Join(dir, "pkgs", "node_modules", "@x", "server", "dist")
	for _, d := range []string{project, root, pkg} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script := filepath.Join(pkg, "index.js")
	if err := os.WriteFile(script, []byte("#!/usr/bin/env node\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := Effective(Decl{}, Inputs{Command: "/bin/sh", Args: []string{"--flag", script}, Cwd: project})
	if !p.Enabled || p.Network != NetOpen || !p.Tmp || p.Required || !p.Project || !p.Roots {
		t.Fatalf("defaults: %+v", p)
	}
	for _, want := range []string{"/usr", project, filepath.Join(dir, "pkgs", "node_modules")} {
		if !under(want, p.Read) {
			t.Errorf("read %v lacks %s", p.Read, want)
		}
	}
	if len(p.Write) != 0 || under(root, p.Read) {
		t.Errorf("write = %v, read %v: the roots are named, not listed", p.Write, p.Read)
	}
	if under(os.Getenv("HOME"), p.Read) && os.Getenv("HOME") != "" && !under(os.Getenv("HOME"), []string{dir}) {
		t.Errorf("the home directory is readable by default: %v", p.Read)
	}
	// A declared writable cwd, a declared read path, network none.
	q := Effective(Decl{Write: []string{"."}, Read: []string{"/opt/data"}, Network: NetNone}, Inputs{Command: "/bin/sh", Cwd: project})
	if !slices.Contains(q.Write, project) || slices.Contains(q.Read, project) || !slices.Contains(q.Read, "/opt/data") || q.Network != NetNone {
		t.Errorf("declared: %+v", q)
	}
	if off := Effective(Decl{Off: true}, Inputs{Command: "/bin/sh", Cwd: project}); off.Enabled {
		t.Errorf("sandbox = false is enabled: %+v", off)
	}
}

func TestCoversLooseningAndTightening(t *testing.T) {
	base := Policy{Enabled: true, Read: []string{"/usr", "/work"}, Write: []string{"/work/out"}, Tmp: true, Roots: true, Project: true, Network: NetGuarded, Allow: []string{"127.0.0.1:8080"}}
	tighter := []Policy{
		base,
		{Enabled: true, Read: []string{"/usr/lib"}, Write: []string{"/work/out/a"}, Network: NetNone},
		{Enabled: true, Read: []string{"/work/out/x"}, Write: nil, Tmp: true, Network: NetGuarded},
	}
	for i, p := range tighter {
		if !base.Covers(p) {
			t.Errorf("tighter %d not covered: %v", i, Diff(base, p))
		}
		if len(Diff(base, p)) != 0 && i == 0 {
			t.Errorf("a policy differs from itself: %v", Diff(base, p))
		}
	}
	looser := map[string]Policy{
		"write":   {Enabled: true, Read: []string{"/usr"}, Write: []string{"/work"}, Network: NetNone},
		"read":    {Enabled: true, Read: []string{"/etc"}, Network: NetNone},
		"network": {Enabled: true, Network: NetOpen},
		"allow":   {Enabled: true, Network: NetGuarded, Allow: []string{"10.0.0.1:22"}},
		"off":     Off(),
		"tmp":     {Enabled: true, Tmp: true, Network: NetNone},
		"roots":   {Enabled: true, Roots: true, Network: NetNone},
	}
	noTmp := base
	noTmp.Tmp = false
	for name, p := range looser {
		g := base
		if name == "tmp" || name == "roots" {
			g = noTmp
			g.Roots = false
		}
		if g.Covers(p) {
			t.Errorf("looser %s is covered", name)
		}
		if len(Diff(g, p)) == 0 {
			t.Errorf("looser %s has no diff", name)
		}
	}
	if !Off().Covers(base) {
		t.Error("sandbox = false does not cover a confined policy")
	}
}

func TestDigestedFormIsStableAndLeavesRequiredOut(t *testing.T) {
	p := Policy{Enabled: true, Required: true, Read: []string{"/usr"}, Network: NetNone}
	q := p
	q.Required = false
	if d1, d2 := p.Digested(), q.Digested(); len(d1) != len(d2) || d1["required"] != nil {
		t.Errorf("required is digested: %v", d1)
	}
	if got := Off().Digested(); len(got) != 1 || got["enabled"] != false {
		t.Errorf("off digested as %v", got)
	}
	if w, ok := ParseWords(p.Words()); !ok || !slices.Equal(w.Read, p.Read) || w.Network != p.Network {
		t.Errorf("words round trip: %+v %v", w, ok)
	}
	r, err := Parse(p.Marshal())
	if err != nil || !slices.Equal(r.Read, p.Read) || r.Network != p.Network || !r.Required {
		t.Errorf("round trip: %+v %v", r, err)
	}
}

func TestExplainNamesTheRefusal(t *testing.T) {
	p := Policy{Enabled: true, Read: []string{"/usr", "/work"}, Write: []string{"/work/out"}, Network: NetNone}
	for text, want := range map[string]string{
		"open /work/src/a.go: permission denied":              "write outside the roots refused (/work/src/a.go)",
		"EACCES: permission denied, open '/home/me/.ssh/id'":  "access outside the policy refused (/home/me/.ssh/id)",
		"dial tcp 1.2.3.4:443: connect: permission denied":    "connection refused (network none)",
		"Error: EACCES: permission denied, mkdir '/work/out'": "",
		"file not found": "",
	} {
		if got := Explain(p, text); want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("Explain(%q) = %q, want %q", text, got, want)
		}
	}
	if Explain(Off(), "permission denied") != "" {
		t.Error("a disabled sandbox explained a denial")
	}
}
