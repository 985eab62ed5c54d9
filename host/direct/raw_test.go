package direct

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzRawTake: whatever a server sends, the raw path's reader neither
// panics nor takes a message that is not an answer to one of its own ids.
func FuzzRawTake(f *testing.F) {
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
		msg, err := jsonrpc.DecodeMessage(data)
		if err != nil {
			return
		}
		var r Raw
		ch := make(chan *jsonrpc.Response, 1)
		r.waiters = map[string]chan *jsonrpc.Response{"relavium-raw-1": ch}
		took := r.Take(msg)
		resp, isResp := msg.(*jsonrpc.Response)
		if took {
			id, _ := resp.ID.Raw().(string)
			if !isResp || len(id) < len(rawPrefix) || id[:len(rawPrefix)] != rawPrefix {
				t.Fatalf("took a message that answers no raw request: %s", data)
			}
		}
	})
}
