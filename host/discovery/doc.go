// Package discovery turns what an MCP server says about its tools into
// tools the host may admit (docs/mcp-integration.md "Discovery and result
// ingress bounds" and "Untrusted definitions").
//
// Contract:
//
//   - WrapTransport wraps every client transport the host connects, so
//     each tools/list result is read RAW (member order, duplicate and
//     case-variant keys, invalid UTF-8 are all visible); NewLister issues
//     tools/list through the SDK session and reads that raw result (on a
//     connection-level transport the SDK decodes an empty stub page in its
//     place: its typed copy was never used). On a newline-delimited stream
//     (stdio: Capture.Reader, which host puts under mcp.IOTransport) the
//     page is taken off the bytes before the SDK decodes anything, so the
//     SDK never buffers, copies or depth-checks a page of up to 16 MiB.
//   - A page is read as a stream of tools (pagestream.go): scanned without
//     building, each tool measured as it comes and refused unread
//     (tool_too_large) when it alone is over the whole budget (1 MiB as
//     sent, 65 536 JSON values, 16 384 schema objects); later tools are
//     still read. Only tools that pass are parsed, a bounded batch at a
//     time, so memory follows the caps, not what the server sends.
//   - Discover walks the pages under a page cap, cursor-loop and empty-page
//     detection and one deadline for the whole walk (60 s), stops paging as
//     soon as the server's budget (1 MiB, 16 384 schema objects, 256
//     tools) is spent, and checks
//     every tool in declaration order: name rules, sizes (UTF-8 bytes,
//     schemas as canonical JSON), semantic fields (never rewritten; a
//     control, bidi or invisible character skips the tool), presentation
//     text (descriptions and titles, nested ones included, sanitized with
//     engine/sanitize), duplicate and case-variant keys, and the schema
//     subset (compiled with jsonschema-go, its Schema built from the
//     parsed tree when that is exact; compiled once per identical schema
//     in a walk; nothing is ever fetched). A bad
//     tool becomes an engine.SkippedTool with a stable reason code
//     (reasons.go); only a failed walk is an error (E580–E592).
//   - Each admitted tool's input fields (fields.Read over the tree the
//     schema was parsed into, so nothing is parsed twice) are kept on
//     ToolDef.Fields: what every surface that asks a person for arguments
//     reads, and types values through.
//   - Namespace names tools mcp_{server}_{tool} across a session and skips
//     every tool of a case-insensitive collision.
//   - (*Tool).Validate checks call arguments before dispatch and names the
//     JSON pointer and rule of a failure; Explain renders a flat schema's
//     failure (an elicitation form) the same plain way.
//   - PinStore remembers each admitted tool's canonical sanitized
//     definition per server identity in <home>/tool-pins.json (its Digest
//     is what a remembered call approval is keyed by) and flags a changed
//     tool (ToolDef.Changed, Tool.Changes: the field diff against the pin)
//     on every later connect until the person accepts the new definition
//     (PinStore.Accept): a changed definition is never re-pinned silently.
//
// Descriptions in ToolDef are sanitized but unlabelled; whoever shows one
// to a person or a model wraps it with sanitize.LabelExternal.
package discovery
