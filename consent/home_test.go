package consent

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestCheckHome(t *testing.T) {
	root := t.TempDir()
	mk := func(name string, mode os.FileMode) string {
		p := filepath.Join(root, name)
		if err := os.Mkdir(p, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil { // Mkdir's mode is masked by umask
			t.Fatal(err)
		}
		return p
	}
	for _, ok := range []string{mk("private", 0o700), mk("readable", 0o755), mk("readonly", 0o500), filepath.Join(root, "missing")} {
		if err := CheckHome(ok); err != nil {
			t.Errorf("CheckHome(%s): %v", ok, err)
		}
	}
	for _, mode := range []os.FileMode{0o777, 0o770, 0o720, 0o702, os.ModeSticky | 0o777} {
		p := mk(fmt.Sprintf("open%o", mode), mode)
		assertCode(t, CheckHome(p), CodeHomeUnsafe, "chmod 700 "+p)
	}
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	assertCode(t, CheckHome(file), CodeHomeUnsafe, "not a directory")

	// A symlink is resolved; its target is what is judged.
	good, bad := filepath.Join(root, "to-private"), filepath.Join(root, "to-open")
	if err := os.Symlink(filepath.Join(root, "private"), good); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "open777"), bad); err != nil {
		t.Fatal(err)
	}
	if err := CheckHome(good); err != nil {
		t.Errorf("symlink to a private home: %v", err)
	}
	assertCode(t, CheckHome(bad), CodeHomeUnsafe, "a link to")

	// Another user's directory.
	foreign := "/"
	if os.Geteuid() == 0 {
		foreign = mk("foreign", 0o700)
		if err := os.Chown(foreign, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	assertCode(t, CheckHome(foreign), CodeHomeUnsafe, "not by you")
}
