package host

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/tasks"
)

// FuzzTaskID: whatever a server sends, a task host decodes has a plain id
// (the raw path's own reader is fuzzed in host/direct).
func FuzzTaskID(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":"relavium-raw-1","result":{"task":{"taskId":"t1","status":"working"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","serverInfo":{"name":"x"},"capabilities":{"tasks":{"list":{}}}}}`,
		`{"jsonrpc":"2.0","id":"relavium-raw-x","error":{"code":-32602,"message":"nope"}}`,
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`,
		`{"jsonrpc":"2.0","id":"other","result":null}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := jsonrpc.DecodeMessage(data); err != nil {
			return
		}
		c := &conn{srv: Endpoint{Name: "s"}}
		task, err := c.task(tasks.Wire{TaskID: string(data)})
		if err == nil && (task.TaskID == "" || len(task.TaskID) > 256) {
			t.Fatalf("task id %q accepted", task.TaskID)
		}
		if err != nil && fault.CodeOf(err, "") != failure.CodeBadTask {
			t.Fatalf("a refused task id is not E926: %v", err)
		}
	})
}
