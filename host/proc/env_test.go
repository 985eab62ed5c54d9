package proc

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSetEnvReplacesADeclaredOne(t *testing.T) {
	got := SetEnv([]string{"A=1", "TMPDIR=/x", "B=2"}, "TMPDIR", "/y")
	if !slices.Equal(got, []string{"A=1", "B=2", "TMPDIR=/y"}) {
		t.Fatalf("SetEnv = %q", got)
	}
}

func TestTempDirIsNamedForItsServerSafely(t *testing.T) {
	dir, err := TempDir("a/b c;" + strings.Repeat("x", 40))
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	base := filepath.Base(dir)
	if !strings.HasPrefix(base, "relavium-a_b_c_"+strings.Repeat("x", 26)+"-") {
		t.Fatalf("temp dir %q", base)
	}
}
