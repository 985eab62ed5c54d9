package proc

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/relavium/relavium/sandbox"
)

// Child is one spawned stdio server: its own process group (pgid == pid),
// three pipes whose parent ends relavium owns, the stderr ring, and the one
// goroutine that waits for it. Nothing else ever calls Wait.
type Child struct {
	cmd    *exec.Cmd
	Pid    int
	Stdin  *os.File // parent's write end (the server's stdin)
	Stdout *os.File // parent's read end (the server's stdout)
	stderr *os.File // parent's read end (the server's stderr)
	Ring   *StderrRing
	Tree   *lineage // every process seen below the server, setsid escapees included

	// release frees what a confined spawn made for the child (its private
	// temp dir, its guarded network's proxy): run once, after it is reaped.
	Release     func()
	releaseOnce sync.Once

	Exited     chan struct{} // closed once Wait returned
	waitErr    error         // set before exited is closed
	stderrDone chan struct{} // closed once the stderr copy ended
}

// Spawn starts command (absolute) in dir with exactly env, in a new process
// group. The parent ends of the pipes are close-on-exec, so a sibling
// spawned concurrently never inherits them. A confined spawn's policy adds
// the namespaces it needs (sandbox.Isolate); a kernel that refuses them
// gets the spawn again without (Landlock still confines the network).
func Spawn(command string, args, env []string, dir string, policy *sandbox.Policy) (*Child, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, err
	}
	cmd := &exec.Cmd{
		Path:        command,
		Args:        append([]string{command}, args...),
		Env:         env,
		Dir:         dir,
		Stdin:       inR,
		Stdout:      outW,
		Stderr:      errW,
		SysProcAttr: childSysProcAttr(),
	}
	if policy != nil {
		sandbox.Isolate(cmd.SysProcAttr, *policy)
	}
	err = cmd.Start()
	if err != nil && sandbox.Isolated(cmd.SysProcAttr) && cmd.Process == nil {
		attr := *cmd.SysProcAttr
		sandbox.Unisolate(&attr)
		cmd = &exec.Cmd{Path: cmd.Path, Args: cmd.Args, Env: env, Dir: dir, Stdin: inR, Stdout: outW, Stderr: errW, SysProcAttr: &attr}
		err = cmd.Start()
	}
	closeAll(inR, outW, errW) // the child's ends: the parent keeps none
	if err != nil {
		closeAll(inW, outR, errR)
		return nil, err
	}
	c := &Child{
		cmd:        cmd,
		Pid:        cmd.Process.Pid,
		Stdin:      inW,
		Stdout:     outR,
		stderr:     errR,
		Ring:       &StderrRing{},
		Tree:       newLineage(cmd.Process.Pid),
		Exited:     make(chan struct{}),
		stderrDone: make(chan struct{}),
	}
	go func() {
		c.waitErr = cmd.Wait()
		close(c.Exited)
	}()
	go func() {
		_, _ = io.Copy(c.Ring, c.stderr)
		close(c.stderrDone)
	}()
	return c, nil
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		_ = f.Close()
	}
}

// HasExited reports whether the server process has ended.
func (c *Child) HasExited() bool {
	select {
	case <-c.Exited:
		return true
	default:
		return false
	}
}

// WaitExit waits up to d for the process to end and reports whether it did.
func (c *Child) WaitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.Exited:
		return true
	case <-t.C:
		return false
	}
}

// WaitStderr waits up to d for the stderr pipe to reach EOF.
func (c *Child) WaitStderr(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.stderrDone:
	case <-t.C:
	}
}

// ExitStatus describes how the process ended ("exit status 3", "signal:
// killed"), or "" while it runs.
func (c *Child) ExitStatus() string {
	if !c.HasExited() {
		return ""
	}
	if c.waitErr == nil {
		return "exit status 0"
	}
	var ee *exec.ExitError
	if errors.As(c.waitErr, &ee) {
		return ee.ProcessState.String()
	}
	return c.waitErr.Error()
}

