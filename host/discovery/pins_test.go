package discovery

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func discoverVariant(t *testing.T, variant string) *Catalogue {
	t.Helper()
	s := connect(t, viaStdio, "-case", "pins", "-variant", variant)
	cat, err := Discover(context.Background(), "pinned", s.lister, Options{})
	if err != nil {
		t.Fatal(err)
	}
	Namespace([]*Catalogue{cat})
	return cat
}

func changed(cat *Catalogue) []string {
	var out []string
	for _, tool := range cat.Tools {
		if tool.Def.Changed {
			out = append(out, tool.Def.Tool)
		}
	}
	return out
}

func TestPinsFlagChangedTools(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	store := NewPinStore(home)
	id := ServerIdentity{Name: "pinned", Transport: "stdio", Target: hostileBin}

	first := discoverVariant(t, "1")
	if err := store.Observe(id, first); err != nil {
		t.Fatal(err)
	}
	if c := changed(first); len(c) != 0 {
		t.Fatalf("first sight flagged %q", c)
	}
	fi, err := os.Stat(filepath.Join(home, PinFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("pin file: %v %v", fi, err)
	}
	if di, _ := os.Stat(home); di.Mode().Perm() != 0o700 {
		t.Errorf("home mode %v", di.Mode().Perm())
	}

	second := discoverVariant(t, "2")
	if err := store.Observe(id, second); err != nil {
		t.Fatal(err)
	}
	// b only changed key order, whitespace and 1 -> 1.0: not a change.
	if got := changed(second); !slices.Equal(got, []string{"a", "c"}) {
		t.Fatalf("changed = %q, want [a c]", got)
	}
	for _, tool := range second.Tools {
		switch tool.Def.Tool {
		case "a":
			if len(tool.Changes) != 1 || tool.Changes[0].Pointer != "/description" ||
				tool.Changes[0].Old != `"Version one."` || tool.Changes[0].New != `"Version two: now also uploads your files."` {
				t.Errorf("a: changes %+v", tool.Changes)
			}
		case "c":
			if len(tool.Changes) != 1 || tool.Changes[0].Pointer != "/inputSchema/properties/z/type" {
				t.Errorf("c: changes %+v", tool.Changes)
			}
		}
	}

	// Seen again: still flagged, with the same diff against the accepted
	// pin. Being seen twice is not being accepted (a rug pull stays
	// visible until the person accepts it).
	third := discoverVariant(t, "2")
	if err := store.Observe(id, third); err != nil {
		t.Fatal(err)
	}
	if got := changed(third); !slices.Equal(got, []string{"a", "c"}) {
		t.Fatalf("third sight: changed = %q, want [a c] still flagged", got)
	}
	for _, tool := range third.Tools {
		if tool.Def.Tool == "a" && (len(tool.Changes) != 1 || tool.Changes[0].Old != `"Version one."`) {
			t.Errorf("third sight: a's diff is not against the accepted pin: %+v", tool.Changes)
		}
	}

	// The person accepts a only: it is unflagged now and on the next
	// connect; c stays flagged.
	var accept []*Tool
	for _, tool := range third.Tools {
		if tool.Def.Tool == "a" {
			accept = append(accept, tool)
		}
	}
	if err := store.Accept(id, accept); err != nil {
		t.Fatal(err)
	}
	if got := changed(third); !slices.Equal(got, []string{"c"}) || accept[0].Changes != nil {
		t.Fatalf("after accepting a: changed = %q", got)
	}
	fourth := discoverVariant(t, "2")
	if err := store.Observe(id, fourth); err != nil {
		t.Fatal(err)
	}
	if got := changed(fourth); !slices.Equal(got, []string{"c"}) {
		t.Fatalf("after accepting a, next connect: changed = %q, want [c]", got)
	}

	// Back to version one: a now differs from what was accepted (flagged),
	// c matches its pin again (unflagged, nothing to accept).
	fifth := discoverVariant(t, "1")
	if err := store.Observe(id, fifth); err != nil {
		t.Fatal(err)
	}
	if got := changed(fifth); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("back to version one: changed = %q, want [a]", got)
	}

	// Another identity (same name, other command) has its own pins.
	other := discoverVariant(t, "1")
	if err := store.Observe(ServerIdentity{Name: "pinned", Transport: "stdio", Target: "/other"}, other); err != nil {
		t.Fatal(err)
	}
	if c := changed(other); len(c) != 0 {
		t.Fatalf("a new identity flagged %q", c)
	}
	entries, _ := os.ReadDir(home)
	for _, e := range entries {
		if e.Name() != PinFile && e.Name() != PinFile+".lock" {
			t.Errorf("stray file %s in home", e.Name())
		}
	}
}

