package consent

import (
	"fmt"

	"github.com/relavium/relavium/consent/canonjson"
)

// Error codes owned by package consent (E300–E349). They are stable: the
// README documents them and scripts match on them.
const (
	CodeEnvRefused      = "E300" // a declared env entry is on the shared denylist
	CodeConsentRequired = "E301" // a stdio server lacks consent and no one can be asked
	CodeAllowUnmatched  = "E302" // an --allow-mcp-stdio digest matches no declared server
	CodeBadDigest       = "E303" // a digest that is not v1: + 64 lowercase hex
	CodeCommandNotFound = "E304" // the command is not on PATH / not at its path
	CodeNotExecutable   = "E305" // the command is not a regular file with the execute bit
	CodeBadDeclaration  = "E306" // empty command, relative or missing cwd, duplicate env name
	CodeDenied          = "E308" // the person denied consent this session
	CodeStoreRefused    = "E310" // the grant store path is a symlink, not a regular file, or unsafe
	CodeStoreUnreadable = "E311" // the fold failed closed: an unparseable line
	CodeStoreIO         = "E312" // reading, writing or locking the grant store failed
	CodeNothingToGrant  = "E313" // consent grant: no declared stdio server has that digest or name
	CodeNoSuchGrant     = "E314" // consent revoke: no live grant has that digest
	CodeNeedsYes        = "E315" // a destructive consent command with no one to ask and no --yes
	CodeRevokeCancelled = "E316" // the person answered no
	CodeNoStdioServers  = "E317" // consent grant: nothing declared to grant
	CodeHomeUnsafe      = "E318" // the relavium home is not a directory of yours that only you can write

	CodeApprovalsRefused    = "E320" // the tool-approval store path is a symlink, not a regular file, or unsafe
	CodeApprovalsUnreadable = "E321" // the tool-approval fold failed closed: an unparseable line
	CodeApprovalsIO         = "E322" // reading, writing or locking the tool-approval store failed (or a bad key)
)

// CodeNotCanonical (E307): a value with no faithful canonical JSON form. The
// code is canonjson's, which raises it; consent carries it unchanged when a
// declaration's fingerprint cannot be encoded.
const CodeNotCanonical = canonjson.CodeNotCanonical

const (
	exitUsage   = 2
	exitFailure = 1
)

// Error is consent's coded error. It satisfies the interfaces package invoke
// reads (Code, ExitCode, Unwrap), so it can travel up unchanged.
type Error struct {
	ErrCode string
	Msg     string
	Cause   error
	Exit    int // 0 means 1
	Data    any // carried in the envelope when non-nil
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.ErrCode, e.Msg, e.Cause)
	}
	return e.ErrCode + ": " + e.Msg
}

// Code returns the stable error code.
func (e *Error) Code() string { return e.ErrCode }

// Message is the human message without code or cause.
func (e *Error) Message() string { return e.Msg }

// ExitCode is 2 for authored and usage errors, else 1.
func (e *Error) ExitCode() int {
	if e.Exit == 0 {
		return exitFailure
	}
	return e.Exit
}

// ErrorData returns the envelope data, if any.
func (e *Error) ErrorData() any { return e.Data }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Cause }

func usage(code, format string, a ...any) *Error {
	return &Error{ErrCode: code, Msg: fmt.Sprintf(format, a...), Exit: exitUsage}
}
