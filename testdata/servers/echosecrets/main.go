// Command echosecrets is the stdio server of the redaction tests: it
// repeats the values of the environment variables named on its command
// line in every field a client may show (internal/echoserver).
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/internal/echoserver"
)

func main() {
	s := echoserver.New(echoserver.FromEnv(os.Getenv, os.Args[1:]...))
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "echosecrets:", err)
	}
}
