package config

import (
	"slices"

	"github.com/relavium/relavium/fault"
)

// Codes registers the error codes package config owns: each code's exit class
// and what it means (the error-code table in docs/error-codes.md says the same to a
// person; the repository's codes test holds the two together).
func Codes() fault.Table {
	return slices.Concat(codes, fault.Table{{Code: CodeCallTimeout, Class: fault.Usage, Meaning: "call_timeout_ms not a positive integer <= 3600000"}})
}

var codes = fault.Table{
	{Code: CodeInvalid, Class: fault.Usage, Meaning: "configuration invalid: carries every Problem"},
	{Code: CodeSyntax, Class: fault.Usage, Meaning: "the file does not parse (TOML/YAML syntax, duplicate key)"},
	{Code: CodeUnknownKey, Class: fault.Usage, Meaning: "a key the schema does not know"},
	{Code: CodeType, Class: fault.Usage, Meaning: "a value of the wrong type"},
	{Code: CodeRequired, Class: fault.Usage, Meaning: "a required field is missing"},
	{Code: CodeName, Class: fault.Usage, Meaning: "a server or agent name outside the allowed charset"},
	{Code: CodeDuplicateName, Class: fault.Usage, Meaning: "a name declared twice (within a file, across files, within an agent)"},
	{Code: CodeTransport, Class: fault.Usage, Meaning: "a transport outside stdio/http/websocket (sse alias)"},
	{Code: CodeRefExcludes, Class: fault.Usage, Meaning: "an inline field beside `ref`"},
	{Code: CodeStdioOnly, Class: fault.Usage, Meaning: "command/args/env on a network transport"},
	{Code: CodeNetworkOnly, Class: fault.Usage, Meaning: "url/allow_local_endpoint/headers/headers_helper on stdio"},
	{Code: CodeConnectTimeout, Class: fault.Usage, Meaning: "connect_timeout_ms not a positive integer <= 600000"},
	{Code: CodeEnvDenied, Class: fault.Usage, Meaning: "an env entry on the shared denylist (consent.CheckEnv)"},
	{Code: CodeEnvPath, Class: fault.Usage, Meaning: "a declared PATH"},
	{Code: CodeEnvName, Class: fault.Usage, Meaning: "an env name that is not a portable variable name"},
	{Code: CodeURL, Class: fault.Usage, Meaning: "a url the network guard refuses (netguard.AdmitURL)"},
	{Code: CodeSecretRef, Class: fault.Usage, Meaning: "a {{…}} in an env value, argument or url that is not a {{secrets.NAME}} or {{env.VAR}} reference, or a url reference where it may not be (part of a scheme or port, a secret or a credential's name in the origin)"},
	{Code: CodeTheme, Class: fault.Usage, Meaning: "theme outside auto/dark/light/high-contrast/mono"},
	{Code: CodeToolsAllowlist, Class: fault.Usage, Meaning: "a malformed, duplicate or widening tools_allowlist entry, a tools_denylist entry that is malformed, duplicate or also allowlisted, or a malformed or duplicate tools_auto_approve entry"},
	{Code: CodeAgentName, Class: fault.Usage, Meaning: "an agent name that differs from its file name"},
	{Code: CodeUnknownRef, Class: fault.Usage, Meaning: "`ref` naming no registration"},
	{Code: CodeSSEDeprecated, Class: fault.Usage, Meaning: "warning: transport sse (legacy HTTP+SSE, not Streamable HTTP) is deprecated"},
	{Code: CodeUnreadable, Class: fault.Usage, Meaning: "a config file that cannot be read (I/O, size, encoding)"},
	{Code: CodeAgentNotFound, Class: fault.Usage, Meaning: "--agent names no agent file"},
	{Code: CodeValue, Class: fault.Usage, Meaning: "an empty or unusable value (empty command, NUL byte)"},
	{Code: CodeYAMLFeature, Class: fault.Usage, Meaning: "a YAML feature agent files do not accept (alias, tag, merge, several documents)"},
	{Code: CodeProtocol, Class: fault.Usage, Meaning: "a protocol outside 2025-11-25/2026-07-28/auto, or 2026-07-28 on the legacy sse transport"},
	{Code: CodeLintSuppress, Class: fault.Usage, Meaning: "a lint_suppress entry that is not a { rule, tool, reason } table with all three given, a rule that is not an RL### id, or a rule and tool suppressed twice"},
	{Code: CodeOAuth, Class: fault.Usage, Meaning: "an oauth value that is not true/false or a valid table (client_secret, private_key or assertion not {{secrets.NAME}}, a bad scope, callback_port, client_metadata_url, allow_local_auth or grant entry, a machine grant without its credential)"},
	{Code: CodeOAuthTransport, Class: fault.Usage, Meaning: "oauth on a transport other than http (Streamable HTTP)"},
	{Code: CodeHeadersHelper, Class: fault.Usage, Meaning: "a headers_helper that is empty, over 4 KiB, holds a control character (one line), or a {{…}} that is not {{env.VAR}} or {{env.VAR:-default}}, or names a secret or a variable the env denylist refuses"},
	{Code: CodeSandbox, Class: fault.Usage, Meaning: `a sandbox value that is not true, false, "required" or a valid table (a bad path, network mode or allow entry, or allow without network = "guarded")`},
	{Code: CodeNesting, Class: fault.Usage, Meaning: "a file nested deeper than 64 levels or holding more than 20 000 values, refused at that character before it is parsed"},
	{Code: CodeHeaderName, Class: fault.Usage, Meaning: "a header name that is not an HTTP token (or over 128 bytes), or one declared twice (names are case-insensitive)"},
	{Code: CodeHeaderReserved, Class: fault.Usage, Meaning: "a header relavium never sends for you: Host, hop-by-hop and framing headers (Connection, Content-Length, Transfer-Encoding…), Proxy-*, Sec-WebSocket-*, the protocol's own (Mcp-Session-Id, MCP-Protocol-Version) and the media types the transport sets"},
	{Code: CodeHeaderValue, Class: fault.Usage, Meaning: "a header value holding CR, LF, NUL or another control character (C1 such as U+0085 NEL included), a line or paragraph separator (U+2028, U+2029) or a byte that is not UTF-8, edge white space, or over 8 KiB; more than 32 headers or 32 KiB of them (the value is never shown)"},
	{Code: CodeHeaderSecretRef, Class: fault.Usage, Meaning: "a {{…}} in a header value that is not a whole {{secrets.NAME}} or {{env.VAR}} reference (a default in a header is refused)"},
	{Code: CodeURLEnvUnset, Class: fault.Usage, Meaning: "a url's {{env.VAR}} with no default whose variable is not set when the file is read"},
}
