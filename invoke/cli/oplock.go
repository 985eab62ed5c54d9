package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/filelock"
)

// CodeOperationLocked is E460: another command holds the project operation
// lock.
const CodeOperationLocked fault.Code = "E460"

// OpLock is the project operation lock: every command whose effective side
// effect is not read holds it while it runs (typed in a terminal or run as a
// machine child alike), so mutations of one project serialise. It is an
// flock on <home>/locks/project-<sha256(project)[:16]>.lock, taken without
// waiting: contention is E460. The kernel drops it when the process dies.
type OpLock struct {
	f *os.File
}

// OpLockPath is the lock file of a project.
func OpLockPath(home, project string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(project)))
	return filepath.Join(home, "locks", "project-"+hex.EncodeToString(sum[:8])+".lock")
}

// AcquireOpLock takes the project operation lock or returns E460 naming the
// holder's pid when another process has it.
func AcquireOpLock(home, project string) (*OpLock, error) {
	path := OpLockPath(home, project)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, &Error{ErrCode: CodeOperationLocked, Msg: "cannot create the lock directory " + filepath.Dir(path), Cause: err}
	}
	f, err := filelock.OpenNoFollow(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, &Error{ErrCode: CodeOperationLocked, Msg: "cannot open the project operation lock " + path, Cause: err}
	}
	if busy, err := filelock.TryLock(f, true); busy || err != nil {
		holder := lockHolder(f)
		f.Close()
		if busy {
			return nil, &Error{ErrCode: CodeOperationLocked,
				Msg: fmt.Sprintf("another relavium command%s is changing project %s; try again when it has finished", holder, project)}
		}
		return nil, &Error{ErrCode: CodeOperationLocked, Msg: "cannot lock " + path, Cause: err}
	}
	// Record the holder for the next contender's message (best effort).
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &OpLock{f: f}, nil
}

func lockHolder(f *os.File) string {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	if err != nil || pid <= 0 {
		return ""
	}
	return fmt.Sprintf(" (pid %d)", pid)
}

// Release drops the lock.
func (l *OpLock) Release() {
	if l != nil && l.f != nil {
		_ = l.f.Close()
		l.f = nil
	}
}

// effectiveSideEffect is a parsed invocation's side effect after its flags
// escalate it; the plan form of a command reads only.
func effectiveSideEffect(inv *Invocation) SideEffect {
	cmd := inv.Cmd
	if cmd.Confirm != nil && cmd.Confirm.PlanFlag != "" && inv.Changed(cmd.Confirm.PlanFlag) && inv.Bool(cmd.Confirm.PlanFlag) {
		return Read
	}
	se := cmd.SideEffect
	if cmd.SideEffectFor != nil {
		s, err := cmd.SideEffectFor(inv.Global.Project, inv.Args)
		if err != nil || !s.Known() {
			s = Destructive
		}
		se = s
	}
	for _, f := range cmd.Flags {
		if f.Escalates == "" || !inv.Changed(f.Name) {
			continue
		}
		if f.Type == Bool && !inv.Bool(f.Name) {
			continue
		}
		if f.Escalates.Rank() > se.Rank() {
			se = f.Escalates
		}
	}
	return se
}

// holdOpLock takes the project operation lock for an invocation whose
// effective side effect is not read; nil when none is needed.
func holdOpLock(inv *Invocation) (*OpLock, error) {
	if inv.Cmd == nil || inv.Cmd.Run == nil || effectiveSideEffect(inv) == Read {
		return nil, nil
	}
	return AcquireOpLock(inv.Env.Home, inv.Global.Project)
}
