package inbound

import (
	"encoding/json"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
)

// JSON-RPC error codes relavium's own servers answer with outside the SDK (a
// refused line on stdio, a refused new session on http/sse). The relavium
// code (E…) leads the message and is repeated in data.code.
const (
	ParseError     = -32700
	InvalidRequest = -32600
)

// ErrorDoc is one JSON-RPC error response with a null id (the request it
// answers could not be read, or has no id to answer), escaped as every
// JSON document relavium writes is (sanitize.EscapeJSON).
func ErrorDoc(code int, err *fault.Error) []byte {
	type data struct {
		Code string `json:"code"`
	}
	type jerr struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    data   `json:"data"`
	}
	doc, _ := json.Marshal(struct {
		JSONRPC string  `json:"jsonrpc"`
		ID      *string `json:"id"`
		Error   jerr    `json:"error"`
	}{"2.0", nil, jerr{Code: code, Message: string(err.ErrCode) + ": " + err.Msg, Data: data{Code: string(err.ErrCode)}}})
	return sanitize.EscapeJSON(doc)
}
