package sandbox

import (
	"os/exec"
	"strings"
	"testing"
)

// The sandbox is a leaf below host: it never depends on host, session or a
// face, and of relavium only on fault and consent/canonjson.
func TestSandboxImportsOnlyLeaves(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/relavium/relavium/sandbox").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list returned too little to judge: %q", deps)
	}
	sawLandlock := false
	for _, p := range deps {
		switch {
		case strings.HasPrefix(p, "github.com/landlock-lsm/go-landlock"):
			sawLandlock = true
		case p == "github.com/relavium/relavium/sandbox", p == "github.com/relavium/relavium/fault",
			p == "github.com/relavium/relavium/consent/canonjson":
		case strings.HasPrefix(p, "github.com/relavium/"):
			t.Errorf("sandbox depends on %s", p)
		case strings.HasPrefix(p, "vendor/"), !strings.Contains(strings.Split(p, "/")[0], "."):
			// the standard library
		case strings.HasPrefix(p, "golang.org/x/sys"), strings.HasPrefix(p, "kernel.org/pub/linux/libs/security/libcap/psx"):
			// go-landlock's own
		default:
			t.Errorf("sandbox depends on %s", p)
		}
	}
	if !sawLandlock {
		t.Error("sandbox does not use go-landlock")
	}
}
