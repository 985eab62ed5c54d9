package session

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/invoke/demoserver"
)

// RunDemoServer serves the embedded demo MCP server: over stdin/stdout by
// default, or Streamable HTTP at http://HOST:PORT/mcp (loopback only), whose
// url is printed on stderr. It returns when the client goes away or ctx is
// cancelled (SIGINT/SIGTERM), after every session has ended.
func RunDemoServer(ctx context.Context, inv *cli.Invocation) (any, error) {
	if inv.Global.JSON {
		return nil, demoserver.Codes().New(demoserver.CodeNoJSON, "demo-server speaks MCP on its streams and has no JSON result; drop --json")
	}
	env := inv.Env
	logger := slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv := demoserver.New(demoserver.Options{Version: env.Version, Logger: logger})
	if inv.String("transport") == "http" {
		ln, err := demoserver.Listen(inv.String("host"), inv.Int("port"))
		if err != nil {
			return nil, err
		}
		return nil, srv.ServeHTTP(ctx, ln, func(url string) {
			fmt.Fprintf(env.Stderr, "relavium demo-server: listening on %s\n", url)
		})
	}
	in, ok := env.Stdin.(io.ReadCloser)
	if !ok {
		in = io.NopCloser(env.Stdin)
	}
	return nil, srv.ServeStdio(ctx, in, cli.NopWriteCloser{Writer: env.Stdout})
}
