package consent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

var now = time.Date(2026, 3, 4, 5, 6, 7, 890_000_000, time.UTC)

func TestStoreCreatesPrivateFileAndDirectory(t *testing.T) {
	home := filepath.Join(t.TempDir(), "nested", "home")
	s := Open(home)
	r := mustResolved("gh", "/usr/bin/npx", []string{"-y", "srv"},
		[]EnvEntry{TagEnv("TOKEN", "{{secrets.gh}}"), TagEnv("PASSWORD", "hunter2-literal")}, "/w")
	if err := s.Grant(r, now); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{home: 0o700, filepath.Dir(home): 0o700, s.Path(): 0o600} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s has mode %04o, want %04o", p, st.Mode().Perm(), want)
		}
	}
	raw, _ := os.ReadFile(s.Path())
	if bytes.Contains(raw, []byte("hunter2")) {
		t.Fatalf("a literal env value reached the store: %s", raw)
	}
	var line map[string]any
	if err := json.Unmarshal(raw, &line); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"v": 1.0, "digest": r.Digest, "command": "/usr/bin/npx", "args": []any{"-y", "srv"},
		"envNames": []any{"TOKEN", "PASSWORD"}, "cwd": "/w", "grantedAt": "2026-03-04T05:06:07.890Z",
		"envKinds": map[string]any{"TOKEN": "secret-ref", "PASSWORD": "literal"}, "server": "gh"}
	gotJSON, _ := json.Marshal(line)
	wantJSON, _ := json.Marshal(want)
	if string(gotJSON) != string(wantJSON) {
		t.Fatalf("grant line\n got %s\nwant %s", gotJSON, wantJSON)
	}
	if err := s.Revoke(r.Digest, now.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	raw, _ = os.ReadFile(s.Path())
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	if len(lines) != 2 || lines[1] != `{"v":1,"revokes":"`+r.Digest+`","revokedAt":"2026-03-04T05:06:08.890Z"}` {
		t.Fatalf("revocation line: %q", lines)
	}
	g, err := s.Fold()
	if err != nil || g.Len() != 0 {
		t.Fatalf("after revoke: %d grants, %v", g.Len(), err)
	}
}

func TestStoreRefusesSymlink(t *testing.T) {
	home := tempHome(t)
	target := filepath.Join(t.TempDir(), "elsewhere.ndjson")
	if err := os.WriteFile(target, []byte(gl(dA, t1)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(home, StoreFile)); err != nil {
		t.Fatal(err)
	}
	s := Open(home)
	g, err := s.Fold()
	assertCode(t, err, CodeStoreRefused, "symlink")
	if g.Len() != 0 {
		t.Fatal("grants were read through a symlink")
	}
	assertCode(t, s.Grant(fakeResolved("x"), now), CodeStoreRefused, "symlink")
	assertCode(t, s.Revoke(dA, now), CodeStoreRefused, "symlink")
	if raw, _ := os.ReadFile(target); string(raw) != gl(dA, t1)+"\n" {
		t.Fatalf("the link target was written through: %q", raw)
	}

	// A dangling link is refused too, and nothing is created at its target.
	home2 := tempHome(t)
	dangling := filepath.Join(t.TempDir(), "absent")
	if err := os.Symlink(dangling, filepath.Join(home2, StoreFile)); err != nil {
		t.Fatal(err)
	}
	assertCode(t, Open(home2).Grant(fakeResolved("x"), now), CodeStoreRefused, "symlink")
	if _, err := os.Lstat(dangling); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a dangling symlink's target was created")
	}
}

func TestStoreRefusesUnsafeModes(t *testing.T) {
	for _, mode := range []os.FileMode{0o644, 0o640, 0o606, 0o666} {
		home := tempHome(t)
		p := filepath.Join(home, StoreFile)
		content := gl(dA, t1) + "\n"
		writeStore(t, home, content)
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		s := Open(home)
		g, err := s.Fold()
		assertCode(t, err, CodeStoreRefused, "chmod 600")
		if g.Len() != 0 {
			t.Errorf("mode %04o: grants read from an unsafe file", mode)
		}
		assertCode(t, s.Grant(fakeResolved("x"), now), CodeStoreRefused, "must be 0600")
		if raw, _ := os.ReadFile(p); string(raw) != content {
			t.Errorf("mode %04o: refused file was written", mode)
		}
	}
	for _, mode := range []os.FileMode{0o777, 0o770, 0o722} {
		home := tempHome(t)
		writeStore(t, home, gl(dA, t1)+"\n")
		if err := os.Chmod(home, mode); err != nil {
			t.Fatal(err)
		}
		s := Open(home)
		_, err := s.Fold()
		assertCode(t, err, CodeHomeUnsafe, "chmod 700")
		assertCode(t, s.Grant(fakeResolved("x"), now), CodeHomeUnsafe, "group or others can write")
	}
	// A readable-but-not-writable home (0755) is fine.
	home := tempHome(t)
	if err := os.Chmod(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Open(home).Grant(fakeResolved("x"), now); err != nil {
		t.Fatalf("0755 home: %v", err)
	}
}

func TestStoreRefusesNonRegularFiles(t *testing.T) {
	home := tempHome(t)
	if err := unix.Mkfifo(filepath.Join(home, StoreFile), 0o600); err != nil {
		t.Fatal(err)
	}
	s := Open(home)
	_, err := s.Fold() // must not block on the FIFO
	assertCode(t, err, CodeStoreRefused, "not a regular file")
	assertCode(t, s.Grant(fakeResolved("x"), now), CodeStoreRefused, "not a regular file")

	home2 := tempHome(t)
	if err := os.Mkdir(filepath.Join(home2, StoreFile), 0o700); err != nil {
		t.Fatal(err)
	}
	_, err = Open(home2).Fold()
	assertCode(t, err, CodeStoreRefused, "not a regular file")

	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	assertCode(t, Open(notDir).Grant(fakeResolved("x"), now), CodeStoreIO, "cannot create the relavium home")
}

func TestStoreAppendAfterTruncatedLineKeepsNewLineWhole(t *testing.T) {
	home := tempHome(t)
	writeStore(t, home, gl(dA, t1)+"\n"+rl(dA, t2)[:25])
	s := Open(home)
	r := fakeResolved("later")
	if err := s.Grant(r, now); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(s.Path())
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 lines, got %q", lines)
	}
	if _, reason := parseLine(lines[2], 3, nil, nil); reason != "" {
		t.Fatalf("the appended line was damaged: %s", reason)
	}
	var fe *FoldError
	if _, err := s.Fold(); !errors.As(err, &fe) || fe.Line != 2 {
		t.Fatalf("the damaged line must still fail the fold closed: %v", err)
	}
}

