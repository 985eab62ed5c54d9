//go:build !unix

package loadtest

import "time"

// cpuTime is not measured where getrusage does not exist; the report then
// says 0 and the human output leaves the line out.
func cpuTime() time.Duration { return 0 }
