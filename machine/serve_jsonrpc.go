package machine

import (
	"net/http"

	"github.com/relavium/relavium/invoke"
)

// JSON-RPC error codes `mcp serve` answers with outside the SDK (a refused
// line on stdio, a refused new session on http/sse). The relavium code (E…)
// leads the message and is repeated in data.code.
const (
	jsonrpcParseError     = -32700
	jsonrpcInvalidRequest = -32600
	jsonrpcServerError    = -32000
)

// jsonrpcErrorDoc is one JSON-RPC error response with a null id (the request
// it answers could not be read, or has no id to answer).
func jsonrpcErrorDoc(code int, err *invoke.Error) []byte {
	type data struct {
		Code string `json:"code"`
	}
	type jerr struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    data   `json:"data"`
	}
	doc, _ := invoke.MarshalJSON(struct {
		JSONRPC string  `json:"jsonrpc"`
		ID      *string `json:"id"`
		Error   jerr    `json:"error"`
	}{"2.0", nil, jerr{Code: code, Message: string(err.ErrCode) + ": " + err.Msg, Data: data{Code: string(err.ErrCode)}}})
	return doc
}

// writeJSONRPCError answers an HTTP request with one JSON-RPC error.
func writeJSONRPCError(w http.ResponseWriter, status, code int, err *invoke.Error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(jsonrpcErrorDoc(code, err))
}
