package demoserver

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/internal/erahttp"
)

// Endpoint is the path of the Streamable HTTP endpoint.
const Endpoint = "/mcp"

// Timeouts of the HTTP transport.
const (
	readHeaderTimeout = 10 * time.Second
	sessionIdle       = 30 * time.Minute // an idle session is closed
	shutdownGrace     = 2 * time.Second  // then connections are cut
)

// ServeStdio serves one session over r (client to server) and w (server to
// client), newline-delimited JSON-RPC, until the client closes r or ctx
// ends. Either way it returns nil; a broken stream is an E803 error.
func (s *Server) ServeStdio(ctx context.Context, r io.ReadCloser, w io.WriteCloser) error {
	var wg sync.WaitGroup
	defer wg.Wait()
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	wg.Go(func() { s.watch(watchCtx) })

	// When ctx ends: cancel the requests in progress, let them answer, then
	// end the session (runCtx). The SDK's Close would otherwise drop their
	// answers.
	var calls inflight // calls read and not yet answered
	runCtx, endRun := context.WithCancel(context.Background())
	defer endRun()
	wg.Go(func() {
		select {
		case <-ctx.Done():
			s.stop()
			gctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
			defer cancel()
			calls.wait(gctx)
			endRun()
		case <-runCtx.Done(): // the session ended first
		}
	})

	ss, err := s.mcp.Connect(runCtx, answeredTransport{taskTransport{&mcp.IOTransport{Reader: r, Writer: w}}, &calls}, nil)
	if err != nil {
		return codes.Wrap(CodeServe, err, "cannot start the stdio session")
	}
	ended := make(chan error, 1)
	wg.Go(func() { ended <- ss.Wait() })
	select {
	case err = <-ended:
	case <-runCtx.Done():
		_ = ss.Close()
		err = <-ended
	}
	s.Close()
	switch {
	case err == nil, ctx.Err() != nil, clientGone(err):
		return nil
	default:
		return codes.Wrap(CodeServe, err, "the stdio session failed")
	}
}

// clientGone reports whether a session error only says that the client
// closed its end (EOF on read, a closed or broken pipe on write).
func clientGone(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, os.ErrClosed) || errors.Is(err, mcp.ErrConnectionClosed)
}

// Listen opens the TCP listener of the HTTP transport. host must be a
// loopback address or "localhost": the demo server's DNS-rebinding
// protection is only sound there. port 0 picks a free port.
func Listen(host string, port int) (net.Listener, error) {
	if port < 0 || port > 65535 {
		return nil, codes.New(CodeBadPort, "--port %d is out of range: use 1-65535, or 0 for a free port", port)
	}
	if !isLoopback(host) {
		return nil, codes.New(CodeHostNotLoopback, "--host %q is not a loopback address: the demo server listens on 127.0.0.1, ::1 or localhost only", host)
	}
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, codes.Wrap(CodeListen, err, "cannot listen on %s (is the port in use? --port 0 picks a free one)", addr)
	}
	return ln, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// EndpointURL is the MCP url of a listener opened by Listen.
func EndpointURL(ln net.Listener) string {
	return "http://" + ln.Addr().String() + Endpoint
}

// Handler returns the HTTP handler: Streamable HTTP at /mcp (sessions,
// resumable streams) behind the SDK's DNS-rebinding protection (a
// non-loopback Host on a loopback connection gets 403) and the standard
// library's cross-origin protection (an Origin other than the Host gets 403).
func (s *Server) Handler() http.Handler {
	h := erahttp.Handler(s.mcp, &mcp.StreamableHTTPOptions{
		EventStore:     mcp.NewMemoryEventStore(nil),
		SessionTimeout: sessionIdle,
		Logger:         s.opts.Logger,
	})
	mux := http.NewServeMux()
	mux.Handle(Endpoint, http.NewCrossOriginProtection().Handler(h))
	return mux
}

// ServeHTTP serves Streamable HTTP on ln until ctx ends, calling ready with
// the endpoint url once it accepts connections. Shutdown closes ln, cancels
// the calls in progress and lets them answer, then closes every session and
// connection; ServeHTTP returns after all of it, nil when clean.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener, ready func(url string)) error {
	var posts inflight // POSTs being answered
	h := s.Handler()
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				posts.begin()
				defer posts.end()
			}
			h.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: readHeaderTimeout,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	wg.Go(func() { s.watch(watchCtx) })
	served := make(chan error, 1)
	wg.Go(func() { served <- srv.Serve(ln) })
	if ready != nil {
		ready(EndpointURL(ln))
	}

	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-served:
	}
	gctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(gctx) }() // closes ln; waits for connections to go idle
	s.stop()                                   // calls in progress end with a "shutting down" result...
	posts.wait(gctx)                           // ...which reaches their POST streams
	s.closeSessions()
	if err := <-shut; err != nil {
		_ = srv.Close()
	}
	s.closeSessions() // one opened while the listener was closing
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return codes.Wrap(CodeServe, serveErr, "the HTTP server failed")
	}
	return nil
}
