package loadtest

import (
	"context"
	"time"
)

// Outcome is how one request ended, as its Target saw it.
type Outcome struct {
	// Error is "" for a success; otherwise the error's class and code as
	// the report counts it: "timeout", "jsonrpc -32602", "isError",
	// "transport E503", … One key per distinct failure a person would fix
	// differently.
	Error string
}

// OK is a successful outcome.
var OK = Outcome{}

// Failed is an outcome counted under key.
func Failed(key string) Outcome { return Outcome{Error: key} }

// Target sends request number i (0, 1, 2, … in schedule order; a Target
// with several argument sets picks one by i) and reports how it ended. It
// must honour ctx: the run cancels it at the request's deadline and when the
// run ends. It is called from many goroutines at once.
type Target func(ctx context.Context, i int) Outcome

// sample is one finished request.
type sample struct {
	intended time.Time // when the schedule said it should start
	sent     time.Time // when the Target was called
	done     time.Time // when the Target returned
	outcome  Outcome
}
