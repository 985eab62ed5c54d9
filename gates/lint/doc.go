// Package lint is `relavium mcp lint`: static checks over what MCP servers
// offer — every tool discovery admitted or skipped, every prompt, resource
// and resource template — for the tricks tool poisoning uses.
//
// Contract:
//
//   - Run checks each definition as the server sent it (a tool's raw JSON
//     off the wire recorder when there is one) against the rule table
//     (rules.go): each rule has a stable id, a slug, a severity and a
//     row in docs/ci-gates.md. A finding names the rule, the server, the kind and name
//     of the definition and the JSON pointer of the offending member.
//   - Every text is read, never shown raw: messages quote at most a short,
//     escaped excerpt.
//   - Suppressions come from the person's config (per server: rule, tool,
//     reason); a suppressed finding is kept, marked with its reason, and
//     never fails the run.
//   - Walks are bounded: 64 levels, 4096 texts per definition.
//   - Output: a Report for people (WriteHuman), JSON, and SARIF 2.1.0
//     (SARIF), each finding located at the server's declaration.
//
// Imports: engine/sanitize, fault.
package lint
