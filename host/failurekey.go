package host

import (
	"errors"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/relavium/relavium/fault"
)

// FailureKey is how a failed request is counted in a load's report (mcp
// bench, the workbench's b): the server's JSON-RPC error code when it
// answered with one ("jsonrpc -32602"), "timeout" for a call past its
// deadline, else the failure's relavium code ("E503"). One key per failure
// a person would fix differently, never the message (which a server could
// make unique per request).
func FailureKey(err error) string {
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
