package consent

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relavium/relavium/fault"
)

func TestResolvePATHWalk(t *testing.T) {
	root := t.TempDir()
	first, second, cwd := filepath.Join(root, "first"), filepath.Join(root, "second"), filepath.Join(root, "proj")
	for _, d := range []string{first, second, cwd} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeExecutable(t, first, "tool", 0o644) // present but not executable: skipped
	want := writeExecutable(t, second, "tool", 0o755)
	writeExecutable(t, cwd, "planted", 0o755) // only reachable through a relative PATH entry

	r, err := Resolve(Declaration{Name: "t", Command: "tool", Args: []string{"-v"}, Cwd: cwd + "/"}, first+":"+second)
	if err != nil {
		t.Fatal(err)
	}
	if r.Command != want || r.Cwd != cwd || r.Authored != "tool" {
		t.Fatalf("resolved %q in %q, want %q in %q", r.Command, r.Cwd, want, cwd)
	}
	d, _ := Digest(want, []string{"-v"}, nil, cwd)
	if r.Digest != d {
		t.Fatalf("digest %s, want the digest of the absolute path %s", r.Digest, d)
	}

	// A relative or empty PATH entry never resolves a bare word into the cwd.
	_, err = Resolve(Declaration{Name: "t", Command: "planted", Cwd: cwd}, ".::proj:"+second)
	assertCode(t, err, CodeCommandNotFound, "not found on PATH")

	// PATH with nothing absolute.
	_, err = Resolve(Declaration{Name: "t", Command: "tool", Cwd: cwd}, ".:bin")
	assertCode(t, err, CodeCommandNotFound, "no absolute directory")

	// Found only without the exec bit: say so.
	_, err = Resolve(Declaration{Name: "t", Command: "tool", Cwd: cwd}, first)
	assertCode(t, err, CodeNotExecutable, "cannot be run")
}

