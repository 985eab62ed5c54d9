package machine

import (
	"net/http"

	"github.com/relavium/relavium/inbound"
	"github.com/relavium/relavium/invoke/cli"
)

// jsonrpcServerError is the JSON-RPC code of a refused new session on
// http/sse (inbound.ErrorDoc writes the document).
const jsonrpcServerError = -32000

// writeJSONRPCError answers an HTTP request with one JSON-RPC error.
func writeJSONRPCError(w http.ResponseWriter, status, code int, err *cli.Error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(inbound.ErrorDoc(code, err))
}
