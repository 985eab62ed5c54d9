package config

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/relavium/relavium/authored"
	"github.com/relavium/relavium/fault"
)

// Problem codes. E200 is the aggregate error Load, Agent and Validate return;
// every Problem inside it carries one of the rule codes below. A code never
// changes meaning.
const (
	CodeInvalid          fault.Code = "E200" // configuration invalid: carries every Problem
	CodeSyntax           fault.Code = "E201" // the file does not parse (TOML/YAML syntax, duplicate key)
	CodeUnknownKey       fault.Code = "E202" // a key the schema does not know
	CodeType             fault.Code = "E203" // a value of the wrong type
	CodeRequired         fault.Code = "E204" // a required field is missing
	CodeName             fault.Code = "E205" // a server or agent name outside the allowed charset
	CodeDuplicateName    fault.Code = "E206" // a name declared twice (within a file, across files, within an agent)
	CodeTransport        fault.Code = "E207" // a transport outside stdio|http|websocket (sse alias)
	CodeRefExcludes      fault.Code = "E208" // an inline field beside `ref`
	CodeStdioOnly        fault.Code = "E209" // command/args/env on a network transport
	CodeNetworkOnly      fault.Code = "E210" // url/allow_local_endpoint/headers/headers_helper on stdio
	CodeConnectTimeout   fault.Code = "E211" // connect_timeout_ms not a positive integer <= 600000
	CodeEnvDenied        fault.Code = "E212" // an env entry on the shared denylist (consent.CheckEnv)
	CodeEnvPath          fault.Code = "E213" // a declared PATH
	CodeEnvName          fault.Code = "E214" // an env name that is not a portable variable name
	CodeURL              fault.Code = "E215" // a url the network guard refuses (netguard.AdmitURL)
	CodeSecretRef        fault.Code = "E216" // a {{…}} in an env value, argument or url that is not a {{secrets.NAME}} or {{env.VAR}} reference, or a url reference where it may not be
	CodeTheme            fault.Code = "E217" // theme outside auto|dark|light|high-contrast|mono
	CodeToolsAllowlist   fault.Code = "E218" // a malformed, duplicate or widening tools_allowlist entry, a tools_denylist entry that is malformed, duplicate or also allowlisted, or a malformed or duplicate tools_auto_approve entry
	CodeAgentName        fault.Code = "E219" // an agent name that differs from its file name
	CodeUnknownRef       fault.Code = "E220" // `ref` naming no registration
	CodeSSEDeprecated    fault.Code = "E221" // warning: transport sse is a deprecated alias of http
	CodeUnreadable       fault.Code = "E222" // a config file that cannot be read (I/O, size, encoding)
	CodeAgentNotFound    fault.Code = "E223" // --agent names no agent file
	CodeValue            fault.Code = "E224" // an empty or unusable value (empty command, NUL byte)
	CodeYAMLFeature      fault.Code = "E225" // a YAML feature agent files do not accept (alias, tag, merge, several documents)
	CodeNesting          fault.Code = "E226" // a file nested deeper than 64 levels or holding more than 20 000 values, refused before it is parsed
	CodeHeaderName       fault.Code = "E227" // a header name that is not an HTTP token, or is declared twice
	CodeHeaderReserved   fault.Code = "E228" // a header relavium may not send for you (hop-by-hop, framing, Host, Proxy-*, the protocol's own)
	CodeHeaderValue      fault.Code = "E229" // a header value with a control character or edge white space, or headers too many or too large
	CodeHeaderSecretRef  fault.Code = "E230" // a {{…}} in a header value that is not a whole {{secrets.NAME}} or {{env.VAR}}
	CodeURLEnvUnset      fault.Code = "E231" // a url's {{env.VAR}} with no default whose variable is not set when the file is read
	CodeProtocol         fault.Code = "E250" // protocol outside 2025-11-25|2026-07-28|auto, or 2026-07-28 on the sse transport
	severityError                   = "error"
	severityWarning                 = "warning"
	maxConfigFileBytes              = 1 << 20
	maxConnectTimeoutMS             = 600000
	maxServerNameLen                = 48
	maxAllowlistEntryLen            = 128
)

// Problem is one authored mistake (or, with Severity "warning", one
// deprecation) at a precise place: the authored layer's problem, which
// always carries a code here, with the rule behind it.
type Problem struct {
	authored.Problem
	Rule     string
	Severity string
	// Related are other places the problem names (the first declaration of
	// a duplicate name).
	Related []Pos
	// Cause is the refusal of the package that owns the rule (consent's env
	// denylist, netguard's url admission): {"code","message"} or a string.
	Cause any
}

// problemJSON is a Problem's JSON form: flat, code first.
type problemJSON struct {
	Code     fault.Code `json:"code"`
	Rule     string     `json:"rule"`
	Severity string     `json:"severity"`
	File     string     `json:"file"`
	Line     int        `json:"line"`
	Column   int        `json:"column"`
	// Field is the path of the offending field, e.g. mcp_servers[0].env.PATH.
	Field   string `json:"field"`
	Message string `json:"message"`
	Related []Pos  `json:"related,omitempty"`
	Cause   any    `json:"cause,omitempty"`
}

