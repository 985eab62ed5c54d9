package consent

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Codes registers the error codes package consent owns: each code's exit class
// and what it means (the error-code table in docs/error-codes.md says the same to a
// person; the repository's codes test holds the two together).
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeEnvRefused, Class: fault.Usage, Meaning: "a declared env entry is on the shared denylist"},
	{Code: CodeConsentRequired, Class: fault.Usage, Meaning: "a stdio server (or a network server's headers helper) lacks consent and no one can be asked"},
	{Code: CodeAllowUnmatched, Class: fault.Usage, Meaning: "an --allow-mcp-stdio digest matches no declared server"},
	{Code: CodeBadDigest, Class: fault.Usage, Meaning: "a digest that is not v1: + 64 lowercase hex"},
	{Code: CodeCommandNotFound, Class: fault.Usage, Meaning: "the command is not on PATH / not at its path"},
	{Code: CodeNotExecutable, Class: fault.Usage, Meaning: "the command is not a regular file with the execute bit"},
	{Code: CodeBadDeclaration, Class: fault.Usage, Meaning: "empty command, relative or missing cwd, duplicate env name, an {{env.VAR}} in a command or cwd that is not set (and has no default) or a secret there"},
	{Code: CodeDenied, Class: fault.Failure, Meaning: "the person denied consent this session"},
	{Code: CodeStoreRefused, Class: fault.Failure, Meaning: "the grant store path is a symlink, not a regular file, or unsafe"},
	{Code: CodeStoreUnreadable, Class: fault.Failure, Meaning: "the fold failed closed: an unparseable or over-long line, or a store past its bounds (`consent grant` then writes nothing; `consent revoke` records and still fails)"},
	{Code: CodeStoreIO, Class: fault.Failure, Meaning: "reading, writing or locking the grant store failed"},
	{Code: CodeNothingToGrant, Class: fault.Usage, Meaning: "consent grant: no declared stdio server has that digest or name"},
	{Code: CodeNoSuchGrant, Class: fault.Usage, Meaning: "consent revoke: no live grant has that digest"},
	{Code: CodeNeedsYes, Class: fault.Usage, Meaning: "consent grant or revoke with no one to ask and no --yes"},
	{Code: CodeRevokeCancelled, Class: fault.Failure, Meaning: "the person answered no"},
	{Code: CodeNoStdioServers, Class: fault.Usage, Meaning: "consent grant: nothing declared to grant"},
	{Code: CodeHomeUnsafe, Class: fault.Failure, Meaning: "the relavium home is not a directory you own that only you can write (group/other-writable, another user's, or not a directory); every command stops before using it"},
	{Code: CodeBadBinding, Class: fault.Usage, Meaning: "a NAME@ORIGIN (--allow-secret, consent grant) that is not a secret name, @ and an http(s)/ws(s) origin, or a server url with no origin"},
	{Code: CodeSecretUnbound, Class: fault.Usage, Meaning: "a secret from your stores would be sent to a network origin it is not bound to and no one can be asked (nothing is dialled; pass --allow-secret NAME@ORIGIN or run consent grant NAME@ORIGIN)"},
	{Code: CodeAllowSecretUnmatched, Class: fault.Usage, Meaning: "an --allow-secret NAME@ORIGIN matches no secret a declared server's headers would send to that origin"},
	{Code: CodeEnvFile, Class: fault.Usage, Meaning: "a stdio server's env file (env_file, a client's envFile) is missing, unreadable, larger than 64 KiB, not a regular file, or holds a line that is not NAME=VALUE or an entry the env denylist refuses (that server fails alone; no value is shown)"},
	{Code: CodeEnvFileChanged, Class: fault.Usage, Meaning: "a stdio server's env file sets other variables at spawn than when its consent was decided (run again to be asked)"},
	{Code: CodeLocalHeld, Class: fault.Usage, Meaning: "a server of another client's file points at a loopback or private address, that address waits for your word and no one can be asked (nothing is dialled; pass --allow-local NAME or run consent grant NAME)"},
	{Code: CodeAllowLocalUnmatched, Class: fault.Usage, Meaning: "an --allow-local NAME names no server of a client file whose loopback or private address waits for your word"},
	{Code: CodeApprovalsRefused, Class: fault.Failure, Meaning: "the tool-approval store path is a symlink, not a regular file, or unsafe"},
	{Code: CodeApprovalsUnreadable, Class: fault.Failure, Meaning: "the tool-approval fold failed closed: an unparseable line (no approval applies until it is repaired)"},
	{Code: CodeApprovalsIO, Class: fault.Failure, Meaning: "reading, writing or locking the tool-approval store failed (or an approval key that is not a server, tool and sha256 digest)"},
}
