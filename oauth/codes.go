package oauth

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Error codes owned by package oauth (E850–E865 and E868; config's oauth field has E866–E867). They are stable: the
// docs/error-codes.md documents them and scripts match on them.
const (
	CodeSignInRequired  fault.Code = "E850" // no usable token and no one to sign in here: run relavium auth login SERVER
	CodeStepUpRequired  fault.Code = "E851" // the server asks for more scopes than the stored token holds: run relavium auth login SERVER
	CodeScopeRefused    fault.Code = "E852" // the server still refuses with the scopes it asked for, or the step-up limit was reached
	CodeResourceMeta    fault.Code = "E853" // protected-resource metadata unusable (not JSON, wrong resource, no authorization server)
	CodeAuthServerMeta  fault.Code = "E854" // authorization-server metadata unusable (issuer mismatch, no PKCE S256, missing endpoint)
	CodeNoClient        fault.Code = "E855" // no client identity: no pre-registered client, no usable client ID metadata document, no registration endpoint
	CodeRegistration    fault.Code = "E856" // dynamic client registration failed
	CodeState           fault.Code = "E857" // only redirects with another state (or an oversized query) came before the wait ended
	CodeIssuer          fault.Code = "E858" // the authorization response's issuer (RFC 9207) is missing or not the authorization server's
	CodeAuthorizeDenied fault.Code = "E859" // the authorization server answered the redirect with an error (access_denied, …)
	CodeCallbackTimeout fault.Code = "E860" // the browser's redirect did not reach the loopback callback in time
	CodeCancelled       fault.Code = "E861" // the sign-in was cancelled
	CodeTokenExchange   fault.Code = "E862" // the token endpoint refused the code or the refresh token
	CodeStore           fault.Code = "E863" // the token store (<home>/oauth) is unsafe, unreadable or could not be written
	CodeListener        fault.Code = "E864" // the loopback callback listener could not be opened (callback_port in use)
	CodeNoServer        fault.Code = "E865" // auth login/logout: no declared http server of that name
	CodeOutOfBounds     fault.Code = "E868" // a server sent OAuth data out of relavium's bounds (a token over 16 KiB, too many scopes): nothing stored
)

// Codes registers the error codes package oauth owns: each code's exit class
// and what it means (the error-code table in docs/error-codes.md says the same to a
// person; the repository's codes test holds the two together).
func Codes() fault.Table { return slices.Clone(codes) }

var codes = fault.Table{
	{Code: CodeSignInRequired, Class: fault.Usage, Meaning: "no usable token and no one to sign in here (no TTY, --json or CI): run relavium auth login SERVER"},
	{Code: CodeStepUpRequired, Class: fault.Usage, Meaning: "the server asks for more scopes than the stored token holds (step-up): run relavium auth login SERVER"},
	{Code: CodeScopeRefused, Class: fault.Failure, Meaning: "the server still refuses with the scopes it asked for, or the step-up limit (3 sign-ins) was reached"},
	{Code: CodeResourceMeta, Class: fault.Failure, Meaning: "protected-resource metadata unusable (not JSON, another resource, no authorization server)"},
	{Code: CodeAuthServerMeta, Class: fault.Failure, Meaning: "authorization-server metadata unusable (issuer mismatch, no PKCE S256, an endpoint missing)"},
	{Code: CodeNoClient, Class: fault.Failure, Meaning: "no client identity: no pre-registered client, no client ID metadata document the server accepts, no registration endpoint"},
	{Code: CodeRegistration, Class: fault.Failure, Meaning: "dynamic client registration failed"},
	{Code: CodeState, Class: fault.Failure, Meaning: "only redirects carrying another state than the one relavium sent (or an oversized query) reached the callback before the wait ended: each was refused, none exchanged"},
	{Code: CodeIssuer, Class: fault.Failure, Meaning: "the authorization response's issuer (RFC 9207) is missing or not the authorization server's"},
	{Code: CodeAuthorizeDenied, Class: fault.Failure, Meaning: "the authorization server answered with an error (access_denied, invalid_scope, …)"},
	{Code: CodeCallbackTimeout, Class: fault.Failure, Meaning: "the browser's redirect did not reach the loopback callback in time"},
	{Code: CodeCancelled, Class: fault.Failure, Meaning: "the sign-in was cancelled"},
	{Code: CodeTokenExchange, Class: fault.Failure, Meaning: "the token endpoint refused the authorization code or the refresh token"},
	{Code: CodeStore, Class: fault.Failure, Meaning: "the token store (<home>/oauth) is unsafe, unreadable or could not be written"},
	{Code: CodeListener, Class: fault.Failure, Meaning: "the loopback callback listener could not be opened (callback_port in use)"},
	{Code: CodeNoServer, Class: fault.Usage, Meaning: "auth login/logout: no declared Streamable HTTP server of that name"},
	{Code: CodeOutOfBounds, Class: fault.Failure, Meaning: "the authorization or resource server sent OAuth data out of bounds (a token or client secret over 16 KiB or not printable ASCII, more than 128 scopes, a scope over 256 bytes): refused, nothing stored"},
}

// Error is a sign-in failure: fault's coded error, marked so the host can
// tell it from the transport's own failures once the SDK has wrapped it.
type Error struct{ fault.Base }

// SignIn marks the error as the sign-in's.
func (e *Error) SignIn() {}

func newErr(c fault.Code, format string, a ...any) *Error { return &Error{*codes.New(c, format, a...)} }

func wrapErr(c fault.Code, cause error, format string, a ...any) *Error {
	return &Error{*codes.Wrap(c, cause, format, a...)}
}
