package cli

import "github.com/relavium/relavium/fault"

// Exit codes: 0 success; 1 a runtime failure or a failed or cancelled run;
// 2 an authored or usage error, or consent no one was there to give.
const (
	ExitOK      = fault.ExitOK
	ExitFailure = fault.ExitFailure
	ExitUsage   = fault.ExitUsage
)

// Coded is implemented by every relavium error that carries a stable code;
// the envelope reads it with errors.As.
type Coded = fault.Coded

// Error is the repository's coded error (package fault).
type Error = fault.Error

// Usage and dispatch error codes.
const (
	CodeUnknownCommand fault.Code = "E100" // no such command
	CodeUnknownFlag    fault.Code = "E101" // no such flag for this command
	CodeBadFlag        fault.Code = "E102" // a flag value that does not parse
	CodeBadArgs        fault.Code = "E103" // too few or too many positional arguments
	CodeGroupCommand   fault.Code = "E104" // a command group named without a subcommand
	CodeNestedJSON     fault.Code = "E105" // JSON on the command line (--args, a KEY=VALUE value) nested deeper than 256 levels
	CodeUnknownTopic   fault.Code = "E106" // help: neither a command nor a topic of the reference

	// mcp call and mcp accept (in host's range E540–E548: they name the tool
	// calls host makes, but the command line raises them; E542, E545 and E548
	// are the session core's).
	CodeToolNotFound fault.Code = "E540" // mcp call: no admitted tool has that name
	CodeBadCallArgs  fault.Code = "E541" // mcp call: --args / KEY=VALUE that do not parse
	CodeToolError    fault.Code = "E543" // mcp call: the tool returned isError
	CodeBadTarget    fault.Code = "E544" // --url/--stdio misuse (both given, empty, --allow-local-endpoint without --url)
	CodeNotFlagged   fault.Code = "E546" // mcp accept: the tool's definition is the accepted one (nothing to accept)
	CodeAcceptUsage  fault.Code = "E547" // mcp accept: give TOOL or --all (not both, not neither)
	CodeBadHeader    fault.Code = "E593" // --header: not 'Name: value', a name or value the guard refuses, or without --url
	CodePingUnknown  fault.Code = "E890" // mcp ping: SERVER names no declared server
	CodePingFailed   fault.Code = "E891" // mcp ping: a server failed to connect or to answer a ping

	// config import / export (other clients' MCP files).
	CodeImportTaken  fault.Code = "E244"         // config import --write: a server name the configuration already registers
	CodeImportEmpty  fault.Code = "E245"         // config import: the file declares no server relavium can import
	CodeExportServer fault.Code = "E246"         // config export: SERVER names no declared server
	CodeExportValue  fault.Code = "E247"         // config export: a value the other client's file cannot hold as it means (a literal secret, a default, a websocket, a cwd)
	CodeImportWrite  fault.Code = "E881"         // config import --write: .relavium/config.toml could not be written (left as it was)
	CodeImportSecret fault.Code = "E882"         // config import --write: a literal secret could not be moved to the person's secret store
	CodeInternal                = fault.Internal // a bug: an error without a code
)

// UsageErr is a usage mistake; its exit code is the code's class in Codes.
func UsageErr(code fault.Code, format string, a ...any) *Error {
	return codes.New(code, format, a...)
}

// WrapErr is a failure of code with its cause; its exit code is the code's
// class in Codes.
func WrapErr(code fault.Code, cause error, format string, a ...any) *Error {
	return codes.Wrap(code, cause, format, a...)
}

// CodeOf returns the stable code of err, or CodeInternal.
func CodeOf(err error) fault.Code { return fault.CodeOf(err, CodeInternal) }

// mcp read and mcp complete (E920–E939 is the client requests' range;
// host holds E920–E923).
const (
	CodeNoSuchServer fault.Code = "E930" // mcp read / complete: SERVER is not a declared server
	CodeBadRef       fault.Code = "E931" // mcp complete: REF is neither prompt:NAME nor resource:TEMPLATE
	CodeNoContents   fault.Code = "E932" // mcp read --output: the resource has nothing to write, or several parts
)

// mcp call --output.
const (
	CodeOutputPath  fault.Code = "E530" // --output names a directory, or a file whose directory does not exist
	CodeOutputWrite fault.Code = "E531" // the --output file could not be written; the path was left as it was
)

// mcp call --task.
const (
	CodeTaskDeadline fault.Code = "E933" // mcp call --task: the task did not end within --timeout (it was cancelled at the server)
	CodeTaskEnded    fault.Code = "E934" // mcp call --task: the task ended failed or cancelled
)
