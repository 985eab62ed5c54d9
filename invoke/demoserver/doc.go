// Package demoserver is relavium's embedded demo MCP server, served by
// `relavium demo-server [--transport stdio|http]`.
//
// Contract:
//   - It is an mcp.Server (go-sdk) whose tools, prompts, resources and
//     resource templates exercise everything relavium shows: text,
//     structured content with an output schema, image, audio, embedded
//     resources, resource links, progress, logging, isError results,
//     elicitation and sampling, read-only / writing / destructive
//     annotations, and tools relavium must skip (an unsupported schema and a
//     control character in a property name).
//   - It carries the fixture names of the official conformance suite
//     (test_simple_text, test://static-text, test_simple_prompt, …), so
//     `conformance server --url <demo url>` passes every active scenario.
//   - Every tool states its annotations explicitly (readOnlyHint,
//     destructiveHint, idempotentHint, openWorldHint).
//   - Every tool is one constructor returning its full definition together
//     with its handler (tool.go); the server registers the lists in
//     tools_conformance.go, tools_demo.go, tools_client.go,
//     tools_listchange.go and tools_refused.go. toggle_extra_tool adds or
//     removes extra_tool (notifications/tools/list_changed). Each tool's
//     definition as a client lists it is snapshotted in
//     testdata/demo/tools/<name>.snap (RELAVIUM_UPDATE_GOLDEN=1 rewrites).
//   - Elicitation and sampling are asked through InputRequests (multi
//     round-trip), which the SDK bridges to elicitation/create and
//     sampling/createMessage for clients on protocol <= 2025-11-25.
//   - Over stdio any tool runs as a task (protocol 2025-11-25): go-sdk has
//     no server-side tasks, so a layer on the connection (tasks.go)
//     declares capabilities.tasks, answers tasks/get, list, cancel and
//     result, and hands the call to the SDK under an id of its own.
//   - The 2026-07-28 fixtures (tools_mrtr.go: test_input_required_result_*,
//     test_missing_capability, test_streaming_elicitation,
//     test_logging_tool, test_x_mcp_header; the prompt
//     test_input_required_result_prompt) return input-required results; a
//     tool that needs several rounds keeps its progress in a requestState
//     signed with a key each Server draws at start (requeststate.go): an
//     altered, expired or foreign state is refused with invalid params.
//   - Over HTTP both protocol eras share /mcp (internal/erahttp): a
//     2026-07-28 request (its MCP-Protocol-Version, no session) is served
//     statelessly (server/discover, no Mcp-Session-Id); initialize opens a
//     2025-11-25 session as before.
//   - Nothing outlives its owner: ServeStdio and ServeHTTP return only after
//     every session, in-flight tool call and background goroutine they
//     started has ended; on shutdown a call in progress is cancelled and
//     still answered (an isError "shutting down" result). A Server serves
//     once. The HTTP transport listens on loopback only and refuses requests
//     whose Host or Origin is not that loopback server (403).
//   - It never touches the file system: delete_file deletes nothing and
//     notes live in memory, bounded.
package demoserver
