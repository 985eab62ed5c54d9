package main

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/internal/testbin"
)

// TestBuildVersion: the stamp wins, then the module version the go command
// recorded, then "dev" with the VCS revision; "(devel)" is no version.
func TestBuildVersion(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	for _, c := range []struct {
		name  string
		stamp string
		info  *debug.BuildInfo
		want  string
	}{
		{"stamp", "v1.2.0-3-gabc1234-dirty", &debug.BuildInfo{Main: debug.Module{Version: "v1.1.0"}}, "v1.2.0-3-gabc1234-dirty"},
		{"go install @v", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, "v1.2.0"},
		{"pseudo-version", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261202005000-abcdef123456+dirty"}}, "v0.0.0-20261202005000-abcdef123456+dirty"},
		{"devel with vcs", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("0123456789abcdef0123", "true")}, "dev-0123456789ab-dirty"},
		{"devel clean", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("0123456789abcdef0123", "false")}, "dev-0123456789ab"},
		{"devel, nothing recorded", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
		{"no build info", " ", nil, "dev"},
	} {
		if got := buildVersion(c.stamp, c.info); got != c.want {
			t.Errorf("%s: buildVersion = %q, want %q", c.name, got, c.want)
		}
	}
}

// versionOf runs `relavium --version` and `relavium version --json` and
// checks both name want.
func versionOf(t *testing.T, bin, want string) {
	t.Helper()
	out, stderr, code := runBin(t, bin, "--version")
	if code != 0 || !strings.HasPrefix(out, "relavium "+want+" (go") {
		t.Errorf("relavium --version: exit %d, %q (%s); want relavium %s (go…", code, out, stderr, want)
	}
	js, _, code := runBin(t, bin, "version", "--json")
	var env struct {
		OK   bool
		Data struct{ Version string }
	}
	if err := json.Unmarshal([]byte(js), &env); err != nil || code != 0 || env.Data.Version != want {
		t.Errorf("relavium version --json: exit %d, %v, %s; want version %s", code, err, js, want)
	}
}

// TestVersionStampedByMakeBuild builds the binary as make build does, with
// the -X stamp, and reads the version back.
func TestVersionStampedByMakeBuild(t *testing.T) {
	const stamp = "v9.8.7-3-gabcdef1-dirty"
	versionOf(t, testbin.Build(t, ".", "-ldflags=-X main.version="+stamp), stamp)
}

// TestVersionUnderGoInstall runs a real `go install
// github.com/relavium/relavium@v0.42.N` from a module proxy on disk that
// serves this checkout as that version (its dependencies come from the
// module cache's own download directory, also a proxy on disk: nothing
// leaves the machine), and checks the installed binary says v0.42.N, not
// dev. It uses the module cache itself, so the dependencies are not
// extracted or compiled again; N is unique to the run and the version is
// removed from the cache afterwards.
func TestVersionUnderGoInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module from a proxy on disk; -short leaves it out")
	}
	const mod = "github.com/relavium/relavium"
	ver := fmt.Sprintf("v0.42.%d", time.Now().UnixNano())
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(goBin, "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	modCache := strings.TrimSpace(string(out))
	cacheProxy := filepath.Join(modCache, "cache", "download")
	// What this run adds to the cache goes afterwards: the whole module's
	// directories when they were not there before, else this version's files.
	ownDirs := []string{filepath.Join(modCache, "github.com", "relavium"), filepath.Join(cacheProxy, "github.com", "relavium")}
	for i, d := range ownDirs {
		if _, err := os.Stat(d); err == nil {
			ownDirs[i] = ""
		}
	}
	t.Cleanup(func() {
		for _, d := range ownDirs {
			if d != "" {
				_ = os.RemoveAll(d)
			}
		}
		// -modcacherw below leaves the extracted tree writable.
		_ = os.RemoveAll(filepath.Join(modCache, filepath.FromSlash(mod)+"@"+ver))
		left, _ := filepath.Glob(filepath.Join(cacheProxy, filepath.FromSlash(mod), "@v", ver+".*"))
		for _, f := range left {
			_ = os.Remove(f)
		}
	})
	if _, err := os.Stat(filepath.Join(cacheProxy, "github.com")); err != nil {
		t.Fatalf("the module cache holds no downloads to serve the dependencies from: %v", err)
	}

	dir := t.TempDir()
	proxy := filepath.Join(dir, "proxy")
	at := filepath.Join(proxy, filepath.FromSlash(mod), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"list":        ver + "\n",
		ver + ".info": `{"Version":"` + ver + `","Time":"2026-01-01T00:00:00Z"}`,
		ver + ".mod":  string(gomod),
	} {
		if err := os.WriteFile(filepath.Join(at, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeModuleZip(t, filepath.Join(at, ver+".zip"), mod+"@"+ver)

	gobin := filepath.Join(dir, "bin")
	cmd := exec.Command(goBin, "install", mod+"@"+ver)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GOBIN="+gobin,
		"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(cacheProxy),
		"GOSUMDB=off", "GOFLAGS=-modcacherw", "GOTOOLCHAIN=local", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install %s@%s: %v\n%s", mod, ver, err, out)
	}
	versionOf(t, filepath.Join(gobin, "relavium"+exeSuffix()), ver)
}

// writeModuleZip writes the checkout's files (what git tracks or would
// add) as a module zip under prefix, as a proxy serves a module version.
func writeModuleZip(t *testing.T, path, prefix string) {
	t.Helper()
	out, err := exec.Command("git", "ls-files", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	n := 0
	for _, name := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		src, err := os.ReadFile(filepath.FromSlash(name))
		if os.IsNotExist(err) {
			continue // deleted in the work tree, not yet in the index
		}
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(prefix + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(src); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("only %d files in the module zip", n)
	}
}
