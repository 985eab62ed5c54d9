package deadline

import (
	"fmt"
	"time"
)

// Cause marks a context that ended because one of the connect,
// discovery or call deadlines elapsed (as opposed to a cancellation).
type Cause struct {
	What   string
	D      time.Duration
	Remedy string // what raises it, when not --timeout (call deadlines)
}

func (d *Cause) Error() string { return fmt.Sprintf("%s deadline of %s exceeded", d.What, d.D) }
