package asker

import (
	"context"
	"errors"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/workflow"
)

// Asker carries what a backend goroutine needs a person to answer — a
// server's elicitation request, a workflow gate — into the program as a
// message, and waits for the answer on a channel. Both waits honour the
// requester's context: a server that gives up, or a run that is cancelled,
// never leaves a goroutine or a dialog behind. It implements
// engine.Elicitor and engine.Sampler, and Gate is a workflow.GateFunc.
type Asker struct {
	reqs chan *Request
	done chan struct{}
	once sync.Once
}

// Request is one question in flight: one of Elicit, Sample and Gate is
// set; Ctx is the requester's (its end is GoneMsg).
type Request struct {
	Ctx    context.Context
	Elicit *engine.ElicitRequest
	Sample *engine.SampleRequest
	Gate   *workflow.GateRequest
	reply  chan Answer // buffered: the dialog never blocks on it
}

// Answer is the person's answer to a Request (the part its kind uses).
type Answer struct {
	Elicit  engine.ElicitResponse
	Sample  engine.SampleResponse
	Approve bool
}

// Msg brings a request into the program.
type Msg struct{ Req *Request }

// GoneMsg says a request's context ended before it was answered.
type GoneMsg struct{ Req *Request }

// ErrClosed is returned to a requester once the workbench is gone.
var ErrClosed = errors.New("the workbench closed before the question was answered")

// New is an asker with no question pending.
func New() *Asker {
	return &Asker{reqs: make(chan *Request), done: make(chan struct{})}
}

// Close ends every pending and future question (idempotent).
func (a *Asker) Close() { a.once.Do(func() { close(a.done) }) }

// Listen is the Cmd that receives the next request.
func (a *Asker) Listen() tea.Cmd {
	return func() tea.Msg {
		select {
		case r := <-a.reqs:
			return Msg{r}
		case <-a.done:
			return nil
		}
	}
}

// Watch is the Cmd that reports a request whose context ended.
func Watch(r *Request) tea.Cmd {
	return func() tea.Msg {
		<-r.Ctx.Done()
		return GoneMsg{r}
	}
}

func (a *Asker) ask(ctx context.Context, r *Request) (Answer, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the program's watch as soon as we return
	r.Ctx, r.reply = ctx, make(chan Answer, 1)
	select {
	case a.reqs <- r:
	case <-ctx.Done():
		return Answer{}, context.Cause(ctx)
	case <-a.done:
		return Answer{}, ErrClosed
	}
	select {
	case ans := <-r.reply:
		return ans, nil
	case <-ctx.Done():
		return Answer{}, context.Cause(ctx)
	case <-a.done:
		return Answer{}, ErrClosed
	}
}

// Elicit implements engine.Elicitor: the request becomes a form dialog.
func (a *Asker) Elicit(ctx context.Context, req engine.ElicitRequest) (engine.ElicitResponse, error) {
	ans, err := a.ask(ctx, &Request{Elicit: &req})
	if err != nil {
		return engine.ElicitResponse{}, err
	}
	return ans.Elicit, nil
}

// Gate implements workflow.GateFunc: the gate becomes a confirmation dialog.
func (a *Asker) Gate(ctx context.Context, req workflow.GateRequest) (bool, error) {
	ans, err := a.ask(ctx, &Request{Gate: &req})
	if err != nil {
		return false, err
	}
	return ans.Approve, nil
}

// Sample implements engine.Sampler: the request becomes a dialog.
func (a *Asker) Sample(ctx context.Context, req engine.SampleRequest) (engine.SampleResponse, error) {
	ans, err := a.ask(ctx, &Request{Sample: &req})
	if err != nil {
		return engine.SampleResponse{}, err
	}
	return ans.Sample, nil
}

// ShowsURLs says the workbench shows url-mode elicitation (a safety screen).
func (a *Asker) ShowsURLs() bool { return true }

// Reply hands an answer back without ever blocking (the channel holds one).
func Reply(r *Request, a Answer) {
	select {
	case r.reply <- a:
	default:
	}
}
