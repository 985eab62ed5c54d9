// Package proc is the process side of host's connections: a stdio server's
// child and everything relavium knows how to do to a process.
//
// Contract:
//   - Spawn starts a server's command in its own process group (a confined
//     spawn gets the namespaces its sandbox.Policy needs, and the spawn
//     again without them where the kernel refuses), the parent ends of its
//     pipes close-on-exec; one goroutine waits for it and one copies its
//     stderr into the StderrRing (bounded; Tail redacts, sanitizes and
//     never shows half a line).
//   - Child.Terminate is the teardown: stdin EOF → SIGTERM → grace →
//     SIGKILL to the process group and to every process recorded below the
//     child that left it (lineage.go: pid + start time, walked every 50 ms
//     while the child runs), and returns once the child is reaped, nothing
//     of its tree is alive and its stderr is drained. A process is signalled
//     or reaped only while its pid still names the process recorded.
//   - BecomeSubreaper (Linux) is the command's to call, once, at start;
//     KillChildren is the exit that cannot wait for a teardown (every child
//     of the process and the group each leads, SIGKILLed at once, found in
//     /proc). Where /proc or the subreaper is missing (other systems), only
//     the process group (Windows: the process) is reached.
//
// host decides when a child starts and ends; proc knows how. It knows
// nothing of MCP, sessions or servers.
//
// proc may import engine/sanitize, redact and sandbox, and x/sys; never host
// or anything above it (deps_test.go).
package proc
