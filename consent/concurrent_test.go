package consent

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentAppendersLoseNothing runs 8 real processes (this test binary
// re-executed as an appender) that each append 200 grants to one store at
// once, while this process folds the store in a loop. No line may be lost,
// interleaved or torn, and no fold may ever see a partial line.
func TestConcurrentAppendersLoseNothing(t *testing.T) {
	const workers, each = 8, 200
	home := tempHome(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var folds int
	var foldErr error
	var readers sync.WaitGroup
	readers.Add(1)
	go func() {
		defer readers.Done()
		s := Open(home)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := s.Fold(); err != nil && foldErr == nil {
				foldErr = err
			}
			folds++
		}
	}()

	cmds := make([]*exec.Cmd, workers)
	outs := make([]*bytes.Buffer, workers)
	for i := range cmds {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), appenderEnv+"=1", "APPENDER_HOME="+home,
			fmt.Sprintf("APPENDER_ID=%d", i), fmt.Sprintf("APPENDER_N=%d", each))
		outs[i] = &bytes.Buffer{}
		cmd.Stdout, cmd.Stderr = outs[i], outs[i]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[i] = cmd
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("appender %d: %v\n%s", i, err, outs[i])
		}
	}
	close(stop)
	readers.Wait()
	if foldErr != nil {
		t.Fatalf("a concurrent fold failed (saw a partial line?): %v", foldErr)
	}
	t.Logf("%d folds ran during the appends", folds)

	raw, err := os.ReadFile(Open(home).Path())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	if len(lines) != workers*each {
		t.Fatalf("%d lines in the store, want %d", len(lines), workers*each)
	}
	for i, l := range lines {
		if _, reason := parseLine(l, i+1, nil, nil); reason != "" {
			t.Fatalf("line %d torn or interleaved: %s: %q", i+1, reason, l)
		}
	}
	g, err := Open(home).Fold()
	if err != nil {
		t.Fatal(err)
	}
	if g.Len() != workers*each {
		t.Fatalf("%d live grants, want %d", g.Len(), workers*each)
	}
	for w := 0; w < workers; w++ {
		for i := 0; i < each; i++ {
			if !g.Has(fakeResolved(fmt.Sprintf("w%d-%d", w, i)).Digest) {
				t.Fatalf("grant w%d-%d lost", w, i)
			}
		}
	}
}
