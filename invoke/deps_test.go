package invoke

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The command line sits on the session core, beside the workbench, and the
// machine surface sits on the command line: invoke never depends, even
// transitively, on tui or machine (main hands them in as Env.Session and
// Env.Serve).
func TestInvokeImportsNeitherFace(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	out, err := exec.Command("go", "list", "-deps", module+"invoke").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || !slices.Contains(deps, module+"session") {
		t.Fatalf("go list returned too little to judge: %q", deps)
	}
	for _, p := range deps {
		for _, face := range []string{"tui", "machine"} {
			if p == module+face || strings.HasPrefix(p, module+face+"/") {
				t.Errorf("invoke depends on %s", p)
			}
		}
	}
}

// familyUses are the only imports between command families, each named in
// the importing family's doc.go: the CI gates and the session connect the
// declared servers as the mcp family does (its Targets and listings).
var familyUses = map[string][]string{
	"invoke/cmd/gates":   {"invoke/cmd/mcp"},
	"invoke/cmd/session": {"invoke/cmd/mcp"},
}

// The rooms of the command line: the kit (invoke/cli) stands below every
// command family and knows none of them; a family (invoke/cmd/<noun>)
// stands on the kit, never on the table (package invoke), which is the
// one place the families meet, and never on another family but for the
// uses familyUses names.
func TestCommandLineRooms(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	out, err := exec.Command("go", "list", module+"invoke/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	pkgs := strings.Fields(string(out))
	if !slices.Contains(pkgs, module+"invoke/cli") {
		t.Fatalf("go list found no kit: %q", pkgs)
	}
	for _, pkg := range pkgs {
		rel := strings.TrimPrefix(pkg, module)
		var refused []string
		switch {
		case rel == "invoke/cli":
			refused = []string{"invoke", "invoke/cmd/"}
		case strings.HasPrefix(rel, "invoke/cmd/"):
			refused = []string{"invoke", "invoke/cmd/"}
		default:
			continue
		}
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", rel, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			d, ok := strings.CutPrefix(dep, module)
			if !ok || d == rel || slices.Contains(familyUses[rel], d) {
				continue
			}
			for _, r := range refused {
				if d == r || strings.HasSuffix(r, "/") && strings.HasPrefix(d, r) {
					t.Errorf("%s depends on %s", rel, d)
				}
			}
		}
	}
}

// The room rule the families were split for: no package of the command
// line holds more than 40 files or 5,000 lines of non-test Go. A family
// that outgrows it splits by verb (invoke/cmd/<noun>/<verb>), as cli/cli
// does, rather than growing the room.
func TestCommandLineRoomsStaySmall(t *testing.T) {
	const maxFiles, maxLines = 40, 5000
	files, lines := map[string]int{}, map[string]int{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dir := filepath.Join("invoke", filepath.Dir(path))
		files[dir]++
		lines[dir] += bytes.Count(b, []byte("\n"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files["invoke"] == 0 || files["invoke/cli"] == 0 {
		t.Fatalf("found too little to judge: %v", files)
	}
	for dir, n := range files {
		if n > maxFiles || lines[dir] > maxLines {
			t.Errorf("%s holds %d files and %d lines of non-test Go (at most %d and %d): split it by concern", dir, n, lines[dir], maxFiles, maxLines)
		}
	}
}