// MarshalJSON writes the flat form.
func (p Problem) MarshalJSON() ([]byte, error) {
	return json.Marshal(problemJSON{Code: p.Code, Rule: p.Rule, Severity: p.Severity, File: p.File, Line: p.Line,
		Column: p.Col, Field: p.Field, Message: p.Message, Related: p.Related, Cause: p.Cause})
}

// Adopt makes config problems of problems another reader found (a
// workflow file's, for `config validate`): each takes code where it has
// none, and rule.
func Adopt(code fault.Code, rule string, ps []authored.Problem) []Problem {
	out := make([]Problem, 0, len(ps))
	for _, p := range ps {
		if p.Code == "" {
			p.Code = code
		}
		out = append(out, Problem{Problem: p, Rule: rule, Severity: severityError})
	}
	return out
}

// String renders the problem like a compiler: file:line:col: field: message.
func (p Problem) String() string { return p.render("") }

func (p Problem) render(base string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d:%d: ", displayPath(base, p.File), p.Line, p.Col)
	if p.Field != "" {
		b.WriteString(p.Field)
		b.WriteString(": ")
	}
	if p.Severity == severityWarning {
		b.WriteString("warning: ")
	}
	b.WriteString(p.Message)
	fmt.Fprintf(&b, " [%s]", p.Code)
	return b.String()
}

// displayPath shows a file relative to base when it lies inside it.
func displayPath(base, file string) string {
	if base == "" || file == "" {
		return file
	}
	rel, err := filepath.Rel(base, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return file
	}
	return rel
}

// Error is the one error Load, Agent and Validate return for authored
// mistakes: every problem of every file, found in one pass. It is E200 and
// exits 2 (fault.Base's code and exit, set by Invalid); its message, text
// and envelope data are built from the problems.
type Error struct {
	fault.Base
	Problems []Problem
	Warnings []Problem
	// Files are the files that were read.
	Files []string
	// Dir is the directory paths are shown relative to in the human form.
	Dir string
}

// Invalid is the E200 error over the files read, the warnings found and the
// directory paths are shown relative to; its problems are added by the caller.
func Invalid(files []string, warnings []Problem, dir string) *Error {
	return &Error{Base: fault.Base{ErrCode: CodeInvalid, Exit: fault.ExitUsage}, Files: files, Warnings: warnings, Dir: dir}
}

// Message summarises the problems.
func (e *Error) Message() string {
	files := map[string]bool{}
	for _, p := range e.Problems {
		files[p.File] = true
	}
	noun := "problems"
	if len(e.Problems) == 1 {
		noun = "problem"
	}
	fileNoun := "files"
	if len(files) == 1 {
		fileNoun = "file"
	}
	msg := fmt.Sprintf("configuration invalid: %d %s in %d %s", len(e.Problems), noun, len(files), fileNoun)
	if len(e.Problems) > 0 {
		msg += "; first: " + e.Problems[0].render(e.Dir)
	}
	return msg
}

func (e *Error) Error() string { return string(e.ErrCode) + ": " + e.Message() }

// ErrorData is what the --json envelope carries beside the error.
func (e *Error) ErrorData() any {
	return struct {
		Problems []Problem `json:"problems"`
		Warnings []Problem `json:"warnings"`
		Files    []string  `json:"files"`
	}{nonNil(e.Problems), nonNil(e.Warnings), nonNilStrings(e.Files)}
}

// WriteHuman prints one compiler-style line per problem and warning, then a
// summary.
func (e *Error) WriteHuman(w io.Writer) error {
	for _, p := range sortProblems(append(append([]Problem{}, e.Problems...), e.Warnings...), e.Files) {
		if _, err := fmt.Fprintln(w, p.render(e.Dir)); err != nil {
			return err
		}
	}
	noun := "problems"
	if len(e.Problems) == 1 {
		noun = "problem"
	}
	_, err := fmt.Fprintf(w, "relavium: configuration invalid: %d %s (%s); nothing was spawned or dialled\n", len(e.Problems), noun, CodeInvalid)
	return err
}

func nonNil(p []Problem) []Problem {
	if p == nil {
		return []Problem{}
	}
	return p
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// AgentNotFoundError is returned when --agent names no agent file: E223,
// exit 2, with the I/O cause if any (fault.Base's, set by agentNotFound).
type AgentNotFoundError struct {
	fault.Base
	Name      string
	Dir       string
	Available []string
	Suggest   string
}

func agentNotFound(name, dir string, available []string, suggest string, cause error) *AgentNotFoundError {
	return &AgentNotFoundError{Base: fault.Base{ErrCode: CodeAgentNotFound, Exit: fault.ExitUsage, Cause: cause},
		Name: name, Dir: dir, Available: available, Suggest: suggest}
}

// Message names the agents that do exist.
func (e *AgentNotFoundError) Message() string {
	msg := fmt.Sprintf("no agent %q: looked for %s", e.Name, e.Dir)
	if e.Suggest != "" {
		msg += fmt.Sprintf("; did you mean %q?", e.Suggest)
	}
	if len(e.Available) == 0 {
		return msg + "; the project declares no agents (.relavium/agents/<name>.yaml)"
	}
	return msg + "; available: " + strings.Join(e.Available, ", ")
}

// Error is "E223: " and the message; the cause is not shown.
func (e *AgentNotFoundError) Error() string { return string(e.ErrCode) + ": " + e.Message() }
