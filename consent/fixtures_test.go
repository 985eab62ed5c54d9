package consent

import (
	"os"
	"path/filepath"
	"testing"
)

// fakeResolved is a resolved declaration with a real digest, for store and
// decision tests that need no file system.
func fakeResolved(name string) *Resolved {
	return mustResolved(name, "/bin/"+name, []string{"--serve"}, []EnvEntry{TagEnv("TOKEN", "{{secrets.t}}")}, "/w")
}

func mustResolved(name, command string, args []string, env []EnvEntry, cwd string) *Resolved {
	d, err := Digest(command, args, env, cwd)
	if err != nil {
		panic(err)
	}
	return &Resolved{Name: name, Authored: command, Command: command, Args: args, Env: env, Cwd: cwd, Digest: d}
}

// tempHome is a fresh 0700 relavium home.
func tempHome(t *testing.T) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	return home
}

// writeStore writes raw store content with mode 0600.
func writeStore(t *testing.T, home, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(home, StoreFile), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// writeExecutable creates an executable script at dir/name.
func writeExecutable(t *testing.T, dir, name string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil { // WriteFile's mode is masked by umask
		t.Fatal(err)
	}
	return p
}
