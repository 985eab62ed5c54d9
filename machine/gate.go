package machine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/workflow"
)

// Confirmation kinds.
const (
	KindPlan    = "plan"
	KindRequest = "request"
)

// Confirmation is the data of a confirmation envelope (a success envelope:
// nothing has changed yet). Resend the identical request, through the same
// tool and in the same session, with Confirm: a server-issued nonce, single
// use, valid for NonceTTL. For kind plan, PlanID names the plan it confirms
// (for review; it confirms nothing by itself).
type Confirmation struct {
	ConfirmationRequired bool            `json:"confirmation_required"`
	Kind                 string          `json:"kind"`
	Confirm              string          `json:"confirm"`
	SideEffect           cli.SideEffect  `json:"side_effect"`
	Reason               string          `json:"reason"`
	Plan                 json.RawMessage `json:"plan"`
	PlanID               string          `json:"plan_id,omitempty"`
}

// Result is the outcome of one machine request: always exactly one JSON
// document (the child's envelope, a confirmation or an invoker refusal).
type Result struct {
	Envelope   json.RawMessage
	OK         bool
	ExitCode   *int // the child's exit status; nil for a confirmation or a refusal
	ErrorCode  fault.Code
	RequestID  string
	SideEffect cli.SideEffect
	Confirm    *Confirmation
	// Pending is set when a GateFunc asked the client and nothing ran.
	Pending bool
}

// GateAnswer is what a GateFunc decided about a plan's gates.
type GateAnswer int

// Gate answers.
const (
	GateApproved GateAnswer = iota + 1 // run with the consent flags
	GateDeclined                       // cancel: nothing runs
	GatePending                        // the client was asked; nothing runs yet
)

// GateFunc answers the gates of a plan before its run (the workflow tools
// put them to the MCP client as elicitation). It sees the child's plan data.
type GateFunc func(ctx context.Context, plan json.RawMessage) (GateAnswer, error)

// Invoker is the one execution core of the machine surface: registry lookup,
// exposure, gate and confirmation round trip, argv, child exec, audit.
type Invoker struct {
	Table   *cli.Table
	Exe     string   // the running binary (Env.Executable)
	Project string   // absolute project directory: the child's cwd
	Environ []string // the server's environment; the child's base
	Timeout time.Duration
	Nonces  *NonceStore // nil: every request that needs a confirmation is E421
	Audit   *AuditLog   // nil: every non-read run is E421
	Stderr  io.Writer   // one line per failed audit write
	Now     func() time.Time
}

// Options vary one invocation.
type Options struct {
	// Gates, when set, answers a plan's gates instead of returning a kind
	// plan confirmation for a write whose plan requires confirmation.
	Gates GateFunc
	// Session names who carries the request: the MCP session and, on sse and
	// http, the bearer identity it was opened with (never a secret). Every
	// confirmation is bound to it. Empty: the request can neither get nor
	// spend a confirmation (E421).
	Session string
	// Tool is the MCP tool that carries the request: a confirmation is good
	// only through the tool it was issued by (a workflow tool's confirmation
	// does not confirm relavium-run, nor the reverse).
	Tool string
}

func (iv *Invoker) now() time.Time {
	if iv.Now != nil {
		return iv.Now()
	}
	return time.Now()
}

func (iv *Invoker) timeout() time.Duration {
	if iv.Timeout > 0 {
		return iv.Timeout
	}
	return DefaultTimeout
}

// call is one invocation in flight.
type call struct {
	iv        *Invoker
	transport Transport
	start     time.Time
	path      string
	cmd       *cli.Command
	req       *Request
	id        string
	side      cli.SideEffect
	// doc is the command's envelope once it ran (the audit line reads its
	// data.adhoc).
	doc json.RawMessage
}

// Invoke runs the machine request raw for the command at path.
func (iv *Invoker) Invoke(ctx context.Context, transport Transport, path []string, raw []byte, opts Options) Result {
	c := &call{iv: iv, transport: transport, start: iv.now(), path: strings.Join(path, " "), req: &Request{}}
	c.cmd = iv.Table.Lookup(path)
	if c.cmd == nil {
		return c.noSuchCommand()
	}
	c.side = c.cmd.SideEffect
	req, err := ParseRequest(raw)
	if err != nil {
		c.id = RequestID(c.path, c.cmd, c.req)
		return c.refuse(err)
	}
	return iv.invokeParsed(ctx, c, req, opts)
}

