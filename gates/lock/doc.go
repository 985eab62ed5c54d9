// Package lock is the lockfile of what MCP servers offer and the one
// comparison behind `relavium mcp lock` and `relavium mcp check`.
//
// Contract:
//
//   - Build turns what each connected server offers (host.Definitions, its
//     prompts, resources and resource templates) into a File: per server
//     its identity (name, transport, consent digest or redacted url), the
//     negotiated protocol, the capabilities, and every definition in
//     canonical JSON (package consent/canonjson's form) with its sha256
//     digest, everything sorted, so the file is stable and reviewable in a
//     diff. Tool definitions are discovery's canonical sanitized ones (what
//     the tool pins hash). Nothing in a File is a secret.
//   - Write replaces the file atomically (package atomicfile), escaped so
//     a person may cat it; Read bounds it (16 MiB) before reading it and
//     names what is wrong with it (E940, E943).
//   - Compare reports how a live File differs from a locked one. A changed
//     tool's fields come from discovery.DiffDefinitions, the comparison the
//     rug-pull flag makes at connect: one comparison, two surfaces. A tool
//     that now claims read-only is listed first.
//   - WriteHuman and WriteGitHub render a Diff for a person and for GitHub
//     workflow annotations; every server string is escaped or sanitized.
//
// Imports: atomicfile, consent/canonjson, engine, engine/sanitize, fault,
// host, host/discovery, regularfile.
package lock
