// Package mcpjson reads the MCP server files other clients keep, so that a
// person's existing servers run in relavium under relavium's rules: the
// mcpServers shape (Claude Desktop, Claude Code's .mcp.json and
// ~/.claude.json, Cursor, Windsurf, the Inspector's catalog), VS Code's
// servers + inputs shape, and a Claude Code plugin's .mcp.json (the server
// map itself at the top).
//
// Contract:
//   - Parse reads JSON (with JSONC's comments and trailing comma) into
//     values that keep their file:line:column. The text is measured by
//     package nesting before anything is built (64 levels, 20 000 values,
//     4 MiB; ~/.claude.json, which holds history, 200 000 values), and the
//     parser counts depth and values itself too. A key written twice, a
//     string that is not UTF-8 or an escape naming half a surrogate pair is
//     refused, never decoded into something other than what was written.
//   - Read translates each server into relavium's vocabulary (name,
//     transport, command, args, env, cwd, url, headers), every value keeping the
//     place it was written; config then checks each entry with the very
//     rules of a [[mcp_servers]] registration (names, env denylist, the
//     network guard, consent digests). What does not translate — an unknown
//     type, a shell command line, a field with no counterpart, a reference
//     inside other text — is a Problem (E233–E243) at its place; nothing is
//     dropped silently (a disabled server is a warning naming it).
//   - References: ${VAR}, ${VAR:-default}, ${env:VAR} and VS Code's
//     ${userHome} in an env value, an argument or a url, whole or inside
//     text, become {{env.VAR}} (read from the environment at spawn, or
//     when a url is read and dialled; digested, shown and locked as a
//     reference); ${input:id} becomes {{secrets.id}} (in env, in an
//     argument, in a url, and inside a header value), the entry's Inputs
//     naming it: an id the file does not declare (an mcpServers file has
//     no inputs) is an Input with password true and a warning (E242),
//     asked for as a declared one is; where a url's reference may sit is
//     config's rule; in a header an environment reference becomes
//     {{env.VAR}} too, bound to the origin before it is sent (a default is
//     refused); in command, cwd and envFile an environment
//     reference becomes {{env.VAR}} (read when the server is resolved), an
//     ${input:…} is refused; ${workspaceFolder} is the project directory. A default under a name that says secret is refused
//     (E241): it would be digested as a literal.
//   - Nothing here reads the file system, the environment or global state:
//     config passes the bytes, the project directory and the name rule in.
//
// Allowed imports: the standard library, authored, fault, nesting.
package mcpjson
