package cli

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Codes registers the error codes package invoke owns: each code's exit class
// and what it means (the error-code table in docs/error-codes.md says the same to a
// person; the repository's codes test holds the two together).
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeUnknownCommand, Class: fault.Usage, Meaning: "no such command"},
	{Code: CodeUnknownFlag, Class: fault.Usage, Meaning: "no such flag for this command"},
	{Code: CodeBadFlag, Class: fault.Usage, Meaning: "a flag value that does not parse"},
	{Code: CodeBadArgs, Class: fault.Usage, Meaning: "too few or too many positional arguments"},
	{Code: CodeGroupCommand, Class: fault.Usage, Meaning: "a command group named without a subcommand"},
	{Code: CodeNestedJSON, Class: fault.Usage, Meaning: "JSON on the command line (`--args`, a KEY=VALUE value) nested deeper than 256 levels, refused before it is parsed"},
	{Code: CodeUnknownTopic, Class: fault.Usage, Meaning: "help: the words name neither a command nor a topic of the reference (the message lists the topics; `data.topics` too)"},
	{Code: CodeNotExposed, Class: fault.Varies, Meaning: "refused by the exposure rules, the gate or the audit check"},
	{Code: CodeOperationLocked, Class: fault.Failure, Meaning: "another command holds the project operation lock"},
	{Code: CodeOutputPath, Class: fault.Usage, Meaning: "--output names a directory, or a file whose directory does not exist (exit 2, nothing started)"},
	{Code: CodeOutputWrite, Class: fault.Failure, Meaning: "the --output file could not be written; FILE was left as it was (no temp file remains)"},
	{Code: CodeToolNotFound, Class: fault.Usage, Meaning: "mcp call: no admitted tool has that name"},
	{Code: CodeBadCallArgs, Class: fault.Usage, Meaning: "mcp call: --args / KEY=VALUE that do not parse"},
	{Code: CodeToolError, Class: fault.Failure, Meaning: "mcp call: the tool returned isError"},
	{Code: CodeImportTaken, Class: fault.Usage, Meaning: "config import --write: a server name the configuration already registers (both places named)"},
	{Code: CodeImportEmpty, Class: fault.Usage, Meaning: "config import: the file declares no server relavium can import"},
	{Code: CodeExportServer, Class: fault.Usage, Meaning: "config export: SERVER names no declared server"},
	{Code: CodeExportValue, Class: fault.Usage, Meaning: "config export: a value the other client's file cannot hold as it means (a literal credential, a default, a websocket, a cwd)"},
	{Code: CodeImportWrite, Class: fault.Failure, Meaning: "config import --write: .relavium/config.toml could not be written (left as it was)"},
	{Code: CodeImportSecret, Class: fault.Usage, Meaning: "config import --write: a literal secret of the client's file could not be moved to the person's secret store (its name there holds another value, or the store is unsafe or cannot be written); the project's config was not written"},
	{Code: CodeBadTarget, Class: fault.Usage, Meaning: "--url/--stdio misuse (both given, empty, --allow-local-endpoint without --url)"},
	{Code: CodeNotFlagged, Class: fault.Usage, Meaning: "mcp accept: the tool's definition is the accepted one (nothing to accept)"},
	{Code: CodeSamplingReply, Class: fault.Usage, Meaning: "--sampling-reply @FILE that cannot be read or is over 64 KiB (exit 2, nothing started)"},
	{Code: CodeAcceptUsage, Class: fault.Usage, Meaning: "mcp accept: give TOOL or --all (not both, not neither)"},
	{Code: CodeBadHeader, Class: fault.Usage, Meaning: "--header that is not 'Name: value', names a header relavium never sends for you (Host, hop-by-hop, framing, Proxy-*, Mcp-Session-Id, MCP-Protocol-Version…), holds CR, LF, NUL or edge white space in its value, repeats a name, or is given without --url (the value is never shown)"},
	{Code: CodeNoSuchServer, Class: fault.Usage, Meaning: "mcp read / complete: SERVER is not a declared server"},
	{Code: CodeBadRef, Class: fault.Usage, Meaning: "mcp complete: REF is neither prompt:NAME nor resource:URI-TEMPLATE, or an --arg is not KEY=VALUE"},
	{Code: CodeNoContents, Class: fault.Failure, Meaning: "mcp read --output: the resource came back in several parts (or none); --output writes one"},
	{Code: CodePingUnknown, Class: fault.Usage, Meaning: "mcp ping: SERVER names no declared server"},
	{Code: CodePingFailed, Class: fault.Failure, Meaning: "mcp ping: a server failed to connect, or did not answer a ping (each server's result is in data)"},
	{Code: CodeTaskDeadline, Class: fault.Failure, Meaning: "mcp call --task: the task did not end within --timeout (it was cancelled at the server)"},
	{Code: CodeTaskEnded, Class: fault.Failure, Meaning: "mcp call --task: the task ended failed or cancelled (its status message says why)"},
	{Code: CodeInternal, Class: fault.Failure, Meaning: "a bug: an error without a code"},
}
