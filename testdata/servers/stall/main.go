// Command stall is the MCP server `mcp bench`'s tests load: a server of
// known latency with one stall, the shape that tells an open loop from a
// closed one.
//
// Its one tool, work, answers after -latency, one request at a time (a
// single-threaded server: requests that arrive meanwhile wait). The
// -stall-at'th call (counting from 1) takes -stall instead, and the
// requests that arrive during it queue behind it. A call with
// {"fail": true} answers isError; one with {"reject": true} is answered
// with a JSON-RPC error (-32602).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type args struct {
	Fail   bool `json:"fail,omitempty"`
	Reject bool `json:"reject,omitempty"`
}

type out struct {
	N int `json:"n"`
}

func main() {
	latency := flag.Duration("latency", time.Millisecond, "each call's latency")
	stall := flag.Duration("stall", time.Second, "the stalled call's latency")
	stallAt := flag.Int("stall-at", 0, "which call stalls (1-based; 0: none)")
	flag.Parse()

	var (
		mu sync.Mutex
		n  int
	)
	s := mcp.NewServer(&mcp.Implementation{Name: "stall", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "work", Description: "Work for a known time, one call at a time."},
		func(ctx context.Context, _ *mcp.CallToolRequest, a args) (*mcp.CallToolResult, out, error) {
			mu.Lock()
			defer mu.Unlock()
			n++
			d := *latency
			if n == *stallAt {
				d = *stall
			}
			time.Sleep(d)
			switch {
			case a.Reject:
				return nil, out{}, fmt.Errorf("rejected")
			case a.Fail:
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "failed"}}}, out{N: n}, nil
			}
			return nil, out{N: n}, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "stall:", err)
		os.Exit(1)
	}
}
