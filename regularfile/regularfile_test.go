package regularfile_test

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/relavium/relavium/regularfile"
)

// A FIFO with no writer is refused at once (opening it would block
// without O_NONBLOCK); a directory and a device are refused; a file over
// the bound is refused; a regular file within it is read whole.
func TestReadRefusesWhatIsNotAPlainBoundedFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs or /dev/null here")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "lock")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	var nr *regularfile.NotRegularError
	if _, _, err := regularfile.Read(fifo, 1<<10, regularfile.Options{}); !errors.As(err, &nr) || !strings.Contains(err.Error(), "named pipe") {
		t.Fatalf("FIFO: %v", err)
	}
	if _, _, err := regularfile.Read(dir, 1<<10, regularfile.Options{}); !errors.As(err, &nr) || !strings.Contains(err.Error(), "directory") {
		t.Fatalf("directory: %v", err)
	}
	if _, _, err := regularfile.Read("/dev/null", 1<<10, regularfile.Options{}); !errors.As(err, &nr) || !strings.Contains(err.Error(), "character device") {
		t.Fatalf("device: %v", err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 1025), 0o600); err != nil {
		t.Fatal(err)
	}
	var tl *regularfile.TooLargeError
	if _, _, err := regularfile.Read(big, 1<<10, regularfile.Options{}); !errors.As(err, &tl) || !strings.Contains(err.Error(), "1 KiB") {
		t.Fatalf("over the bound: %v", err)
	}
	if b, st, err := regularfile.Read(big, 1025, regularfile.Options{}); err != nil || len(b) != 1025 || st.Size() != 1025 {
		t.Fatalf("at the bound: %d %v", len(b), err)
	}
	if _, _, err := regularfile.Read(filepath.Join(dir, "absent"), 10, regularfile.Options{}); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("absent: %v", err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(big, link); err != nil {
		t.Fatal(err)
	}
	if _, _, err := regularfile.Read(link, 2048, regularfile.Options{}); err != nil {
		t.Fatalf("a link is followed by default: %v", err)
	}
	if _, _, err := regularfile.Read(link, 2048, regularfile.Options{NoFollow: true}); err == nil {
		t.Fatal("NoFollow read through a symlink")
	}
}

// regularfile is a leaf: the standard library only.
func TestImportsOnlyTheStandardLibrary(t *testing.T) {
	const pkg = "github.com/relavium/relavium/regularfile"
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) != 1 || deps[0] != pkg {
		t.Fatalf("regularfile depends on %v", deps)
	}
}