func TestCorruptPinStoreIsLeftAlone(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, PinFile)
	if err := os.WriteFile(path, []byte(`{"v":1,"servers":[`), 0o600); err != nil {
		t.Fatal(err)
	}
	cat, err := Discover(context.Background(), "s", fakeLister{"": `{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = NewPinStore(home).Observe(ServerIdentity{Name: "s"}, cat)
	var de *Error
	if !errors.As(err, &de) || de.Code() != CodePinStore {
		t.Fatalf("err = %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != `{"v":1,"servers":[` {
		t.Fatalf("a corrupt store was overwritten: %q", data)
	}
}

func TestPinStoreRefusesASymlink(t *testing.T) {
	home := t.TempDir()
	target := filepath.Join(t.TempDir(), "elsewhere.json")
	if err := os.WriteFile(target, []byte(`{"v":1,"servers":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(home, PinFile)); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	cat, _ := Discover(context.Background(), "s", fakeLister{"": `{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`}, Options{})
	if err := NewPinStore(home).Observe(ServerIdentity{Name: "s"}, cat); err == nil {
		t.Fatal("a symlinked pin store was followed")
	}
}

func TestDiffDefinitions(t *testing.T) {
	a := []byte(`{"description":"x","inputSchema":{"properties":{"p":{"type":"string"}},"type":"object"},"name":"t"}`)
	b := []byte(`{"description":"x\u202e","inputSchema":{"properties":{"p":{"type":"string"},"q":{}},"type":"object"},"name":"t"}`)
	got := DiffDefinitions(a, b)
	if len(got) != 2 || got[0].Pointer != "/description" || got[0].New != `"x\u202e"` || got[1].Pointer != "/inputSchema/properties/q" || got[1].Old != "" {
		t.Fatalf("diff %+v", got)
	}
}

// TestPinStoreSizeIsBounded: the tool-pin store is read whole, so its size
// is bounded: a file over maxPinFileBytes is refused (E590) before it is
// read and left alone, and a write that would pass the bound is refused
// with the old file kept.
func TestPinStoreSizeIsBounded(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, PinFile)
	if err := os.WriteFile(path, []byte(`{"v":1,"servers":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, maxPinFileBytes+1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	cat, err := Discover(context.Background(), "s", fakeLister{"": `{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = NewPinStore(home).Observe(ServerIdentity{Name: "s"}, cat)
	var de *Error
	if !errors.As(err, &de) || de.Code() != CodePinStore || !strings.Contains(err.Error(), "over the 16 MiB") {
		t.Fatalf("oversized pin store: %v", err)
	}
	if st, _ := os.Stat(path); st.Size() != maxPinFileBytes+1 {
		t.Fatalf("the oversized store was rewritten (%d bytes)", st.Size())
	}

	// A write past the bound leaves the old file.
	old := []byte(`{"v":1,"servers":[]}`)
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	big := &pinFile{V: 1, Servers: []pinServer{{ServerIdentity: ServerIdentity{Name: "s"}, Tools: map[string]pinTool{
		"t": {Digest: "sha256:0", Def: json.RawMessage(`"` + strings.Repeat("x", maxPinFileBytes) + `"`)}}}}}
	if err := writeAtomic(path, big); err == nil || !strings.Contains(err.Error(), "left as it was") {
		t.Fatalf("oversized write: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != string(old) {
		t.Fatal("the store changed on a refused write")
	}
}
