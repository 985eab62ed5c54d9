package machine

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// HTTP limits (docs/machine-invoker.md "Transports and --host"); the body
// bound is inbound.MaxBodyBytes.
const (
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = 30 * time.Second
	shutdownGrace     = 2 * time.Second
)

// newHTTPServer is the server of the sse and http transports: no write
// timeout, so SSE streams stay open.
func newHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		ErrorLog:          nil,
	}
}

// serveHTTP runs srv on ln until ctx ends, then shuts it down; every
// in-flight request's context is cancelled, which stops its children.
func serveHTTP(ctx context.Context, srv *http.Server, ln net.Listener) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
