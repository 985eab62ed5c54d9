// Command auditwriter appends records to a machine audit log from its own
// process, for package machine's concurrent-writer rotation test.
//
//	auditwriter HOME WRITER-ID COUNT PAD-BYTES
package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/machine"
)

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: auditwriter HOME WRITER-ID COUNT PAD-BYTES")
		os.Exit(2)
	}
	count, _ := strconv.Atoi(os.Args[3])
	pad, _ := strconv.Atoi(os.Args[4])
	log := machine.NewAuditLog(os.Args[1])
	for i := 0; i < count; i++ {
		rec := machine.AuditRecord{
			Time: time.Now().UTC().Format(time.RFC3339Nano), Transport: machine.TransportMCPHTTP, Project: "/p",
			Command: "stub write", SideEffect: cli.Write, Decision: machine.DecisionRun,
			RequestID: fmt.Sprintf("%s-%d", os.Args[2], i),
			Request:   machine.RedactedRequest{Args: []string{strings.Repeat("x", pad)}, Argv: []string{}, Flags: map[string]any{}},
		}
		if err := log.Append(rec); err != nil {
			fmt.Fprintln(os.Stderr, "append:", err)
			os.Exit(1)
		}
	}
}
