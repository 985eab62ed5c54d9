package backend

import (
	"github.com/relavium/relavium/fault"
)

// Error codes owned by the TUI (E700–E719; E700 is themes'). They are
// stable: docs/error-codes.md documents them.
const (
	CodeNotConnected    fault.Code = "E701" // a server the request needs is not connected in this session
	CodeUnknownServer   fault.Code = "E702" // a server name the session does not declare
	CodeWorkflowServers fault.Code = "E703" // a workflow names a server this session did not connect
	CodeExportFailed    fault.Code = "E704" // the session export could not be written
	CodeProgram         fault.Code = "E705" // the terminal program failed (the terminal could not be driven)
	CodeSessionClosed   fault.Code = "E706" // the session is closing; nothing new starts
	CodeSaveFailed      fault.Code = "E924" // a result's part could not be saved to a file
	CodeWireExport      fault.Code = "E970" // the protocol or network view's export could not be written
)

// Error is the repository's coded error (package fault).
type Error = fault.Error
