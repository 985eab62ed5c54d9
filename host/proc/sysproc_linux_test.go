package proc

import (
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A recorded process is signalled only while its pid still names the
// process that started at the recorded time: a reused pid is left alone.
func TestSignalExactChecksTheStartTime(t *testing.T) {
	cmd := exec.Command(hostileBin, "-mode", "sleeper")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	st, ok := ReadProcStat(cmd.Process.Pid)
	if !ok {
		t.Fatal("no /proc entry for the sleeper")
	}
	signalExact(cmd.Process.Pid, st.Start+1, syscall.SIGKILL)
	time.Sleep(50 * time.Millisecond)
	if st, ok := ReadProcStat(cmd.Process.Pid); !ok || st.State == 'Z' || st.State == 'X' {
		t.Fatal("a process with another start time was signalled")
	}
	signalExact(cmd.Process.Pid, st.Start, syscall.SIGKILL)
	if err := cmd.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("the recorded process was not killed: %v", err)
	}
}
