package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/relavium/relavium/atomicfile"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/tui/live"

	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/loadtest"
)

// The fake backend's client requests: recorded, answered from fixed data.

func (f *fakeBackend) SetLogLevel(_ context.Context, server, level string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.answers = append(f.answers, "level "+server+" "+level)
	return nil
}

func (f *fakeBackend) SubscribeResource(_ context.Context, server, uri string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.answers = append(f.answers, "subscribe "+server+" "+uri)
	return nil
}

func (f *fakeBackend) UnsubscribeResource(_ context.Context, server, uri string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.answers = append(f.answers, "unsubscribe "+server+" "+uri)
	return nil
}

// Complete offers languages for any argument, by prefix.
func (f *fakeBackend) Complete(_ context.Context, server string, ref host.CompletionRef, arg, value string, _ map[string]string) (*host.Completion, error) {
	f.mu.Lock()
	f.answers = append(f.answers, "complete "+server+" "+ref.Name+ref.URI+" "+arg+"="+value)
	f.mu.Unlock()
	out := &host.Completion{Values: []string{}}
	for _, v := range []string{"go", "golang", "python", "rust"} {
		if strings.HasPrefix(v, value) {
			out.Values = append(out.Values, v)
		}
	}
	return out, nil
}

// Save writes into the test's temp directory, as live does into the home.
func (f *fakeBackend) Save(job string, n int, mimeType string, data []byte) (string, error) {
	f.mu.Lock()
	if f.saveDir == "" {
		f.saveDir = f.t.TempDir()
	}
	dir := f.saveDir
	f.mu.Unlock()
	path := filepath.Join(dir, fmt.Sprintf("%s-%d%s", job, n, live.SavedExt(mimeType)))
	return path, atomicfile.Write(path, data)
}

// fakeTasks answers task requests: a task works through polls statuses,
// then completes (or is cancelled).
type fakeTasks struct {
	polls     int  // GetTask answers "working" this many times
	offered   bool // false: every request is refused as not offered
	polled    int
	cancelled bool
}

func (f *fakeBackend) CallTask(_ context.Context, tool engine.ToolDef, args json.RawMessage) (*host.Task, *engine.ToolResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.taskState.offered {
		return nil, nil, &failure.Error{Base: fault.Base{ErrCode: failure.CodeNotOffered, Msg: "does not offer tasks for tools/call"}, Server: tool.Server}
	}
	f.answers = append(f.answers, "task "+tool.Name+" "+string(args))
	return &host.Task{Server: tool.Server, TaskID: "t-1", Status: host.TaskWorking, StatusMessage: "starting"}, nil, nil
}

func (f *fakeBackend) GetTask(_ context.Context, server, taskID string) (*host.Task, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.taskState.polled++
	t := &host.Task{Server: server, TaskID: taskID, Status: host.TaskWorking, StatusMessage: fmt.Sprintf("stage %d", f.taskState.polled)}
	switch {
	case f.taskState.cancelled:
		t.Status, t.StatusMessage = host.TaskCancelled, "cancelled by the client"
	case f.taskState.polled > f.taskState.polls:
		t.Status = host.TaskCompleted
	}
	return t, nil
}

func (f *fakeBackend) TaskResult(_ context.Context, _, taskID string) (*engine.ToolResult, error) {
	return &engine.ToolResult{Content: []engine.Content{{Type: "text", Text: "the result of " + taskID}}}, nil
}

func (f *fakeBackend) CancelTask(_ context.Context, server, taskID string) (*host.Task, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.taskState.cancelled = true
	f.answers = append(f.answers, "cancel "+taskID)
	return &host.Task{Server: server, TaskID: taskID, Status: host.TaskCancelled}, nil
}

func (f *fakeBackend) Tasks(_ context.Context, server string) ([]*host.Task, error) {
	return []*host.Task{{Server: server, TaskID: "t-0", Status: host.TaskCompleted, StatusMessage: "done long ago"}}, nil
}

// Bench runs a real load (loadtest) over the fake's call: each request
// answers as a call of the tool would (echo, unless the test set call).
func (f *fakeBackend) Bench(ctx context.Context, tool engine.ToolDef, args json.RawMessage, plan loadtest.Plan, live func(*loadtest.Report)) (*loadtest.Report, error) {
	f.mu.Lock()
	f.answers = append(f.answers, "bench "+tool.Name+" "+string(args))
	call := f.call
	f.mu.Unlock()
	rep, err := loadtest.Run(ctx, plan, func(ctx context.Context, i int) loadtest.Outcome {
		if call == nil {
			return loadtest.OK
		}
		res, err := call(ctx, fmt.Sprint("bench-", i), tool, args, nil)
		return loadtest.Outcome{Error: failure.OutcomeKey(res, err)}
	}, loadtest.Options{Live: live})
	if rep != nil {
		rep.Target, rep.Server = tool.Name, tool.Server
	}
	return rep, err
}
