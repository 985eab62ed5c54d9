package mcpjson

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Problem codes. Every refusal of a client file is an authored problem
// (exit 2 before anything is spawned or dialled) with one of these codes;
// config reports them inside its E200 beside its own. A code never changes
// meaning.
const (
	CodeSyntax      fault.Code = "E233" // the file is not JSON (JSONC comments and a trailing comma allowed), or a key appears twice
	CodeShape       fault.Code = "E234" // no servers object where the client keeps one, or an entry that is not an object
	CodeType        fault.Code = "E235" // a type relavium has no transport for, or a field of the wrong JSON type
	CodeShellString fault.Code = "E236" // a command that is a shell command line, not one program
	CodeDisabled    fault.Code = "E237" // a server the file itself disables
	CodeUnsupported fault.Code = "E238" // a field relavium has no counterpart for
	CodeRenamed     fault.Code = "E239" // warning: a server name outside relavium's name rule, mapped to one inside it
	CodeVariable    fault.Code = "E240" // a ${…} reference that does not translate (nested or unclosed, an input in command, cwd or envFile)
	CodeSecretValue fault.Code = "E241" // a value that would enter a digest or a log as a secret
	CodeInput       fault.Code = "E242" // an ${input:id} naming no usable input; warning: one the file does not declare, asked for hidden
	CodeNesting     fault.Code = "E243" // a file nested deeper than 64 levels, holding more than 20 000 values, or over 4 MiB
)

// Codes registers the codes package mcpjson owns, with their exit class and
// meaning (the error-code table in docs/error-codes.md says the same).
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeSyntax, Class: fault.Usage, Meaning: "a client's MCP file that is not JSON (comments and a trailing comma allowed), or a key written twice"},
	{Code: CodeShape, Class: fault.Usage, Meaning: "no servers object where the client keeps one (mcpServers, servers, projects), or an entry that is not an object"},
	{Code: CodeType, Class: fault.Usage, Meaning: "an imported server's type relavium has no transport for, or a field of the wrong JSON type"},
	{Code: CodeShellString, Class: fault.Usage, Meaning: "an imported command that is a shell command line, not one program"},
	{Code: CodeDisabled, Class: fault.Usage, Meaning: "a server its own file disables (not imported)"},
	{Code: CodeUnsupported, Class: fault.Usage, Meaning: "an imported field relavium has no counterpart for"},
	{Code: CodeRenamed, Class: fault.Usage, Meaning: "warning: an imported server name outside the name rule, mapped to one inside it"},
	{Code: CodeVariable, Class: fault.Usage, Meaning: "a ${…} reference that does not translate (nested or unclosed, an input in command, cwd or envFile)"},
	{Code: CodeSecretValue, Class: fault.Usage, Meaning: "an imported value that would enter a digest or a log as a secret"},
	{Code: CodeInput, Class: fault.Usage, Meaning: "an ${input:id} naming a pick list or an id no secret name can hold (warning: an id the file does not declare, asked for as a hidden value)"},
	{Code: CodeNesting, Class: fault.Usage, Meaning: "a client's MCP file nested deeper than 64 levels, holding more than 20 000 values or over 4 MiB, refused before it is read"},
}

// Rule names the rule behind a code, for the Problem beside it.
func Rule(code fault.Code) string {
	switch code {
	case CodeSyntax:
		return "json-syntax"
	case CodeShape:
		return "client-file-shape"
	case CodeType:
		return "client-type"
	case CodeShellString:
		return "shell-string"
	case CodeDisabled:
		return "disabled"
	case CodeUnsupported:
		return "no-counterpart"
	case CodeRenamed:
		return "renamed"
	case CodeVariable:
		return "variable"
	case CodeSecretValue:
		return "secret-value"
	case CodeInput:
		return "input"
	case CodeNesting:
		return "nesting"
	}
	return ""
}
