// Package sandbox confines a stdio MCP server to the policy the person
// consented to: what it may read, what it may write and where it may
// connect (docs/sandbox.md). Consent decides whether a program runs; the
// sandbox decides what it can touch, and the policy is part of the consent
// digest, so a looser policy is asked about again.
//
// Contract:
//   - Decl is a server's authored `sandbox` (a table, false, or
//     "required"); Effective turns it, with the resolved program, its cwd,
//     the project and the roots, into the Policy that is digested, shown
//     and applied. Paths are absolute, cleaned, sorted and deduplicated;
//     a default path that does not exist is left out.
//   - Policy.Digested is its canonical form inside the consent digest
//     (Required is a launch condition, not an access, and is not in it).
//     Covers says whether a granted policy allows everything a current one
//     does: tightening keeps a grant, loosening asks again.
//   - Probe says whether this kernel can confine (Landlock ABI ≥ 4 on
//     Linux) and, when not, why: "not sandboxed: …" on every surface;
//     Required then refuses to start (E340).
//   - Exec is the hidden `relavium sandbox-exec`: the only code that calls
//     landlock. It runs between fork and the server's exec, in a process of
//     its own, so relavium itself is never confined: no_new_privs, the
//     Landlock ruleset (files, TCP ports, and on ABI ≥ 6 signals and
//     abstract sockets scoped), then exec of the server. Launch builds its
//     command line and the clone flags (a user and network namespace for
//     network "none").
//   - Proxy is the local HTTP CONNECT proxy of network "guarded": every
//     target passes an Admit function (the host's network guard) before it
//     is dialled.
//
// It imports the standard library, golang.org/x/sys, go-landlock and
// relavium's fault and consent/canonjson; never host, session or a face.
package sandbox
