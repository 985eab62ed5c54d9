package machine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/relavium/relavium/inbound"
	"github.com/relavium/relavium/invoke/cli"
)

// Child limits (docs/machine-invoker.md "Timeout and output limits").
const (
	DefaultTimeout  = 300 * time.Second
	KillGrace       = 5 * time.Second // SIGTERM -> SIGKILL
	MaxStdoutBytes  = 32 << 20
	stderrRingBytes = 64 << 10
	CauseTailBytes  = 2 << 10
	// pipeDrainWait bounds how long the readers may outlive the child's
	// group (a grandchild that left the group may hold a pipe open).
	pipeDrainWait = 2 * time.Second
)

// Child environment names (docs/machine-invoker.md "Child environment").
const (
	EnvNonInteractive = "RELAVIUM_NONINTERACTIVE"
	EnvInvokedBy      = "RELAVIUM_INVOKED_BY"
)

// execSpec is one child run.
type execSpec struct {
	exe       string // the running binary; never looked up on PATH
	argv      []string
	dir       string
	env       []string
	timeout   time.Duration // 0 = none (NDJSON)
	invokedBy string
	path      string // RELAVIUM_INVOKE_PATH
}

// childOutcome is what a child left behind.
type childOutcome struct {
	stdout   []byte
	overflow bool // stdout passed MaxStdoutBytes (the rest was drained)
	stderr   []byte
	exitCode int
	timedOut bool // the timeout fired or the request was cancelled
	startErr error
	duration time.Duration
}

// childEnv is the server's environment with the documented changes: every name
// below is dropped first, then set; RELAVIUM_MCP_TOKEN is removed.
func childEnv(base []string, invokedBy, path string, deadline time.Duration) []string {
	drop := map[string]bool{inbound.EnvMCPToken: true, EnvNonInteractive: true, "CI": true, "NO_COLOR": true,
		EnvInvokedBy: true, cli.EnvDeadlineMS: true, cli.EnvInvokePath: true}
	out := make([]string, 0, len(base)+6)
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if !drop[name] {
			out = append(out, kv)
		}
	}
	out = append(out, EnvNonInteractive+"=1", "CI=1", "NO_COLOR=1", EnvInvokedBy+"="+invokedBy, cli.EnvInvokePath+"="+path)
	if deadline > 0 {
		out = append(out, cli.EnvDeadlineMS+"="+strconv.FormatInt(deadline.Milliseconds(), 10))
	}
	return out
}

// cappedBuffer keeps the first max bytes and drains the rest, so the child
// never blocks on a full pipe.
type cappedBuffer struct {
	max      int
	buf      bytes.Buffer
	overflow bool
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		if len(p) <= room {
			c.buf.Write(p)
			return len(p), nil
		}
		c.buf.Write(p[:room])
	}
	c.overflow = true
	return len(p), nil
}

// ringBuffer keeps the last max bytes.
type ringBuffer struct {
	max int
	buf []byte
}

func (r *ringBuffer) Write(p []byte) (int, error) {
	r.buf = append(r.buf, p...)
	if over := len(r.buf) - r.max; over > 0 {
		r.buf = append(r.buf[:0:0], r.buf[over:]...)
	}
	return len(p), nil
}

// runChild runs one child in its own process group with no stdin. On the
// timeout or ctx's end the group gets SIGTERM, and SIGKILL KillGrace later or
// as soon as the child is gone; any member left after the child exits is
// killed too, so nothing outlives the request.
func runChild(ctx context.Context, s execSpec) childOutcome {
	start := time.Now()
	var out childOutcome
	if ctx.Err() != nil { // cancelled before it started: nothing is spawned
		out.timedOut = true
		return out
	}
	cmd, outR, errR, err := startChild(s)
	if err != nil {
		out.startErr = err
		return out
	}
	pgid := cmd.Process.Pid
	stdout := &cappedBuffer{max: MaxStdoutBytes}
	stderr := &ringBuffer{max: stderrRingBytes}
	var readers sync.WaitGroup
	readers.Add(2)
	go func() { defer readers.Done(); _, _ = io.Copy(stdout, outR) }()
	go func() { defer readers.Done(); _, _ = io.Copy(stderr, errR) }()

	var werr error
	werr, out.timedOut = awaitChild(ctx, cmd, pgid, s.timeout)
	killGroup(pgid, syscall.SIGKILL) // members left behind by a child that exited
	drainPipes(&readers, outR, errR)

	out.stdout = stdout.buf.Bytes()
	out.overflow = stdout.overflow
	out.stderr = stderr.buf
	out.exitCode = exitCodeOf(werr, cmd)
	out.duration = time.Since(start)
	return out
}