// InvokeRequest runs an already-parsed request (the workflow tools build one).
func (iv *Invoker) InvokeRequest(ctx context.Context, transport Transport, path []string, req *Request, opts Options) Result {
	c := &call{iv: iv, transport: transport, start: iv.now(), path: strings.Join(path, " "), req: &Request{}}
	c.cmd = iv.Table.Lookup(path)
	if c.cmd == nil {
		return c.noSuchCommand()
	}
	return iv.invokeParsed(ctx, c, req, opts)
}

// noSuchCommand is E432. Nothing is known of the command, so the audit line
// carries the strongest side effect (failing closed).
func (c *call) noSuchCommand() Result {
	c.side = cli.Destructive
	c.id = RequestID(c.path, nil, c.req)
	return c.refuse(&cli.Error{ErrCode: CodeNoSuchCommand, Msg: fmt.Sprintf("no command %q", c.path), Exit: cli.ExitUsage})
}

func (iv *Invoker) invokeParsed(ctx context.Context, c *call, req *Request, opts Options) Result {
	c.req = req
	c.id = RequestID(c.path, c.cmd, req)
	c.side = c.cmd.SideEffect
	verdict, err := Exposure(c.cmd, req, c.transport, iv.Project)
	if verdict.SideEffect != "" {
		c.side = verdict.SideEffect
	}
	if err != nil {
		return c.refuse(err)
	}
	for _, name := range req.FlagNames() {
		if invokerFlag(c.cmd, name) {
			return c.refuse(&cli.Error{ErrCode: CodeInvokerFlag, Exit: cli.ExitUsage,
				Msg: "flag " + quoteName(name) + " belongs to the invoker: send the request without it and answer the confirmation with confirm"})
		}
	}
	if _, err := BuildArgv(iv.Table, c.cmd, req, iv.Project); err != nil {
		return c.refuse(err)
	}
	conf := c.cmd.Confirm
	planForm := conf != nil && conf.PlanFlag != "" && conf.IDFlag != ""
	if c.side == cli.Read && !planForm {
		if req.Confirm != "" {
			return c.refuse(badRequest("this request needs no confirmation; send it without confirm"))
		}
		return c.exec(ctx, argvPlan{}, false)
	}
	if c.side != cli.Read {
		if c.iv.Audit == nil {
			return c.refuse(notExposed(c.cmd, "the server has no audit log"))
		}
		if err := c.iv.Audit.Check(); err != nil {
			return c.refuse(&cli.Error{ErrCode: cli.CodeNotExposed, Exit: cli.ExitFailure,
				Msg: "refused: the audit log cannot be opened for append, so nothing that changes state may run", Cause: err})
		}
	}
	switch {
	case planForm:
		// A read with a plan form (a read workflow) still goes through its
		// plan: its gates are put to the client or come back as a kind plan
		// confirmation. It needs no audit log and is not logged when it runs.
		return c.planGate(ctx, opts)
	case c.side == cli.Write:
		if req.Confirm != "" {
			return c.refuse(badRequest("this request needs no confirmation; send it without confirm"))
		}
		return c.exec(ctx, argvPlan{}, true)
	case req.Confirm == "":
		return c.confirmation(opts, KindRequest, "", nil)
	default:
		if _, ok := c.spend(opts); !ok {
			return c.badConfirm()
		}
		return c.exec(ctx, argvPlan{consent: true}, true)
	}
}

// bindDigest is what a confirmation is bound to besides its session: the
// tool that carries the request and the full, unredacted request (confirm
// left out), so another tool, another argument or another secret value is
// another request.
func (c *call) bindDigest(opts Options) [32]byte {
	req := fullDigest(c.path, c.req)
	return sha256.Sum256([]byte(strconv.Quote(opts.Tool) + "\n" + hex.EncodeToString(req[:])))
}

// spend spends the request's confirm value; false for anything that is not a
// live confirmation issued to this session, through this tool, for this
// identical request.
func (c *call) spend(opts Options) (Grant, bool) {
	if c.iv.Nonces == nil || opts.Session == "" {
		return Grant{}, false
	}
	return c.iv.Nonces.Spend(c.req.Confirm, opts.Session, c.bindDigest(opts))
}

// badConfirm is E424.
func (c *call) badConfirm() Result {
	return c.refuse(&cli.Error{ErrCode: CodeBadConfirm, Exit: cli.ExitUsage,
		Msg: "confirm is not a live confirmation of this server for this identical request in this session through this tool " +
			"(reused, expired, unknown, issued to another session or tool, or a different request); send the request without confirm to start again"})
}

