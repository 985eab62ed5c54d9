package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/invoke/cli"
)

// mcp read --subscribe D: after the first read, subscribe to the resource
// and read it again at each notifications/resources/updated, for D (at
// most an hour, at most maxReadUpdates updates); each update is said on
// stderr as it comes, and the reads are the command's output.

const (
	maxSubscribeFor = time.Hour
	maxReadUpdates  = 1000
)

// ReadUpdate is one read made after an update.
type ReadUpdate struct {
	At       time.Time        `json:"at"`
	Contents []engine.Content `json:"contents"`
}

// updateWaiter takes mcp:resource_updated for one (server, uri) off the
// event stream, coalescing a burst into one wake-up; it never blocks.
type updateWaiter struct {
	server, uri string
	ch          chan struct{}
}

func (u *updateWaiter) Emit(e engine.Event) {
	if d, ok := e.Data.(host.ResourceUpdatedData); ok && d.Server == u.server && d.URI == u.uri {
		select {
		case u.ch <- struct{}{}:
		default:
		}
	}
}

// subscribeFor is --subscribe's duration (0 without the flag).
func subscribeFor(inv *cli.Invocation) (time.Duration, error) {
	if !inv.Changed("subscribe") {
		return 0, nil
	}
	d := inv.Duration("subscribe")
	if d <= 0 || d > maxSubscribeFor {
		return 0, cli.UsageErr(cli.CodeBadFlag, "--subscribe takes a duration from 1ms to 1h, such as 30s")
	}
	return d, nil
}

// follow subscribes to uri and reads it again at each update until d
// passes (or ctx ends, or maxReadUpdates were read).
func follow(ctx context.Context, inv *cli.Invocation, h *host.Host, w *updateWaiter, d time.Duration) ([]ReadUpdate, error) {
	if err := h.Subscribe(ctx, w.server, w.uri); err != nil {
		return nil, err
	}
	fmt.Fprintf(inv.Env.Stderr, "subscribed to %s for %s\n", sanitize.Line(w.uri), d)
	timer := time.NewTimer(d)
	defer timer.Stop()
	updates := []ReadUpdate{}
	for len(updates) < maxReadUpdates {
		select {
		case <-timer.C:
			return updates, nil
		case <-ctx.Done():
			return updates, nil // Ctrl-C ends the wait; what was read is the output
		case <-w.ch:
		}
		contents, err := h.ReadResource(ctx, w.server, w.uri)
		if err != nil {
			return updates, err
		}
		now := time.Now
		if inv.Env.Now != nil {
			now = inv.Env.Now
		}
		updates = append(updates, ReadUpdate{At: now(), Contents: contents})
		fmt.Fprintf(inv.Env.Stderr, "%s updated (%d)\n", sanitize.Line(w.uri), len(updates))
	}
	return updates, nil
}

// writeUpdates prints each update's read after a line saying when.
func writeUpdates(b *strings.Builder, r *MCPReadResult) {
	for i, u := range r.Updates {
		fmt.Fprintf(b, "— update %d at %s —\n", i+1, u.At.Format("15:04:05"))
		(&MCPReadResult{URI: r.URI, Contents: u.Contents}).writeContents(b)
	}
}
