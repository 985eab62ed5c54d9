package config

import (
	"time"

	"github.com/relavium/relavium/fault"
)

// CodeCallTimeout: call_timeout_ms is not a positive integer of at most an
// hour. (In the range E901–E919 of the client's side of MCP.)
const CodeCallTimeout fault.Code = "E904"

const maxCallTimeoutMS = 3600000

// callTimeout reads call_timeout_ms: the server's idle call deadline (how
// long a call may go without progress; a dialog open on the server's
// behalf pauses it).
func (c *checker) callTimeout(f *field, path string) time.Duration {
	if f.val.kind == kindInt {
		switch n := f.val.num; {
		case n <= 0:
			c.add(CodeCallTimeout, f.at(), path, "must be a positive number of milliseconds, got %d (leave it out for the session's call timeout)", n)
		case n > maxCallTimeoutMS:
			c.add(CodeCallTimeout, f.at(), path, "must be at most %d (an hour), got %d", maxCallTimeoutMS, n)
		default:
			return time.Duration(n) * time.Millisecond
		}
		return 0
	}
	if f.val.kind != kindBad {
		got := f.val.kind.String()
		if f.val.spelled != "" && f.val.kind != kindString {
			got += " (" + f.val.spelled + ")"
		}
		c.add(CodeCallTimeout, f.at(), path, "must be a positive integer number of milliseconds, at most %d; got %s", maxCallTimeoutMS, got)
	}
	return 0
}
