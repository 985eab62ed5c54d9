package testbin

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// target is one program to build: its once guards the build, path and err
// hold the outcome.
type target struct {
	n    int // its subdirectory, unique in the process
	once sync.Once
	path string
	err  error
}

// builds is the process-wide table of targets, keyed by package and flags.
var builds struct {
	mu      sync.Mutex
	dir     string
	targets map[string]*target
}

// Relavium returns the path of the relavium binary built from the module
// root, built once per test process.
func Relavium(t testing.TB) string {
	t.Helper()
	return Build(t, ".")
}

// Build returns the path of the program built from pkg (a directory
// relative to the module root) with flags, built once per test process; a
// failed build fails the test.
func Build(t testing.TB, pkg string, flags ...string) string {
	t.Helper()
	bin, err := Program(pkg, flags...)
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// Program is Build for a TestMain: it returns the build's error instead of
// failing a test.
func Program(pkg string, flags ...string) (string, error) {
	if pkg != "." && !strings.HasPrefix(pkg, "./") {
		return "", fmt.Errorf("testbin: package %q must be a directory relative to the module root (\".\" or \"./…\")", pkg)
	}
	pkg = "./" + path.Clean(pkg)
	key := strings.Join(append([]string{pkg}, flags...), "\x00")
	builds.mu.Lock()
	if builds.targets == nil {
		builds.targets = map[string]*target{}
	}
	tg, ok := builds.targets[key]
	if !ok {
		tg = &target{n: len(builds.targets)}
		builds.targets[key] = tg
	}
	builds.mu.Unlock()
	tg.once.Do(func() { tg.path, tg.err = build(pkg, flags, tg.n) })
	return tg.path, tg.err
}

// build runs `go build` for pkg at the module root into subdirectory n of
// the process's directory.
func build(pkg string, flags []string, n int) (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	dir, err := processDir()
	if err != nil {
		return "", err
	}
	name := path.Base(pkg)
	if pkg == "./." {
		name = "relavium"
	}
	sub := filepath.Join(dir, strconv.Itoa(n))
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return "", fmt.Errorf("testbin: %w", err)
	}
	bin := filepath.Join(sub, name)
	args := append(append([]string{"build"}, flags...), "-o", bin, pkg)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("testbin: go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return bin, nil
}

// processDir is the process's temporary directory, made on first use.
func processDir() (string, error) {
	builds.mu.Lock()
	defer builds.mu.Unlock()
	if builds.dir == "" {
		dir, err := os.MkdirTemp("", "relavium-testbin-")
		if err != nil {
			return "", fmt.Errorf("testbin: %w", err)
		}
		builds.dir = dir
	}
	return builds.dir, nil
}

// moduleRoot walks up from the working directory (a test runs in its
// package's directory) to the directory holding go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("testbin: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		} else if !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("testbin: %w", err)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("testbin: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Cleanup removes every program built so far and forgets them; a later
// Build builds again.
func Cleanup() {
	builds.mu.Lock()
	defer builds.mu.Unlock()
	if builds.dir != "" {
		_ = os.RemoveAll(builds.dir)
	}
	builds.dir = ""
	builds.targets = nil
}

// Exit removes the programs and exits with code: the function
// goleak.Cleanup expects.
func Exit(code int) {
	Cleanup()
	os.Exit(code)
}

// Run runs the tests, removes the programs and returns the exit code, for
// a TestMain without goleak: os.Exit(testbin.Run(m)).
func Run(m *testing.M) int {
	code := m.Run()
	Cleanup()
	return code
}
