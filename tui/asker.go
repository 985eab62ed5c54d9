package tui

import (
	"context"
	"errors"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/workflow"
)

// asker carries what a backend goroutine needs a person to answer — a
// server's elicitation request, a workflow gate — into the program as a
// message, and waits for the answer on a channel. Both waits honour the
// requester's context: a server that gives up, or a run that is cancelled,
// never leaves a goroutine or a dialog behind. It implements
// engine.Elicitor, and gate is an workflow.GateFunc.
type asker struct {
	reqs chan *askRequest
	done chan struct{}
	once sync.Once
}

// askRequest is one question in flight.
type askRequest struct {
	ctx    context.Context
	elicit *engine.ElicitRequest
	sample *engine.SampleRequest
	gate   *workflow.GateRequest
	reply  chan askAnswer // buffered: the dialog never blocks on it
}

type askAnswer struct {
	elicit  engine.ElicitResponse
	sample  engine.SampleResponse
	approve bool
}

// askMsg brings a request into the program.
type askMsg struct{ req *askRequest }

// askGoneMsg says a request's context ended before it was answered.
type askGoneMsg struct{ req *askRequest }

// errAskerClosed is returned to a requester once the workbench is gone.
var errAskerClosed = errors.New("the workbench closed before the question was answered")

func newAsker() *asker {
	return &asker{reqs: make(chan *askRequest), done: make(chan struct{})}
}

// close ends every pending and future question (idempotent).
func (a *asker) close() { a.once.Do(func() { close(a.done) }) }

// listen is the Cmd that receives the next request.
func (a *asker) listen() tea.Cmd {
	return func() tea.Msg {
		select {
		case r := <-a.reqs:
			return askMsg{r}
		case <-a.done:
			return nil
		}
	}
}

// watch is the Cmd that reports a request whose context ended.
func watch(r *askRequest) tea.Cmd {
	return func() tea.Msg {
		<-r.ctx.Done()
		return askGoneMsg{r}
	}
}

func (a *asker) ask(ctx context.Context, r *askRequest) (askAnswer, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the program's watch as soon as we return
	r.ctx, r.reply = ctx, make(chan askAnswer, 1)
	select {
	case a.reqs <- r:
	case <-ctx.Done():
		return askAnswer{}, context.Cause(ctx)
	case <-a.done:
		return askAnswer{}, errAskerClosed
	}
	select {
	case ans := <-r.reply:
		return ans, nil
	case <-ctx.Done():
		return askAnswer{}, context.Cause(ctx)
	case <-a.done:
		return askAnswer{}, errAskerClosed
	}
}

// Elicit implements engine.Elicitor: the request becomes a form dialog.
func (a *asker) Elicit(ctx context.Context, req engine.ElicitRequest) (engine.ElicitResponse, error) {
	ans, err := a.ask(ctx, &askRequest{elicit: &req})
	if err != nil {
		return engine.ElicitResponse{}, err
	}
	return ans.elicit, nil
}

// gate implements workflow.GateFunc: the gate becomes a confirmation dialog.
func (a *asker) gate(ctx context.Context, req workflow.GateRequest) (bool, error) {
	ans, err := a.ask(ctx, &askRequest{gate: &req})
	if err != nil {
		return false, err
	}
	return ans.approve, nil
}
