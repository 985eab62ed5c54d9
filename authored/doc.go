// Package authored is the one diagnostics layer for the files a person
// writes (config.toml, agent files, workflow files): where a value sits
// (Pos), one mistake at that place (Problem), a collector that keeps every
// problem of a read (Problems), and the one YAML reader every authored YAML
// file goes through.
//
// Contract:
//   - ReadYAML applies one policy to every authored YAML file: valid UTF-8;
//     nesting and size measured by package nesting before the parser builds
//     anything (64 levels, 20 000 values); one document per file; aliases,
//     merge keys, tags and keys that are not plain strings refused; a
//     double-quoted escape that names no Unicode character refused (the
//     parser would silently put another character in its place). A file
//     kind words the refusals (Dialect) but does not change what is
//     refused, except that agent files tolerate an anchor no alias uses.
//   - Every refusal is a Problem with file:line:column; nothing stops at
//     the first, and a refused value is marked so no second problem is
//     stacked on it.
//
// Imports: the standard library, github.com/goccy/go-yaml, nesting and fault
// (deps_test.go enforces it).
package authored
