package secrets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relavium/relavium/fault"
)

// AddFileSecret appends to a TOML store (comments and order kept), reuses
// a name holding the same value, refuses one holding another, refuses an
// unsafe store unread, writes a JSON store when that is the one in use,
// and creates secrets.toml 0600 when there is none.
func TestAddFileSecret(t *testing.T) {
	home := t.TempDir()
	p := filepath.Join(home, "secrets.toml")
	if err := os.WriteFile(p, []byte("# mine\nkept = \"v1\""), 0o600); err != nil {
		t.Fatal(err)
	}
	if path, reused, err := AddFileSecret(home, "a.b-c", "tok \"quoted\" \\ \u00e9"); err != nil || reused || path != p {
		t.Fatalf("add: %s %v %v", path, reused, err)
	}
	b, _ := os.ReadFile(p)
	if !strings.HasPrefix(string(b), "# mine\nkept = \"v1\"\n") {
		t.Fatalf("the store's own text changed:\n%s", b)
	}
	fs := NewFileSecrets(home)
	if v, ok, err := fs.Secret("a.b-c"); err != nil || !ok || v != "tok \"quoted\" \\ \u00e9" {
		t.Fatalf("read back: %q %v %v", v, ok, err)
	}
	if _, reused, err := AddFileSecret(home, "a.b-c", "tok \"quoted\" \\ \u00e9"); err != nil || !reused {
		t.Fatalf("same value again: %v %v", reused, err)
	}
	if _, _, err := AddFileSecret(home, "kept", "other"); !errors.Is(err, ErrSecretTaken) {
		t.Fatalf("another value under a taken name: %v", err)
	}
	_ = os.Chmod(p, 0o644)
	if _, _, err := AddFileSecret(home, "x", "y"); fault.CodeOf(err, "") != CodeSecretFileUnsafe {
		t.Fatalf("a 0644 store: %v", err)
	}

	jhome := t.TempDir()
	if err := os.WriteFile(filepath.Join(jhome, "secrets.json"), []byte(`{"kept":"v1"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if path, _, err := AddFileSecret(jhome, "n", "v"); err != nil || filepath.Base(path) != "secrets.json" {
		t.Fatalf("json store: %s %v", path, err)
	}
	if v, _, _ := NewFileSecrets(jhome).Secret("kept"); v != "v1" {
		t.Fatal("the json store lost a secret")
	}

	fresh := filepath.Join(t.TempDir(), "home")
	path, _, err := AddFileSecret(fresh, "n", "v")
	if st, serr := os.Stat(path); err != nil || serr != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("a new store: %v %v", err, serr)
	}
}
