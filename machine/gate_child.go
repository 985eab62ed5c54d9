package machine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/invoke/cli"
)

// A call's child: the same binary run with the request's argv, its output
// reduced to exactly one JSON document, and that document passed through.

// execOutcome is a child run reduced to one document or an invoker error.
type execOutcome struct {
	doc    json.RawMessage
	exit   int
	failed error
}

// run executes argv as a child of the same binary under the invocation
// timeout and reduces its output to exactly one JSON object.
func (c *call) run(ctx context.Context, argv []string) execOutcome {
	out := runChild(ctx, execSpec{exe: c.iv.Exe, argv: argv, dir: c.iv.Project, env: c.iv.Environ,
		timeout: c.iv.timeout(), invokedBy: c.transport.invokedBy(), path: c.path})
	secrets := c.req.SecretValues(c.cmd)
	switch {
	case out.startErr != nil:
		return execOutcome{failed: &cli.Error{ErrCode: CodeNoDocument, Msg: "cannot start the child " + c.iv.Exe, Cause: out.startErr}}
	case out.timedOut:
		return execOutcome{failed: &cli.Error{ErrCode: CodeTimeout,
			Msg: fmt.Sprintf("%q did not finish within %s (or the request was cancelled); its process group was stopped", c.path, c.iv.timeout())}}
	case out.overflow:
		return execOutcome{failed: &cli.Error{ErrCode: CodeNoDocument,
			Msg: fmt.Sprintf("%q printed more than %d bytes on stdout", c.path, MaxStdoutBytes), Cause: newTail(out.stderr, secrets)}}
	}
	doc, ok := singleObject(out.stdout)
	if !ok {
		return execOutcome{failed: &cli.Error{ErrCode: CodeNoDocument,
			Msg: fmt.Sprintf("%q did not print exactly one JSON object (exit %d)", c.path, out.exitCode), Cause: newTail(out.stderr, secrets)}}
	}
	return execOutcome{doc: doc, exit: out.exitCode}
}

// tailCause is an E422 cause: the redacted stderr tail.
type tailCause []byte

func newTail(stderr []byte, secrets []string) error { return tailCause(stderrTail(stderr, secrets)) }

func (t tailCause) Error() string { return string(t) }

func (c *call) exec(ctx context.Context, p argvPlan, audited bool) Result {
	argv, err := buildArgv(c.iv.Table, c.cmd, c.req, c.iv.Project, p)
	if err != nil {
		return c.refuse(err)
	}
	out := c.run(ctx, argv)
	if out.failed != nil {
		return c.refuse(out.failed)
	}
	return c.childResult(out.doc, out.exit, audited)
}

// childResult passes the child's envelope through byte for byte.
func (c *call) childResult(doc json.RawMessage, exit int, audited bool) Result {
	var head struct {
		OK    bool `json:"ok"`
		Error *struct {
			Code fault.Code `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(doc, &head)
	var code *fault.Code
	if !head.OK && head.Error != nil && head.Error.Code != "" {
		code = &head.Error.Code
	}
	c.doc = doc
	if audited {
		c.audit(DecisionRun, c.confirmKind(), &exit, code)
	}
	r := Result{Envelope: bytes.TrimSpace(doc), OK: head.OK, ExitCode: &exit, RequestID: c.id, SideEffect: c.side}
	if code != nil {
		r.ErrorCode = *code
	}
	return r
}