func TestResolvePaths(t *testing.T) {
	root := t.TempDir()
	cwd := filepath.Join(root, "proj")
	if err := os.MkdirAll(filepath.Join(cwd, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	rel := writeExecutable(t, filepath.Join(cwd, "bin"), "server", 0o700)
	abs := writeExecutable(t, root, "abs", 0o755)
	link := filepath.Join(root, "link")
	if err := os.Symlink(abs, link); err != nil {
		t.Fatal(err)
	}

	r, err := Resolve(Declaration{Name: "rel", Command: "./bin/server", Cwd: cwd}, "")
	if err != nil || r.Command != rel {
		t.Fatalf("relative command: %v %v, want %s", r, err, rel)
	}
	r, err = Resolve(Declaration{Name: "rel2", Command: "bin/../bin/server", Cwd: cwd}, "")
	if err != nil || r.Command != rel {
		t.Fatalf("relative command with ..: %v, want %s", err, rel)
	}
	// The digest names the path as found, not the link target: the digest
	// holds "the resolved absolute path" the PATH walk found.
	r, err = Resolve(Declaration{Name: "link", Command: link, Cwd: cwd}, "")
	if err != nil || r.Command != link {
		t.Fatalf("symlinked command: %v, got %v", err, r)
	}
	// node server.js in two directories is two programs.
	other := filepath.Join(root, "other")
	if err := os.MkdirAll(filepath.Join(other, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeExecutable(t, filepath.Join(other, "bin"), "server", 0o755)
	r2, err := Resolve(Declaration{Name: "rel", Command: "./bin/server", Cwd: other}, "")
	if err != nil {
		t.Fatal(err)
	}
	r1, _ := Resolve(Declaration{Name: "rel", Command: "./bin/server", Cwd: cwd}, "")
	if r1.Digest == r2.Digest {
		t.Fatal("the same relative command in two directories has one digest")
	}

	for _, tc := range []struct {
		d    Declaration
		code fault.Code
		says string
	}{
		{Declaration{Name: "x", Command: "", Cwd: cwd}, CodeBadDeclaration, "command is empty"},
		{Declaration{Name: "x", Command: "./bin/missing", Cwd: cwd}, CodeCommandNotFound, "not found at"},
		{Declaration{Name: "x", Command: "./bin", Cwd: cwd}, CodeNotExecutable, "not a regular file"},
		{Declaration{Name: "x", Command: abs, Cwd: "proj"}, CodeBadDeclaration, "not an absolute path"},
		{Declaration{Name: "x", Command: abs, Cwd: ""}, CodeBadDeclaration, "not an absolute path"},
		{Declaration{Name: "x", Command: abs, Cwd: filepath.Join(root, "nope")}, CodeBadDeclaration, "not a directory"},
		{Declaration{Name: "x", Command: abs, Cwd: cwd, Env: []EnvVar{{"PATH", "/evil"}}}, CodeEnvRefused, "PATH"},
		{Declaration{Name: "x", Command: abs, Cwd: cwd, Env: []EnvVar{{"A", "1"}, {"A", "2"}}}, CodeBadDeclaration, "declared twice"},
		{Declaration{Name: "x", Command: abs, Cwd: cwd, Args: []string{"\xed\xa0\x80"}}, CodeNotCanonical, "lone surrogate"},
	} {
		_, err := Resolve(tc.d, "/usr/bin:/bin")
		assertCode(t, err, tc.code, tc.says)
	}
}

func TestResolveTagsEnv(t *testing.T) {
	cwd := t.TempDir()
	abs := writeExecutable(t, cwd, "srv", 0o755)
	r, err := Resolve(Declaration{Name: "s", Command: abs, Cwd: cwd, Env: []EnvVar{
		{"TOKEN", "{{secrets.gh}}"}, {"MODE", "fast"}, {"LOOKALIKE", "secret:gh"}, {"SPACED", "{{ secrets.gh }}"},
	}}, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []EnvEntry{
		{Name: "TOKEN", Kind: KindSecretRef, Secret: "gh"},
		{Name: "MODE", Kind: KindLiteral, Value: "fast"},
		{Name: "LOOKALIKE", Kind: KindLiteral, Value: "secret:gh"},
		{Name: "SPACED", Kind: KindLiteral, Value: "{{ secrets.gh }}"},
	}
	for i, e := range want {
		if r.Env[i] != e {
			t.Errorf("env[%d] = %+v, want %+v", i, r.Env[i], e)
		}
	}
	if r.Args == nil {
		t.Error("absent args must resolve to an empty list, not nil")
	}
	if got := strings.Join(r.EnvNames(), ","); got != "TOKEN,MODE,LOOKALIKE,SPACED" {
		t.Errorf("EnvNames = %s", got)
	}
}

func TestCommandLineDisplay(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-y", "@scope/pkg@1.2", "--port=3000"}, "/bin/x -y @scope/pkg@1.2 --port=3000"},
		{[]string{"a b", "it's", ""}, `/bin/x 'a b' 'it'\''s' ''`},
		{[]string{"é☃"}, "/bin/x 'é☃'"},
		{[]string{"line\nbreak", "\x1b[31mred"}, `/bin/x $'line\nbreak' $'\E[31mred'`},
		{[]string{"safe\u202egnp.exe"}, `/bin/x $'safe\u202egnp.exe'`},
		{[]string{"zero\u200bwidth", "\x7f", "\xff"}, `/bin/x $'zero\u200bwidth' $'\x7f' $'\xff'`},
	} {
		r := &Resolved{Command: "/bin/x", Args: tc.args}
		if got := r.CommandLine(); got != tc.want {
			t.Errorf("CommandLine(%q) = %s, want %s", tc.args, got, tc.want)
		}
	}
}

func assertCode(t *testing.T, err error, code fault.Code, says string) {
	t.Helper()
	var c interface{ Code() fault.Code }
	if !errors.As(err, &c) || c.Code() != code {
		t.Errorf("err = %v, want code %s", err, code)
		return
	}
	if !strings.Contains(err.Error(), says) {
		t.Errorf("err %q does not say %q", err, says)
	}
	var ec interface{ ExitCode() int }
	if errors.As(err, &ec) && !storeCode(code) && ec.ExitCode() != 2 {
		t.Errorf("err %v exits %d, want 2", err, ec.ExitCode())
	}
}

// storeCode reports a store's runtime code (exit 1, not an authored error).
func storeCode(code fault.Code) bool {
	switch code {
	case CodeStoreIO, CodeStoreRefused, CodeStoreUnreadable, CodeHomeUnsafe, CodeApprovalsRefused, CodeApprovalsUnreadable, CodeApprovalsIO:
		return true
	}
	return false
}