// TestStoreFailedAppendLeavesNoPartialLine: an append that the file system
// cuts short (a full disk, a file-size limit) is an error and leaves the
// store exactly as it was — never a torn line that would fail every later
// fold closed until someone edits the file by hand. A real process with a
// file-size limit makes write(2) store part of the line and then fail.
func TestStoreFailedAppendLeavesNoPartialLine(t *testing.T) {
	home := tempHome(t)
	s := Open(home)
	if err := s.Grant(fakeResolved("first"), now); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), appenderEnv+"=1", "APPENDER_HOME="+home, "APPENDER_ID=9", "APPENDER_N=1",
		fmt.Sprintf("APPENDER_FSIZE=%d", len(before)+40))
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(string(out), string(CodeStoreIO)) {
		t.Fatalf("the cut-short append must fail with %s (exit 1), got %v:\n%s", CodeStoreIO, err, out)
	}
	after, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Fatalf("a failed append left the store changed:\nbefore %q\nafter  %q", before, after)
	}
	grants, err := s.Fold()
	if err != nil || grants.Len() != 1 {
		t.Fatalf("the store must still fold to its one grant: %d grants, %v", grants.Len(), err)
	}
}

func TestStoreNothingWrittenOnBadInput(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	s := Open(home)
	assertCode(t, s.Revoke("v1:short", now), CodeBadDigest, "not a consent digest")
	bad := fakeResolved("x")
	bad.Digest = "v1:" + strings.Repeat("Z", 64)
	assertCode(t, s.Grant(bad, now), CodeBadDigest, "not a consent digest")
	if _, err := os.Stat(home); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("bad input still created the home")
	}
}

func TestStoreBoundsMetadata(t *testing.T) {
	home := tempHome(t)
	long := strings.Repeat("é", 5000) // 10 000 bytes
	args := make([]string, 100)
	for i := range args {
		args[i] = long
	}
	var env []EnvEntry
	for i := 0; i < 100; i++ {
		env = append(env, TagEnv(fmt.Sprintf("N%03d", i)+strings.Repeat("x", 300), "v"))
	}
	r := mustResolved("big", "/bin/"+long, args, env, "/"+long)
	s := Open(home)
	if err := s.Grant(r, now); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(s.Path())
	if limit := 2*maxMetaPath + maxMetaArgs*maxMetaArg + 2*maxMetaEnvNames*(maxMetaEnvName+16) + 512; len(raw) > limit {
		t.Fatalf("grant line is %d bytes, above the bound %d", len(raw), limit)
	}
	g, err := s.Fold()
	if err != nil {
		t.Fatal(err)
	}
	gr, ok := g.Get(r.Digest)
	if !ok {
		t.Fatal("bounded grant not folded")
	}
	if len(gr.Args) != maxMetaArgs || len(gr.EnvNames) != maxMetaEnvNames || !strings.HasSuffix(gr.Command, truncMark) {
		t.Fatalf("bounds not applied: %d args, %d env names", len(gr.Args), len(gr.EnvNames))
	}
	for _, a := range gr.Args {
		if len(a) > maxMetaArg || !strings.HasSuffix(a, truncMark) {
			t.Fatalf("arg of %d bytes kept", len(a))
		}
	}
	// A cut value compares equal to the value it was cut from: no spurious diff.
	if d := DiffAgainst(r, gr); len(d.Changes) != 1 || d.Changes[0].Field != "env" {
		t.Fatalf("diff against own bounded metadata: %+v", d.Changes)
	}
}

func TestStoreLockTimesOut(t *testing.T) {
	home := tempHome(t)
	s := Open(home)
	s.lockWait = 100 * time.Millisecond
	if err := s.Grant(fakeResolved("a"), now); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(s.Path(), os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	assertCode(t, s.Grant(fakeResolved("b"), now), CodeStoreIO, "locked by another process")
	_, err = s.Fold()
	assertCode(t, err, CodeStoreIO, "locked by another process")
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	if err := s.Grant(fakeResolved("b"), now); err != nil {
		t.Fatalf("after unlock: %v", err)
	}
}

func TestFoldRefusesAnOversizedStore(t *testing.T) {
	home := tempHome(t)
	p := filepath.Join(home, StoreFile)
	writeStore(t, home, gl(dA, t1)+"\n")
	if err := os.Truncate(p, maxStoreBytes+1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	g, err := Open(home).Fold()
	var fe *FoldError
	if !errors.As(err, &fe) || fe.Line != 0 || !strings.Contains(fe.Error(), "over the 256 MiB bound") || g.Len() != 0 {
		t.Fatalf("oversized store: %v (%d grants)", err, g.Len())
	}
}
