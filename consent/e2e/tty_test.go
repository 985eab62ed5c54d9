package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a real pseudo-terminal pair.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatalf("no pseudo-terminal on this machine: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Fatal(err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		m.Close()
		t.Fatal(err)
	}
	return m, s
}

// drain lets the reader take everything the child wrote before the terminal
// went away: it stops by itself with EIO once the slave side is gone. Closing
// the master first would throw away output still in the terminal's buffer.
func drain(master *os.File, readDone <-chan struct{}) {
	select {
	case <-readDone:
	case <-time.After(10 * time.Second):
		master.Close()
		<-readDone
	}
}

// onTerminal runs relavium with stdin, stdout and stderr on a real terminal,
// types answer once the prompt shows, and returns the screen and exit code.
// With answer "" it types nothing and expects no prompt.
func (w *world) onTerminal(extraEnv []string, answer string, args ...string) (string, int) {
	w.t.Helper()
	master, slave := openPTY(w.t)
	defer master.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = w.project
	cmd.Env = append(w.env(extraEnv...), "TERM=dumb") // no CI unless extraEnv says so
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		slave.Close()
		w.t.Fatal(err)
	}
	slave.Close()

	var mu sync.Mutex
	var screen bytes.Buffer
	prompted := make(chan struct{})
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		buf := make([]byte, 4096)
		once := sync.Once{}
		for {
			n, err := master.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			if strings.Contains(screen.String(), "[y/N]") {
				once.Do(func() { close(prompted) })
			}
			mu.Unlock()
			if err != nil { // EIO once the child and its terminal are gone
				return
			}
		}
	}()
	if answer == "" {
		err := cmd.Wait()
		drain(master, readDone)
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			w.t.Fatalf("want a failing exit, got %v", err)
		}
		if strings.Contains(screen.String(), "[y/N]") {
			w.t.Fatalf("prompted although no one may be asked:\n%s", screen.String())
		}
		return screen.String(), ee.ExitCode()
	}
	select {
	case <-prompted:
		if _, err := io.WriteString(master, answer+"\n"); err != nil {
			w.t.Fatal(err)
		}
	case <-ctx.Done():
		w.t.Fatal("no prompt appeared")
	}
	err := cmd.Wait()
	drain(master, readDone)
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		w.t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	return screen.String(), code
}

func TestRevokeAsksOnATerminal(t *testing.T) {
	w := newWorld(t)
	w.config(twoServers)
	env, _ := w.json("consent", "grant", "spy", "--yes")
	digest := decode[struct{ Digest string }](t, env.Data).Digest
	before := w.store()

	// CI set: a terminal alone does not make someone available to ask.
	screen, code := w.onTerminal([]string{"CI=true"}, "", "consent", "revoke", digest)
	if code != 2 || !strings.Contains(screen, "E315") || w.store() != before {
		t.Fatalf("CI on a terminal: exit %d\n%s", code, screen)
	}

	screen, code = w.onTerminal(nil, "n", "consent", "revoke", digest)
	for _, want := range []string{"? revoke consent " + digest, "command  " + w.bin + "/spy --root /data", "cwd      " + w.project,
		"revoke? [y/N]", "E316", "cancelled"} {
		if !strings.Contains(screen, want) {
			t.Errorf("answer n: screen lacks %q:\n%s", want, screen)
		}
	}
	if code != 1 || w.store() != before {
		t.Fatalf("answer n: exit %d, store changed: %v", code, w.store() != before)
	}

	screen, code = w.onTerminal(nil, "y", "consent", "revoke", digest)
	if code != 0 || !strings.Contains(screen, "revoked "+digest) {
		t.Fatalf("answer y: exit %d\n%s", code, screen)
	}
	if !strings.Contains(w.store(), `"revokes":"`+digest+`"`) {
		t.Fatal("answer y: no revocation in the store")
	}
}

// consent grant asks as revoke does: headless (CI on a terminal) it needs
// --yes and writes nothing; on a terminal it shows what will be trusted and
// only y grants.
func TestGrantAsksOnATerminal(t *testing.T) {
	w := newWorld(t)
	w.config(twoServers)
	before := w.store()

	screen, code := w.onTerminal([]string{"CI=true"}, "", "consent", "grant", "spy")
	if code != 2 || !strings.Contains(screen, "E315") || !strings.Contains(screen, "--yes") || w.store() != before {
		t.Fatalf("CI on a terminal: exit %d\n%s", code, screen)
	}

	screen, code = w.onTerminal(nil, "n", "consent", "grant", "spy")
	for _, want := range []string{"? remember consent for spy", "command  " + w.bin + "/spy --root /data", "cwd      " + w.project,
		"digest   v1:", "grant? [y/N]", "E316", "grant cancelled"} {
		if !strings.Contains(screen, want) {
			t.Errorf("answer n: screen lacks %q:\n%s", want, screen)
		}
	}
	if code != 1 || w.store() != before {
		t.Fatalf("answer n: exit %d, store changed: %v", code, w.store() != before)
	}

	screen, code = w.onTerminal(nil, "y", "consent", "grant", "spy")
	if code != 0 || !strings.Contains(screen, "granted v1:") {
		t.Fatalf("answer y: exit %d\n%s", code, screen)
	}
	if w.store() == before {
		t.Fatal("answer y: nothing in the store")
	}
}
