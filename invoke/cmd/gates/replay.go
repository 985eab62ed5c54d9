package gates

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/gates/lock"
	"github.com/relavium/relavium/gates/replay"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/inbound"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/invoke/demoserver"
)

// RunReplay serves one recorded server over stdio, or Streamable HTTP at
// http://HOST:PORT/mcp (loopback only; the url is printed on stderr). Both
// stand behind mcp serve's own door (package inbound): on stdio a line that
// is not one JSON-RPC message, or is over 4 MiB or too deep, is answered
// with a coded JSON-RPC error and the next line is read; on http the bearer
// token (RELAVIUM_MCP_TOKEN, else <home>/mcp-token, generated when absent)
// is required and Host and Origin must be loopback names (DNS rebinding).
func RunReplay(ctx context.Context, inv *cli.Invocation) (any, error) {
	if inv.Global.JSON {
		return nil, cli.UsageErr(cli.CodeBadFlag, "replay speaks MCP on its streams and has no JSON result; drop --json")
	}
	script, err := loadScript(inv.Args[0], inv.String("server"))
	if err != nil {
		return nil, err
	}
	env := inv.Env
	if inv.String("transport") == "http" {
		return nil, replayHTTP(ctx, inv, script)
	}
	out := inbound.NewLockedWriter(cli.NopWriteCloser{Writer: env.Stdout})
	in := inbound.NewStdioFilter(env.Stdin, out).Drain(ctx, replayDrain) // every answer written before the end
	t := &mcp.IOTransport{Reader: in, Writer: out, MaxLineLength: inbound.MaxStdioLineBytes + 1}
	conn, err := t.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return nil, replay.Serve(ctx, conn, script)
}

// replayDrain bounds how long the end of replay's stdin waits for the
// answers in flight (a recorded answer is written at once).
const replayDrain = 5 * time.Second

// replayHTTP serves the script over Streamable HTTP behind inbound.Guard.
func replayHTTP(ctx context.Context, inv *cli.Invocation, script *replay.Script) error {
	env := inv.Env
	token, err := inbound.ExistingToken(env.Home, env.LookupEnv)
	if err != nil {
		return err
	}
	ln, err := demoserver.Listen(inv.String("host"), inv.Int("port"))
	if err != nil {
		return err
	}
	if token == nil {
		if token, err = inbound.GenerateToken(env.Home); err != nil {
			ln.Close()
			return err
		}
		fmt.Fprintf(env.Stderr, "relavium replay: generated a bearer token in %s (0600); read it with: cat %s\n", token.Path, token.Path)
	}
	mux := http.NewServeMux()
	mux.Handle(demoserver.Endpoint, replay.Handler(script))
	guard := &inbound.Guard{Token: token, Next: mux}
	srv := &http.Server{Handler: guard, ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(env.Stderr, "relavium replay: server %s listening on %s (%s)\n", script.Server, demoserver.EndpointURL(ln), token.Describe())
	select {
	case <-ctx.Done():
	case err = <-served:
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	_ = srv.Shutdown(sctx)
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func loadScript(path, server string) (*replay.Script, error) {
	rec, err := replay.Read(path)
	if err != nil {
		return nil, err
	}
	name, err := rec.Pick(server)
	if err != nil {
		return nil, err
	}
	return rec.Script(name)
}

// recordingBaseline is `mcp check --against FILE`: every server of the
// recording replayed in this process and locked as the live ones are.
// A recording holds no identity, so each recorded server is compared by
// its definitions only.
func recordingBaseline(ctx context.Context, inv *cli.Invocation, path string) (string, *lock.File, error) {
	rec, err := replay.Read(path)
	if err != nil {
		return "", nil, err
	}
	var eps []host.Endpoint
	var wg sync.WaitGroup
	sctx, stop := context.WithCancel(ctx)
	defer func() { stop(); wg.Wait() }()
	for _, name := range rec.Servers() {
		script, err := rec.Script(name)
		if err != nil {
			return "", nil, err
		}
		ct, st := mcp.NewInMemoryTransports()
		conn, err := st.Connect(sctx)
		if err != nil {
			return "", nil, err
		}
		wg.Go(func() { _ = replay.Serve(sctx, conn, script) })
		eps = append(eps, host.InProcess(name, ct))
	}
	h, err := host.Start(ctx, host.Options{Servers: eps, ClientVersion: inv.Env.Version})
	if err != nil {
		return "", nil, err
	}
	defer h.Close()
	f, unrecorded, err := snapshotWith(ctx, h, true)
	if err != nil {
		return "", nil, err
	}
	for i := range f.Servers {
		s := &f.Servers[i]
		if unrecorded[s.Name+" prompts"] {
			s.Prompts = nil
		}
		if unrecorded[s.Name+" resources"] {
			s.Resources, s.Templates = nil, nil
		}
		if unrecorded[s.Name+" prompts"] || unrecorded[s.Name+" resources"] {
			s.NotOffered = nil // the replay's "method not found", not the server's
		}
	}
	return path, f, nil
}
