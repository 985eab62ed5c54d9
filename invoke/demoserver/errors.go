package demoserver

import (
	"errors"

	"github.com/relavium/relavium/fault"
)

// Error codes of the demo server (E800–E819).
const (
	// CodeBadPort: --port is outside 0..65535.
	CodeBadPort fault.Code = "E800"
	// CodeHostNotLoopback: --host is not a loopback address.
	CodeHostNotLoopback fault.Code = "E801"
	// CodeListen: the HTTP listener could not be opened (port in use, …).
	CodeListen fault.Code = "E802"
	// CodeServe: the transport failed while serving.
	CodeServe fault.Code = "E803"
	// CodeNoJSON: demo-server speaks MCP on its streams; --json has no meaning.
	CodeNoJSON fault.Code = "E804"
)

// Error is the repository's coded error (package fault). Usage mistakes
// exit 2; runtime failures exit 1 (each code's class in Codes).
type Error = fault.Error

// errServerClosing ends a tool handler's wait when the server shuts down.
var errServerClosing = errors.New("the demo server is shutting down")
