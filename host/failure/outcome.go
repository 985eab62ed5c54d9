package failure

import (
	"errors"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
)

// OutcomeKey is how one request of a load is counted in its report (mcp
// bench, the workbench's b): "" for a success, "isError" for a tool error,
// the server's JSON-RPC error code when it answered with one ("jsonrpc
// -32602"), "timeout" for a call past its deadline, else the failure's
// relavium code ("E503"). One key per failure a person would fix
// differently, never the message (which a server could make unique per
// request).
func OutcomeKey(res *engine.ToolResult, err error) string {
	switch {
	case err != nil:
		return failureKey(err)
	case res != nil && res.IsError:
		return "isError"
	}
	return ""
}

func failureKey(err error) string {
	var re *jsonrpc.Error
	if errors.As(err, &re) {
		return "jsonrpc " + strconv.FormatInt(re.Code, 10)
	}
	switch c := fault.CodeOf(err, ""); c {
	case CodeCallDeadline:
		return "timeout"
	case "":
		return "error"
	default:
		return string(c)
	}
}
