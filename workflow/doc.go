// Package workflow is relavium's workflow language: authored
// .relavium/workflows/<id>.yaml files, their typed inputs, {{…}} templates,
// the plan a machine client confirms, and deterministic runs over engine's
// registry and event stream.
//
// Contract:
//   - workflow is platform-pure like engine: never the MCP SDK, os/exec,
//     net, net/http, host, invoke or tui (deps_test.go enforces it with
//     `go list -deps`). Tool calls go through engine.Registry and
//     engine.Trace, so the host's validation and bounds apply.
//   - Workflows: LoadWorkflow(s) validate every authored rule and report
//     every problem at once with file:line:column and field (E600, exit 2).
//     Templates are {{…}} lookups only (inputs, earlier steps);
//     {{secrets.*}} is refused. A file goes through package authored's one
//     YAML reader (nesting measured before goccy/go-yaml parses it, 64
//     levels and 20 000 values; one document; no anchor, alias, tag, merge
//     key, non-string key or escape naming no character), and an array or
//     object --input is measured before encoding/json decodes it (256
//     levels). Problems are authored.Problem, carried by ProblemsError.
//   - Inputs are fields.Fields too (Input.Field, Workflow.Fields); --input
//     words are typed by package fields' one rule (ParseInputArgs), then
//     held as a plan holds them.
//   - Run: inputs validated against InputSchema (E603), then exactly one
//     terminal event per started run: run:completed, run:failed, or
//     run:cancelled (ctx cancelled E609, gate refused E610).
//   - Plan: the plan form and its plan_id (SHA-256 of the canonical plan
//     JSON); Check refuses a moved plan with E450.
//
// Imports: the standard library, engine, engine/sanitize, authored,
// nesting, fields, consent/canonjson, regularfile, github.com/goccy/go-yaml and
// github.com/google/jsonschema-go. The codes it owns (E600–E603, E606, E608,
// E610, E611, E613 and E450) are in codes.go; ProblemsError (E600, E603) and
// IsCancellation are in errors.go. A run also returns engine's codes of the
// calls it makes (E604, E605, E607, E609, E612).
package workflow
