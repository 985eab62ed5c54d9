package demoserver

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Name is the demo server's implementation name (serverInfo.name).
const Name = "relavium-demo"

// DefaultWatchInterval is how often test://watched-resource reports an update
// to its subscribers when Options.WatchInterval is zero.
const DefaultWatchInterval = 5 * time.Second

const instructions = `relavium's demo MCP server. Tools named test_* are the fixtures of the ` +
	`official MCP conformance suite; the others are friendly demos: echo, add_numbers, ` +
	`get_weather (structured content), long_operation (progress), emit_logs (logging), ` +
	`ask_user (elicitation), get_resource_links, always_fails (isError), create_note ` +
	`(writes), delete_file (destructive, deletes nothing), toggle_extra_tool (changes ` +
	`the tool list: notifications/tools/list_changed). Three tools carry schemas a ` +
	`careful client refuses.`

// Options configure a demo server.
type Options struct {
	// Version is reported as serverInfo.version.
	Version string
	// Logger receives the SDK's diagnostics; nil discards them.
	Logger *slog.Logger
	// WatchInterval is the period of test://watched-resource updates while
	// serving; 0 means DefaultWatchInterval, negative disables them.
	WatchInterval time.Duration
}

// Server is one demo MCP server. Its state (notes) is its own; two Servers
// share nothing.
type Server struct {
	mcp   *mcp.Server
	opts  Options
	notes *noteStore
	extra extraState // whether toggle_extra_tool has listed ExtraTool
	// stateKey signs the requestState of multi round-trip tools
	// (requeststate.go); drawn at New, never leaves the process.
	stateKey []byte

	// life ends when the server closes; every request's context ends with
	// it (abortOnClose), so no handler outlives the server.
	life context.Context
	stop context.CancelFunc
}

// New builds a demo server with every tool, prompt and resource registered.
func New(opts Options) *Server {
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.WatchInterval == 0 {
		opts.WatchInterval = DefaultWatchInterval
	}
	s := &Server{opts: opts, notes: newNoteStore(), stateKey: newStateKey()}
	s.life, s.stop = context.WithCancel(context.Background())
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: Name, Title: "relavium demo server", Version: opts.Version},
		&mcp.ServerOptions{
			Instructions:       instructions,
			Logger:             opts.Logger,
			CompletionHandler:  s.complete,
			SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
			UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
		})
	s.addTools()
	s.addPrompts()
	s.addResources()
	// Added last, so it is the outermost middleware: the contexts of the
	// SDK's elicitation/sampling bridge end with the server too.
	s.mcp.AddReceivingMiddleware(s.abortOnClose)
	return s
}

// MCP returns the underlying SDK server, for callers that bring their own
// transport (tests use mcp.NewInMemoryTransports). Call Close when done.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Close cancels every request in progress (long_operation, logging and
// progress delays, a pending elicitation) and closes every open session.
// Answers still unsent are dropped; ServeStdio and ServeHTTP instead wait
// (at most shutdownGrace) for them to reach the client before they close.
// Close is idempotent. A closed Server cannot serve again.
func (s *Server) Close() {
	s.stop()
	s.closeSessions()
}

func (s *Server) closeSessions() {
	for ss := range s.mcp.Sessions() {
		_ = ss.Close()
	}
}

// abortOnClose ends each request's context when the server closes.
func (s *Server) abortOnClose(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		release := context.AfterFunc(s.life, cancel)
		defer release()
		return next(ctx, method, req)
	}
}

// sleep waits d, or until ctx ends.
func (s *Server) sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		if s.life.Err() != nil {
			return errServerClosing
		}
		return ctx.Err()
	}
}

// watch reports an update of test://watched-resource every interval until ctx
// ends or the server closes.
func (s *Server) watch(ctx context.Context) {
	if s.opts.WatchInterval < 0 {
		return
	}
	t := time.NewTicker(s.opts.WatchInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.life.Done():
			return
		case <-t.C:
			_ = s.mcp.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: watchedURI})
		}
	}
}