// planGate is the gate of a command with a plan form. What confirms a plan
// is never its plan id (anyone who saw it could replay it): it is a nonce
// bound to the plan id, spent once.
func (c *call) planGate(ctx context.Context, opts Options) Result {
	remote := c.side == cli.Remote || c.side == cli.Destructive
	if c.req.Confirm != "" {
		g, ok := c.spend(opts)
		if !ok {
			return c.badConfirm()
		}
		if opts.Gates == nil {
			return c.exec(ctx, argvPlan{consent: true, planID: g.PlanID}, true)
		}
		// Re-plan to put the gates to the client; when the plan moved, the
		// run is refused by the child (E450) and comes back unchanged.
		plan, planID, _, res, ok := c.plan(ctx)
		if !ok {
			return res
		}
		if planID != g.PlanID {
			return c.exec(ctx, argvPlan{consent: true, planID: g.PlanID}, true)
		}
		res = c.answerGates(ctx, opts, plan, g.PlanID)
		if res.Pending {
			// Nothing ran: the client answers the gates and resends this
			// very call, which spends the confirmation then.
			c.iv.Nonces.Reinstate(c.req.Confirm, g)
		}
		return res
	}
	plan, planID, needs, res, ok := c.plan(ctx)
	if !ok {
		return res
	}
	switch {
	case remote:
		return c.confirmation(opts, KindPlan, planID, plan)
	case needs && opts.Gates != nil:
		return c.answerGates(ctx, opts, plan, planID)
	case needs:
		return c.confirmation(opts, KindPlan, planID, plan)
	}
	return c.exec(ctx, argvPlan{planID: planID}, true)
}

func (c *call) answerGates(ctx context.Context, opts Options, plan json.RawMessage, planID string) Result {
	ans, err := opts.Gates(ctx, plan)
	switch {
	case err != nil:
		return c.refuse(&cli.Error{ErrCode: cli.CodeNotExposed, Msg: "cannot ask the client to approve the run's gates", Cause: err})
	case ans == GatePending:
		k := KindPlan
		c.audit(DecisionConfirmation, &k, nil, nil)
		return Result{Pending: true, RequestID: c.id, SideEffect: c.side}
	case ans == GateApproved:
		return c.exec(ctx, argvPlan{consent: true, planID: planID}, true)
	}
	return c.refuse(&cli.Error{ErrCode: workflow.CodeGateRefused, Exit: cli.ExitFailure,
		Msg: "the run was cancelled: the client declined its gate; nothing ran"})
}

