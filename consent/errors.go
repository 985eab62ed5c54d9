package consent

import (
	"github.com/relavium/relavium/consent/canonjson"
	"github.com/relavium/relavium/fault"
)

// Error codes owned by package consent (E300–E349). They are stable: the
// README documents them and scripts match on them.
const (
	CodeEnvRefused           fault.Code = "E300" // a declared env entry is on the shared denylist
	CodeConsentRequired      fault.Code = "E301" // a stdio server lacks consent and no one can be asked
	CodeAllowUnmatched       fault.Code = "E302" // an --allow-mcp-stdio digest matches no declared server
	CodeBadDigest            fault.Code = "E303" // a digest that is not v1: + 64 lowercase hex
	CodeCommandNotFound      fault.Code = "E304" // the command is not on PATH / not at its path
	CodeNotExecutable        fault.Code = "E305" // the command is not a regular file with the execute bit
	CodeBadDeclaration       fault.Code = "E306" // empty command, relative or missing cwd, duplicate env name, an {{env.VAR}} in a command or cwd that is not set (and has no default) or a secret there
	CodeDenied               fault.Code = "E308" // the person denied consent this session
	CodeStoreRefused         fault.Code = "E310" // the grant store path is a symlink, not a regular file, or unsafe
	CodeStoreUnreadable      fault.Code = "E311" // the fold failed closed: an unparseable line
	CodeStoreIO              fault.Code = "E312" // reading, writing or locking the grant store failed
	CodeNothingToGrant       fault.Code = "E313" // consent grant: no declared stdio server has that digest or name
	CodeNoSuchGrant          fault.Code = "E314" // consent revoke: no live grant has that digest
	CodeNeedsYes             fault.Code = "E315" // consent grant or revoke with no one to ask and no --yes
	CodeRevokeCancelled      fault.Code = "E316" // the person answered no
	CodeNoStdioServers       fault.Code = "E317" // consent grant: nothing declared to grant
	CodeHomeUnsafe           fault.Code = "E318" // the relavium home is not a directory of yours that only you can write
	CodeBadBinding           fault.Code = "E319" // NAME@ORIGIN (--allow-secret, consent grant) malformed, or a url with no origin
	CodeSecretUnbound        fault.Code = "E323" // a secret would go to an origin it is not bound to and no one can be asked
	CodeAllowSecretUnmatched fault.Code = "E324" // an --allow-secret NAME@ORIGIN matches no secret a declared server's headers carry
	CodeEnvFile              fault.Code = "E325" // a stdio server's env file is missing, unreadable, too large, not a regular file or not NAME=VALUE lines
	CodeEnvFileChanged       fault.Code = "E326" // the env file's names changed between consent and spawn
	CodeLocalHeld            fault.Code = "E327" // a client file's server at a local address waits for the person's word and no one can be asked
	CodeAllowLocalUnmatched  fault.Code = "E328" // an --allow-local NAME names no server whose local address is held

	CodeApprovalsRefused    fault.Code = "E320" // the tool-approval store path is a symlink, not a regular file, or unsafe
	CodeApprovalsUnreadable fault.Code = "E321" // the tool-approval fold failed closed: an unparseable line
	CodeApprovalsIO         fault.Code = "E322" // reading, writing or locking the tool-approval store failed (or a bad key)
)

// CodeNotCanonical (E307): a value with no faithful canonical JSON form. The
// code is canonjson's, which raises it; consent carries it unchanged when a
// declaration's fingerprint cannot be encoded.
const CodeNotCanonical = canonjson.CodeNotCanonical

// Error is the repository's coded error (package fault); consent's codes
// and their exit classes are registered in Codes.
type Error = fault.Error

// usage is an authored or usage mistake; its exit code is the code's class
// in Codes.
func usage(code fault.Code, format string, a ...any) *Error {
	return codes.New(code, format, a...)
}
