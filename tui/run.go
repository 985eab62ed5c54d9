package tui

import (
	"context"

	"github.com/relavium/relavium/invoke"
)

// Run opens the interactive session. Not built yet.
func Run(_ context.Context, inv *invoke.Invocation, demo bool) error {
	return &invoke.Error{ErrCode: invoke.CodeNotImplemented, Msg: "the TUI is not built yet"}
}
