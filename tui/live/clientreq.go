package live

import (
	"context"
	"encoding/json"

	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/loadtest"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
)

// The live backend's client requests: each goes to the server's host.

func (l *Adapter) SetLogLevel(ctx context.Context, server, level string) error {
	h, err := l.hostOf(server)
	if err != nil {
		return err
	}
	return h.SetLogLevel(ctx, server, level)
}

func (l *Adapter) SubscribeResource(ctx context.Context, server, uri string) error {
	h, err := l.hostOf(server)
	if err != nil {
		return err
	}
	return h.Subscribe(ctx, server, uri)
}

func (l *Adapter) UnsubscribeResource(ctx context.Context, server, uri string) error {
	h, err := l.hostOf(server)
	if err != nil {
		return err
	}
	return h.Unsubscribe(ctx, server, uri)
}

func (l *Adapter) Complete(ctx context.Context, server string, ref host.CompletionRef, arg, value string, known map[string]string) (*host.Completion, error) {
	h, err := l.hostOf(server)
	if err != nil {
		return nil, err
	}
	return h.Complete(ctx, server, ref, arg, value, known)
}

func (l *Adapter) CallTask(ctx context.Context, tool engine.ToolDef, args json.RawMessage) (*host.Task, *engine.ToolResult, error) {
	h, err := l.hostOf(tool.Server)
	if err != nil {
		return nil, nil, err
	}
	return h.CallTask(ctx, tool.ID, args, 0)
}

func (l *Adapter) GetTask(ctx context.Context, server, taskID string) (*host.Task, error) {
	h, err := l.hostOf(server)
	if err != nil {
		return nil, err
	}
	return h.GetTask(ctx, server, taskID)
}

func (l *Adapter) TaskResult(ctx context.Context, server, taskID string) (*engine.ToolResult, error) {
	h, err := l.hostOf(server)
	if err != nil {
		return nil, err
	}
	return h.TaskResult(ctx, server, taskID)
}

func (l *Adapter) CancelTask(ctx context.Context, server, taskID string) (*host.Task, error) {
	h, err := l.hostOf(server)
	if err != nil {
		return nil, err
	}
	return h.CancelTask(ctx, server, taskID)
}

func (l *Adapter) Tasks(ctx context.Context, server string) ([]*host.Task, error) {
	h, err := l.hostOf(server)
	if err != nil {
		return nil, err
	}
	return h.Tasks(ctx, server)
}

// Bench loads tool on its server's host, without events (a load of
// thousands of calls does not flood the event log): pipelined on a stdio
// server (host.LoadToolPipe, the arguments checked against the schema
// once), else each request a host call (the path a call takes: schema,
// deadlines, redaction).
func (l *Adapter) Bench(ctx context.Context, tool engine.ToolDef, args json.RawMessage, plan loadtest.Plan, live func(*loadtest.Report)) (*loadtest.Report, error) {
	h, err := l.hostOf(tool.Server)
	if err != nil {
		return nil, err
	}
	opts := loadtest.Options{Live: live}
	var rep *loadtest.Report
	if h.Pipelined(tool.Server) { // stdio: pipelined, so the client stays out of the figures
		rep, err = loadtest.RunPipes(ctx, plan, func(answer loadtest.Answer) ([]loadtest.Pipe, error) {
			p, err := h.LoadToolPipe(tool.ID, []json.RawMessage{args}, func(i int, key string) { answer(i, loadtest.Outcome{Error: key}) })
			if err != nil {
				return nil, err
			}
			return []loadtest.Pipe{p}, nil
		}, opts)
	} else {
		rep, err = loadtest.Run(ctx, plan, func(ctx context.Context, _ int) loadtest.Outcome {
			res, err := h.Call(ctx, tool.ID, args, engine.CallOptions{Timeout: plan.Timeout})
			return loadtest.Outcome{Error: failure.OutcomeKey(res, err)}
		}, opts)
	}
	if rep != nil {
		rep.Target, rep.Server = tool.Name, tool.Server
	}
	return rep, err
}
