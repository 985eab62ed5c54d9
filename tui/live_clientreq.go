package tui

import (
	"context"

	"github.com/relavium/relavium/host"
)

// The live backend's client requests: each goes to the server's host.

func (l *live) SetLogLevel(ctx context.Context, server, level string) error {
	h, err := l.hostOf(server)
	if err != nil {
		return err
	}
	return h.SetLogLevel(ctx, server, level)
}

func (l *live) SubscribeResource(ctx context.Context, server, uri string) error {
	h, err := l.hostOf(server)
	if err != nil {
		return err
	}
	return h.Subscribe(ctx, server, uri)
}

func (l *live) UnsubscribeResource(ctx context.Context, server, uri string) error {
	h, err := l.hostOf(server)
	if err != nil {
		return err
	}
	return h.Unsubscribe(ctx, server, uri)
}

func (l *live) Complete(ctx context.Context, server string, ref host.CompletionRef, arg, value string, known map[string]string) (*host.Completion, error) {
	h, err := l.hostOf(server)
	if err != nil {
		return nil, err
	}
	return h.Complete(ctx, server, ref, arg, value, known)
}