// startChild starts s in its own process group, its stdout and stderr on
// pipes whose read ends it returns (the write ends are the child's only).
func startChild(s execSpec) (cmd *exec.Cmd, outR, errR *os.File, err error) {
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, nil, nil, err
	}
	env := childEnv(s.env, s.invokedBy, s.path, s.timeout)
	cmd = &exec.Cmd{
		Path:        s.exe,
		Args:        append([]string{s.exe}, s.argv...),
		Dir:         s.dir,
		Env:         env,
		Stdout:      outW,
		Stderr:      errW,
		SysProcAttr: childProcAttr(),
	}
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, nil, nil, err
	}
	return cmd, outR, errR, nil
}

// awaitChild waits for cmd to exit, at most timeout (0: no limit) and
// while ctx lasts. Past either, its group gets SIGTERM, then SIGKILL after
// KillGrace or once it exited.
func awaitChild(ctx context.Context, cmd *exec.Cmd, pgid int, timeout time.Duration) (werr error, timedOut bool) {
	waitCh := make(chan error, 1)
	go func() { waitCh <- cmd.Wait() }()
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	select {
	case werr = <-waitCh:
	case <-expired:
		timedOut = true
	case <-ctx.Done():
		timedOut = true
	}
	if timedOut {
		killGroup(pgid, syscall.SIGTERM)
		grace := time.NewTimer(KillGrace)
		select {
		case werr = <-waitCh:
			killGroup(pgid, syscall.SIGKILL)
		case <-grace.C:
			killGroup(pgid, syscall.SIGKILL)
			werr = <-waitCh
		}
		grace.Stop()
	}
	return werr, timedOut
}

// drainPipes waits for the readers to reach the pipes' ends, at most
// pipeDrainWait (a grandchild may hold a write end open), then closes them.
func drainPipes(readers *sync.WaitGroup, outR, errR *os.File) {
	drained := make(chan struct{})
	go func() { readers.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(pipeDrainWait):
		outR.Close()
		errR.Close()
		<-drained
	}
	outR.Close()
	errR.Close()
}

func exitCodeOf(err error, cmd *exec.Cmd) int {
	if cmd.ProcessState != nil {
		if code := cmd.ProcessState.ExitCode(); code >= 0 {
			return code
		}
		return 128 + signalOf(cmd.ProcessState)
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return cli.ExitFailure
}

func signalOf(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return int(ws.Signal())
	}
	return 0
}

// singleObject returns stdout when it is exactly one JSON object (surrounding
// whitespace allowed), else false.
func singleObject(stdout []byte) (json.RawMessage, bool) {
	trimmed := bytes.TrimSpace(stdout)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, false
	}
	if int(dec.InputOffset()) != len(trimmed) {
		return nil, false
	}
	return raw, true
}

// secretKeyRE is a name that looks secret (IsSecretKey's words).
const secretKeyRE = `[A-Za-z0-9_.-]*(?:SECRET|PASS|KEY|TOKEN|CREDENTIAL|WEBHOOK|PRIVATE|DSN|SALT)[A-Za-z0-9_.-]*`

// redaction is one rule of the usual redaction: what matches re becomes repl.
type redaction struct {
	re   *regexp.Regexp
	repl string
}

// usualRedaction scrubs what looks like a credential from free text: a JSON
// member whose name looks secret (also inside an escaped JSON string), the
// password of a URL's userinfo, bearer tokens and KEY=value pairs whose key
// looks secret. JSON members go first, so the KEY=value rule never sees them.
var usualRedaction = []redaction{
	{regexp.MustCompile(`(?i)("` + secretKeyRE + `"\s*:\s*)("(?:[^"\\\n]|\\.)*"|[^\s",}\]]+)`), `${1}"` + Redacted + `"`},
	{regexp.MustCompile(`(?i)(\\"` + secretKeyRE + `\\"\s*:\s*)(\\"[^"\n]*?\\"|[^\s",}\]\\]+)`), `${1}\"` + Redacted + `\"`},
	{regexp.MustCompile(`(?i)(\b[a-z][a-z0-9+.-]*://[^/\s:@]*:)[^@\s/]+(@)`), "${1}" + Redacted + "${2}"},
	{regexp.MustCompile(`(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]+`), "${1}" + Redacted},
	{regexp.MustCompile(`(?i)(\b` + secretKeyRE + `\s*[=:]\s*)("[^"\n]*"|'[^'\n]*'|[^\s,;]+)`), "${1}" + Redacted},
}

// RedactText replaces every secret value and applies the usual redaction.
func RedactText(s string, secrets []string) string {
	for _, v := range secrets {
		if v != "" {
			s = strings.ReplaceAll(s, v, Redacted)
		}
	}
	for _, r := range usualRedaction {
		s = r.re.ReplaceAllString(s, r.repl)
	}
	return s
}

// stderrTail is the cause of an E422: the last CauseTailBytes of the child's
// stderr after redaction (redacting first, so a secret cut at the boundary is
// still caught), as valid UTF-8.
func stderrTail(stderr []byte, secrets []string) string {
	s := RedactText(string(stderr), secrets)
	if len(s) > CauseTailBytes {
		s = s[len(s)-CauseTailBytes:]
	}
	return strings.ToValidUTF8(s, "")
}