// plan runs the plan form once and reads data.plan_id and
// data.requires_confirmation. A failed plan exec returns the child's envelope
// unchanged; a plan without both is E422.
func (c *call) plan(ctx context.Context) (plan json.RawMessage, planID string, needs bool, res Result, ok bool) {
	argv, err := buildArgv(c.iv.Table, c.cmd, c.req, c.iv.Project, argvPlan{plan: true})
	if err != nil {
		return nil, "", false, c.refuse(err), false
	}
	out := c.run(ctx, argv)
	if out.failed != nil {
		return nil, "", false, c.refuse(out.failed), false
	}
	var env struct {
		OK   bool            `json:"ok"`
		Data json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(out.doc, &env)
	if !env.OK {
		return nil, "", false, c.childResult(out.doc, out.exit, true), false
	}
	var data struct {
		PlanID               *string  `json:"plan_id"`
		RequiresConfirmation *bool    `json:"requires_confirmation"`
		MissingInputs        []string `json:"missing_inputs"`
	}
	if err := json.Unmarshal(env.Data, &data); err == nil && len(data.MissingInputs) > 0 {
		// The plan form shows a person an incomplete plan; a request that
		// would run it lacks required inputs, refused as the run refuses them.
		return nil, "", false, c.refuse(&cli.Error{ErrCode: workflow.CodeInputsInvalid, Exit: cli.ExitUsage,
			Msg: fmt.Sprintf("required workflow input(s) missing: %s", strings.Join(data.MissingInputs, ", "))}), false
	}
	if err := json.Unmarshal(env.Data, &data); err != nil || data.PlanID == nil || !isConfirmValue(*data.PlanID) || data.RequiresConfirmation == nil {
		return nil, "", false, c.refuse(&cli.Error{ErrCode: CodeNoDocument,
			Msg: "the plan form did not return a valid data.plan_id (64 hex) and data.requires_confirmation"}), false
	}
	return env.Data, *data.PlanID, *data.RequiresConfirmation, Result{}, true
}

// confirmation issues a confirmation (a nonce bound to this session, this
// tool, this request and, for kind plan, the plan id) and returns its
// envelope; nothing ran. A server without a confirmation store, or a request
// that arrived outside any session, gets E421 instead.
func (c *call) confirmation(opts Options, kind, planID string, plan json.RawMessage) Result {
	if c.iv.Nonces == nil {
		return c.refuse(notExposed(c.cmd, "this server has no confirmation store"))
	}
	if opts.Session == "" {
		return c.refuse(notExposed(c.cmd, "the request reached the invoker outside an MCP session, so there is no session to bind its confirmation to"))
	}
	nonce, err := c.iv.Nonces.Issue(opts.Session, c.bindDigest(opts), planID)
	if err != nil {
		return c.refuse(&cli.Error{ErrCode: cli.CodeNotExposed, Msg: "cannot issue a confirmation", Cause: err})
	}
	if plan == nil {
		plan = json.RawMessage("null")
	}
	once := fmt.Sprintf("it is good once, in this session, through this tool, for %s", NonceTTL)
	reason := fmt.Sprintf("%q is %s: send the identical request again with \"confirm\": \"<confirm>\" to run it (%s)", c.path, c.side, once)
	if kind == KindPlan {
		reason = fmt.Sprintf("%q (%s) needs plan %s confirmed: review plan, then send the identical request again with \"confirm\" set to this confirmation's confirm value, not the plan id (%s)", c.path, c.side, planID, once)
	}
	conf := &Confirmation{ConfirmationRequired: true, Kind: kind, Confirm: nonce, SideEffect: c.side, Reason: reason, Plan: plan, PlanID: planID}
	env, _ := cli.MarshalJSON(cli.Envelope{OK: true, Data: conf})
	k := kind
	c.audit(DecisionConfirmation, &k, nil, nil)
	return Result{Envelope: env, OK: true, RequestID: c.id, SideEffect: c.side, Confirm: conf}
}

// refuse returns an invoker refusal envelope, audited.
func (c *call) refuse(err error) Result {
	code := cli.CodeOf(err)
	env, _ := cli.MarshalJSON(cli.ErrorEnvelope(err))
	c.audit(DecisionRefused, nil, nil, &code)
	return Result{Envelope: env, ErrorCode: code, RequestID: c.id, SideEffect: c.side}
}

// confirmKind names the confirmation a run went through, if any.
func (c *call) confirmKind() *string {
	if c.req.Confirm == "" {
		return nil
	}
	k := KindRequest
	if c.cmd.Confirm != nil && c.cmd.Confirm.PlanFlag != "" {
		k = KindPlan
	}
	return &k
}

// audit appends one record. Reads that run are not logged. A failed write
// prints one line on the server's stderr (never the request).
func (c *call) audit(decision string, kind *string, exit *int, code *fault.Code) {
	if decision == DecisionRun && c.side == cli.Read {
		return
	}
	if c.iv.Audit == nil {
		return
	}
	red := c.req.Redact(c.cmd, true)
	for i, a := range red.Args {
		red.Args[i] = RedactText(a, nil)
	}
	for name, v := range red.Flags {
		switch x := v.(type) {
		case FlagValue:
			if x.Kind == KindString {
				x.Str = RedactText(x.Str, nil)
			}
			if x.List != nil { // a copy: the list is shared with the request
				list := make([]string, len(x.List))
				for i, s := range x.List {
					list[i] = RedactText(s, nil)
				}
				x.List = list
			}
			red.Flags[name] = x
		}
	}
	rec := AuditRecord{
		Time: auditTime(c.start), Transport: c.transport, Project: c.iv.Project, Command: c.path,
		SideEffect: c.side, Decision: decision, ConfirmKind: kind, RequestID: c.id, Request: red,
		ExitCode: exit, ErrorCode: code, DurationMS: c.iv.now().Sub(c.start).Milliseconds(),
		Adhoc: adhocOf(c.req, c.doc),
	}
	if err := c.iv.Audit.Append(rec); err != nil && c.iv.Stderr != nil {
		fmt.Fprintf(c.iv.Stderr, "relavium mcp serve: audit log write failed: %v\n", err)
	}
}
