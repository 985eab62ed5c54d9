// Package browse holds the requests of a server's resources, prompts and
// completions as they run on one session (the TUI's resources and prompts
// tabs, mcp read/prompts/complete), and what a server said of itself at
// initialize (ServerDetails). Package host runs each under its call
// deadline and lifetimes (Host.browse) and hands the session in; browse
// bounds what comes back: a page cap on every listing (Pages), contents
// through the caller's result conversion (the 1 MiB text bound), at most
// 100 completion values each a one-line text a terminal shows as it is,
// and the server's self-description cleaned and bounded.
//
// Contract: a capability the server does not declare is refused before
// anything is sent (E920) or, for a listing, is an empty list; a list it
// declares but answers -32601 is handed to the caller's notOffered. The
// text fields of Resource and Prompt are the server's, unsanitized: whoever
// shows them sanitizes them.
//
// browse may import engine, engine/sanitize, fault, host/failure and
// go-sdk's mcp; never package host, whose root composes it.
package browse
