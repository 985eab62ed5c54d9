package testbin

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

const hello = "./internal/testbin/testdata/hello"

func TestMain(m *testing.M) { os.Exit(Run(m)) }

// Many tests asking at once for one target get one build: the same path,
// a program that runs.
func TestBuildOncePerTarget(t *testing.T) {
	paths := make([]string, 8)
	var wg sync.WaitGroup
	for i := range paths {
		wg.Go(func() { paths[i] = Build(t, hello) })
	}
	wg.Wait()
	for _, p := range paths {
		if p != paths[0] {
			t.Fatalf("one target, two paths: %q", paths)
		}
	}
	if filepath.Base(paths[0]) != "hello" {
		t.Errorf("program %s is not named for its package", paths[0])
	}
	out, err := exec.Command(paths[0], "hi").Output()
	if err != nil || string(out) != "hi" {
		t.Fatalf("built program: %q %v", out, err)
	}
	if again := Build(t, "./internal/testbin/testdata/../testdata/hello"); again != paths[0] {
		t.Errorf("the same package spelled differently built again: %s", again)
	}
}

// Flags are part of the target: a build with flags is another program.
func TestFlagsMakeAnotherTarget(t *testing.T) {
	plain := Build(t, hello)
	trimmed := Build(t, hello, "-trimpath")
	if plain == trimmed || filepath.Dir(plain) == filepath.Dir(trimmed) {
		t.Fatalf("flags did not make another target: %s %s", plain, trimmed)
	}
	if filepath.Base(trimmed) != "hello" {
		t.Errorf("program %s is not named for its package", trimmed)
	}
}

// A package outside the module root's spelling is refused; a failed build
// reports the compiler's output to every caller.
func TestErrors(t *testing.T) {
	if _, err := Program("internal/testbin/testdata/hello"); err == nil || !strings.Contains(err.Error(), "relative to the module root") {
		t.Errorf("a bare path: %v", err)
	}
	for range 2 {
		_, err := Program("./internal/testbin/testdata/broken")
		if err == nil || !strings.Contains(err.Error(), "undefinedOnPurpose") {
			t.Errorf("a broken package: %v", err)
		}
	}
}

// Cleanup removes the programs; a later Build builds again elsewhere.
func TestCleanup(t *testing.T) {
	before := Build(t, hello)
	Cleanup()
	if _, err := os.Stat(before); !os.IsNotExist(err) {
		t.Fatalf("Cleanup left %s: %v", before, err)
	}
	after := Build(t, hello)
	if _, err := os.Stat(after); err != nil {
		t.Fatalf("Build after Cleanup: %v", err)
	}
}
