// Package tasks holds MCP tasks (protocol 2025-11-25, experimental) as
// relavium sees them: a tool called as a task answers at once with a task
// id; the task is then polled (tasks/get), listed (tasks/list), cancelled
// (tasks/cancel) and its result fetched when it is done (tasks/result).
// go-sdk v1.8.0 has no task API, so package host sends these requests over
// its raw request path (host/direct); this package holds what they carry:
// the Task and its statuses, the task as it comes off the wire (Wire) and
// how it is taken (Take: the id bounded and plain, E926; the server's words
// cleaned as one-line fields, its message through the caller's redactor),
// which part of tasks a server declares (Offered, E920), and which refusals
// are shown as themselves rather than as a call failure (Failure).
//
// tasks may import engine/sanitize, fault and host/failure; never package
// host, whose root composes it.
package tasks
