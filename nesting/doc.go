// Package nesting measures how deep and how big a YAML, JSON or TOML text
// is, before any parser builds a tree from it, and stops at the first byte
// that passes a cap.
//
// Contract:
//   - YAML, JSON and TOML each make one linear pass over the bytes, keep
//     state proportional to the depth reached (never more than the cap), and
//     allocate nothing proportional to the input. They return the Stats
//     measured and, when a cap was passed, an *Exceeded naming which cap,
//     the byte offset and the line:column where it was passed.
//   - Depth counts nested collections (a top-level mapping is depth 1);
//     nodes count values, keys and collections, and in YAML every token
//     the tokenizer keeps besides (comments, anchors, tags, document
//     markers): goccy/go-yaml spends some hundreds of bytes on each. Both may over-estimate —
//     the scan is conservative — but never under-estimate what the parser
//     the caller uses next would build: goccy/go-yaml for YAML,
//     encoding/json for JSON, go-toml for TOML. The YAML scan follows
//     goccy/go-yaml's tokenizer (which characters open a quoted scalar, a
//     comment, a block scalar or a flow collection) and nests block
//     collections by column; an anchor, alias or tag counts as one more level
//     for the rest of its document (the parser gives it to whatever node
//     comes next, wherever that is). FuzzYAMLDepth checks the bound
//     against the real parser, with no slack.
//   - JSONC is JSON's measure for VS Code's files: a // or /* */ comment
//     outside a string is skipped (neither nodes nor nesting), as the
//     parser of those files skips it.
//   - A text the parser would refuse may be measured arbitrarily (it never
//     becomes a tree); the caller still runs its parser and reports syntax.
//   - JSONGauge is JSON's depth rule for bytes that arrive in pieces (a
//     server's messages on a pipe or a response body): its state is three
//     fields, and any split of the input is refused at the same byte as
//     JSON refuses the whole (FuzzJSONGauge). MessageDepth (512) is the cap
//     of one JSON-RPC message from a server.
//   - Nothing here keeps global state.
//
// Allowed imports: the standard library only (engine, which must stay
// platform-pure, and every reader of authored or typed text import it).
package nesting
