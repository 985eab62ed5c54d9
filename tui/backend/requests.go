package backend

import (
	"context"
	"encoding/json"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/loadtest"
)

// ClientRequests is the part of the Backend behind them.
type ClientRequests interface {
	// SetLogLevel asks server for level (logging/setLevel).
	SetLogLevel(ctx context.Context, server, level string) error
	// SubscribeResource and UnsubscribeResource start and end a
	// subscription to uri on server; its updates arrive on the event
	// stream as mcp:resource_updated.
	SubscribeResource(ctx context.Context, server, uri string) error
	UnsubscribeResource(ctx context.Context, server, uri string) error
	// Complete asks server to complete argument arg of ref (typed so far:
	// value; known: the arguments already filled in).
	Complete(ctx context.Context, server string, ref host.CompletionRef, arg, value string, known map[string]string) (*host.Completion, error)
	// Save writes part n of job (data of mimeType) to a file of its own
	// under <home>/saved and returns its path.
	Save(job string, n int, mimeType string, data []byte) (string, error)
	TaskRequests // tasks (tui/tasks.go)
}

// TaskRequests is the part of the Backend behind tasks.
type TaskRequests interface {
	CallTask(ctx context.Context, tool engine.ToolDef, args json.RawMessage) (*host.Task, *engine.ToolResult, error)
	GetTask(ctx context.Context, server, taskID string) (*host.Task, error)
	TaskResult(ctx context.Context, server, taskID string) (*engine.ToolResult, error)
	CancelTask(ctx context.Context, server, taskID string) (*host.Task, error)
	Tasks(ctx context.Context, server string) ([]*host.Task, error)
}

// BenchRequests is the part of the Backend behind loads.
type BenchRequests interface {
	// Bench loads tool with args by plan (loadtest's open or closed loop);
	// live gets the figures so far a few times a second (from a goroutine
	// of the run's: it must not block). Cancelling ctx ends the run early.
	Bench(ctx context.Context, tool engine.ToolDef, args json.RawMessage, plan loadtest.Plan, live func(*loadtest.Report)) (*loadtest.Report, error)
}
