// Package consent implements docs/mcp-integration.md "Consent before a local
// stdio spawn": no stdio MCP server is spawned unless the person consented to
// that exact program, under that sandbox policy, on this machine. Of
// relavium it imports fault, nesting, consent/canonjson, sandbox (the
// policy's type, digested form and coverage) and regularfile (an env file's
// bounded, FIFO-safe read).
//
// Contract, in the order a host uses it:
//
//   - CheckEnv: the shared environment denylist (denylist.go). The
//     config loader refuses a declared entry with it; Resolve applies it again.
//   - Resolve: a Declaration becomes a Resolved — absolute command (ambient
//     PATH walk or relative-to-cwd; a regular file with an execute bit), env
//     tagged literal / secret-ref, absolute cwd — and its v1 Digest. The host
//     spawns exactly Resolved.Command in Resolved.Cwd.
//   - ReadEnvFile: a stdio server's dotenv file (env_file), bounded and
//     FIFO-safe, each entry under CheckEnv (E325); Resolve reads its names
//     and digests its path and NewEnvFile's names digest under the
//     additional key "env_file" (never a value), the host reads the values
//     at spawn and refuses names that changed since (E326).
//   - Digest: "v1:" + SHA-256 of the canonical JSON of
//     {transport, command, args, env, cwd}, encoded by package canonjson
//     (keys in UTF-16 order, JSON.stringify escaping); a lone surrogate or
//     invalid UTF-8 has no digest (E307). A declaration with a Sandbox
//     resolves to its effective policy (sandbox.Effective), digested under
//     the additional key "sandbox" (SandboxedDigest); a grant line keeps the
//     policy's words, so a tighter policy of the same program keeps its
//     grant (Grants.Covering, the digest recomputed under the granted
//     policy) and a looser one is asked about with the diff naming what
//     loosened.
//   - CheckHome: the relavium home must be a directory the user owns that
//     group and others cannot write (a symlink is resolved, its target
//     judged); else E318. invoke calls it before any command; every store
//     of the home calls it again before each read or write.
//   - Store: <home>/mcp-consent.ndjson, append-only grants and tombstones
//     under flock, 0600 in 0700, symlinks refused, env names only; an append
//     the file system cuts short is cut back, never left torn. Fold fails
//     closed on any unparseable line with a *FoldError (line, reason).
//     Grant lines carry one additive field beyond the documented shape, envKinds
//     (name → kind, never a value), so a diff can show a changed kind.
//     The file primitives are lineFile (linefile.go), reusable by any other
//     append-only store of the home: it reads through lineReader (lines.go),
//     one line at a time under a per-line cap, so a fold holds one line and
//     its live grants (bounded, foldmem.go), never the file.
//   - Decider: per server Approved (grant, --allow-mcp-stdio, approved once),
//     NeedsConsent (with a Diff against the earlier grant of the same server (Grants.Closest)) or Denied;
//     ApproveOnce / Remember / Deny / Reask are the session's answers.
//   - Local endpoints (local.go): a server of another client's file whose
//     url names a loopback or private address is held until the person
//     approves that address: a Binding with Local set, digest over
//     {kind:"local-endpoint", origin}, decided by DecideBindings (a grant,
//     --allow-local NAME via AllowLocal, approved once, denied), kept in the
//     same store (a grant line with origin and no secret) and refused
//     headless by the same PendingError (E327 when nothing else waits).
//   - Require: headless, any NeedsConsent becomes a *PendingError (E301,
//     exit 2) whose data lists pending[] and whose human text names the
//     --allow-mcp-stdio flag per server.
//   - Approvals: <home>/tool-approvals.ndjson, the person's "always for this
//     definition" answers to a tool call, keyed by server, tool and the
//     tool's pin digest (so an approval lapses when the definition changes),
//     kept with the grant store's primitives (lock, append, the same file
//     and home checks) and folded fail-closed (E320–E322). ClearCall is the
//     one rule for whether a call may go ahead unasked: --yes, the tool's
//     exact name in tools_auto_approve, or a remembered approval of this
//     exact definition — never a server's annotations, and for a definition
//     changed since it was accepted nothing but a per-call --yes.
//   - consent/urlref reads a network server's url as written: its
//     references read by RefsIn and placed (the origin, chosen by the
//     environment; the path or query, a value carried to the origin and
//     bound there as env.VAR or NAME, binding.go's URLCarrier and
//     EnvBindingPrefix).
//
// Error codes E300–E328 are listed in errors.go.
package consent
