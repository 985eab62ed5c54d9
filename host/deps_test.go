package host

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// host's rooms stand below its root: no package under host/ depends, even
// transitively, on package host itself (the root composes them; they never
// reach back).
func TestHostRoomsStayBelowTheRoot(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	out, err := exec.Command("go", "list", module+"host/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	pkgs := strings.Fields(string(out))
	if !slices.Contains(pkgs, module+"host/proc") || !slices.Contains(pkgs, module+"host/discovery") {
		t.Fatalf("go list found too few rooms: %q", pkgs)
	}
	for _, pkg := range pkgs {
		if pkg == module+"host" {
			continue
		}
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		if slices.Contains(strings.Fields(string(out)), module+"host") {
			t.Errorf("%s depends on package host, the root above it", strings.TrimPrefix(pkg, module))
		}
	}
}