// Terminate ends the child, its whole process group and every process
// recorded below it that left the group (lineage.go), and returns only
// once the child is reaped, nothing of its tree is left alive and its
// stderr is drained (the MCP stdio shutdown, extended to the tree): the
// session has already closed stdin, and the server gets eofWait to exit on
// that EOF; then the group and the escapees get SIGTERM, and grace later
// SIGKILL. Orphans relavium received as subreaper are reaped.
// Idempotent in effect; safe to call on an exited child.
func (c *Child) Terminate(eofWait, grace time.Duration) {
	_ = c.Stdin.Close() // EOF: the polite request (already closed by the session, normally)
	timer := time.NewTimer(eofWait)
	select {
	case <-c.Exited:
	case <-timer.C:
	}
	timer.Stop()
	c.Tree.halt()
	c.Tree.Record()
	if c.treeAlive() {
		_ = signalGroup(c.Pid, syscall.SIGTERM)
		c.Tree.signal(syscall.SIGTERM)
		if !c.waitGone(c.treeAlive, grace) {
			_ = signalGroup(c.Pid, syscall.SIGKILL)
			c.Tree.signal(syscall.SIGKILL)
			c.waitGone(c.groupAlive, 0)
		}
	}
	<-c.Exited
	c.sweepTree()
	// Every writer of the stderr pipe is dead now, unless a member escaped
	// unrecorded: then stop reading rather than wait for it.
	timer = time.NewTimer(200 * time.Millisecond)
	select {
	case <-c.stderrDone:
	case <-timer.C:
		_ = c.stderr.Close()
		<-c.stderrDone
	}
	timer.Stop()
	_ = c.stderr.Close()
	_ = c.Stdout.Close()
	c.releaseOnce.Do(func() {
		if c.Release != nil {
			c.Release()
		}
	})
}

// sweepTree kills what is left of the recorded tree once the server is
// gone (an escapee may have started children since the last walk) and
// reaps the orphans relavium received, until none is left, or sweepLimit
// has passed (a process relavium may not signal: setuid).
func (c *Child) sweepTree() {
	pause := time.Millisecond
	deadline := time.Now().Add(sweepLimit)
	for {
		c.Tree.Record()
		c.Tree.reap()
		alive := len(c.Tree.alive()) > 0
		if !alive && !c.Tree.ownZombies() || time.Now().After(deadline) {
			return
		}
		if alive {
			c.Tree.signal(syscall.SIGKILL)
		}
		time.Sleep(pause)
		if pause < 20*time.Millisecond {
			pause *= 2
		}
	}
}

// groupAlive reports whether the child or any process of its group is still
// alive (a zombie is not).
func (c *Child) groupAlive() bool {
	if !c.HasExited() {
		return true
	}
	return groupAlive(c.Pid)
}

// treeAlive reports whether the group or any recorded escapee is alive.
func (c *Child) treeAlive() bool {
	return c.groupAlive() || len(c.Tree.alive()) > 0
}

// sweepLimit bounds sweepTree.
const sweepLimit = 5 * time.Second

// waitGone polls until the child has exited and alive reports false. With
// limit 0 it waits without bound (after SIGKILL, which cannot be ignored).
// It reports whether everything is gone.
func (c *Child) waitGone(alive func() bool, limit time.Duration) bool {
	var deadline time.Time
	if limit > 0 {
		deadline = time.Now().Add(limit)
	}
	pause := 5 * time.Millisecond
	for {
		if !alive() {
			return true
		}
		if limit > 0 && time.Now().After(deadline) {
			return false
		}
		exited := c.Exited
		if c.HasExited() {
			exited = nil // already closed: wait on the timer only
		}
		t := time.NewTimer(pause)
		select {
		case <-exited:
		case <-t.C:
		}
		t.Stop()
		if pause < 50*time.Millisecond {
			pause *= 2
		}
	}
}
